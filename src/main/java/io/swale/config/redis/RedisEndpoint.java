package io.swale.config.redis;

/**
 * One {@code host:port} of a Redis setting.
 *
 * @param host the host name or address
 * @param port the TCP port
 */
public record RedisEndpoint(String host, int port) {

    public RedisEndpoint {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host must not be blank");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is not between 1 and 65535");
        }
    }

    /** Parses {@code host:port} (IPv6 as {@code [::1]:6379}); the error names the property it came from. */
    static RedisEndpoint parse(String property, String value) {
        String v = value == null ? "" : value.trim();
        int colon = v.lastIndexOf(':');
        if (colon <= 0 || colon == v.length() - 1) {
            throw new IllegalArgumentException(property + ": '" + value + "' is not host:port");
        }
        String host = v.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        try {
            return new RedisEndpoint(host, Integer.parseInt(v.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(property + ": '" + value + "' has no numeric port");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(property + ": '" + value + "': " + e.getMessage());
        }
    }

    @Override
    public String toString() {
        return host.contains(":") ? "[" + host + "]:" + port : host + ":" + port;
    }
}
