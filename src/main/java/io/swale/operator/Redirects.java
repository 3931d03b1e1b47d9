package io.swale.operator;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Which request a redirect leads to (spec §8.5: redirects are followed), decided here rather than by the JDK's client,
 * which answers a 3xx without {@code Location} with an I/O error (judged transient, though the spec makes a final 3xx
 * permanent) and stops after four hops. Up to {@link #MAX_HOPS} are followed, never from https to http (the headers
 * and body written for an https URL would go in clear text); the method becomes GET where browsers make it so (303,
 * and POST after 301 or 302); credentials do not go to another origin.
 */
final class Redirects {
    /** The most redirects one request follows; the next 3xx is its final response. */
    static final int MAX_HOPS = 10;

    private static final Set<Integer> FOLLOWED = Set.of(301, 302, 303, 307, 308);
    /** Headers that go to the origin they were written for only. */
    private static final Set<String> CREDENTIALS = Set.of("authorization", "cookie", "proxy-authorization");
    /** Headers of a body, dropped with the body when the method becomes GET. */
    private static final Set<String> BODY = Set.of("content-type", "content-encoding", "content-language",
            "content-location");

    private Redirects() {}

    /** The request {@code response} redirects {@code request} to, or empty when it is a final response. */
    static Optional<HttpRequest> next(HttpRequest request, HttpResponse<?> response) {
        if (!FOLLOWED.contains(response.statusCode())) {
            return Optional.empty();
        }
        Optional<URI> target = response.headers().firstValue("Location").flatMap(to -> target(request.uri(), to));
        if (target.isEmpty()) {
            return Optional.empty();
        }
        URI to = target.get();
        int status = response.statusCode();
        String method = request.method();
        // a method is matched as the Fetch standard normalises it: `post` is POST
        boolean toGet = status == 303 && !method.equalsIgnoreCase("HEAD")
                || (status == 301 || status == 302) && method.equalsIgnoreCase("POST");
        boolean sameOrigin = sameOrigin(request.uri(), to);
        try {
            HttpRequest.Builder next = HttpRequest.newBuilder(to);
            if (toGet) {
                next.GET();
            } else {
                next.method(method, request.bodyPublisher().orElse(HttpRequest.BodyPublishers.noBody()));
            }
            request.version().ifPresent(next::version);
            request.headers().map().forEach((name, values) -> {
                String lower = name.toLowerCase(Locale.ROOT);
                if (!(!sameOrigin && CREDENTIALS.contains(lower) || toGet && BODY.contains(lower))) {
                    values.forEach(v -> next.header(name, v));
                }
            });
            return Optional.of(next.build());
        } catch (IllegalArgumentException | IllegalStateException e) {
            // a target the client cannot ask (its URL, a header it refuses): the 3xx is the final response
            return Optional.empty();
        }
    }

    /** Where {@code location} leads from {@code from}: an http or https URL, not http after https; else empty. */
    private static Optional<URI> target(URI from, String location) {
        String written = location.strip();
        // a query alone replaces the query of the same path (RFC 3986 §5.2.2), where URI.resolve drops the path's
        // last segment as RFC 2396 did
        if (written.startsWith("?")) {
            written = (from.getRawPath() == null || from.getRawPath().isEmpty() ? "/" : from.getRawPath()) + written;
        }
        try {
            URI to = from.resolve(OperatorUrls.parse(written));
            String scheme = to.getScheme() == null ? "" : to.getScheme().toLowerCase(Locale.ROOT);
            boolean downgrade = from.getScheme().equalsIgnoreCase("https") && scheme.equals("http");
            return (scheme.equals("http") || scheme.equals("https")) && !downgrade && to.getHost() != null
                    ? Optional.of(to) : Optional.empty();
        } catch (java.net.URISyntaxException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static boolean sameOrigin(URI a, URI b) {
        return a.getScheme().equalsIgnoreCase(b.getScheme()) && a.getHost().equalsIgnoreCase(b.getHost())
                && port(a) == port(b);
    }

    private static int port(URI u) {
        return u.getPort() >= 0 ? u.getPort() : u.getScheme().equalsIgnoreCase("https") ? 443 : 80;
    }
}
