package io.swale.cli;

import io.swale.record.RecordCodec;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import tools.jackson.databind.JsonNode;

/** Options and HTTP calls of the commands that act on a running service. */
final class Remote {
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    String url;

    /** A URL that is not http(s) with a host is a bad argument (exit 2), not a failure to reach the service. */
    @Option(names = "--url", defaultValue = "http://localhost:8080", description = "the service (default ${DEFAULT-VALUE})")
    void url(String value) {
        URI parsed;
        try {
            parsed = new URI(value);
        } catch (URISyntaxException e) {
            throw new ParameterException(command.commandLine(), "--url `" + value + "` is not a URL: " + e.getMessage());
        }
        if (!("http".equalsIgnoreCase(parsed.getScheme()) || "https".equalsIgnoreCase(parsed.getScheme()))
                || parsed.getHost() == null) {
            throw new ParameterException(command.commandLine(), "--url `" + value
                    + "` must be an http:// or https:// URL with a host, like http://localhost:8080");
        }
        this.url = value;
    }

    /** One path segment as a URL carries it: a name with `?`, `/` or a space stays one segment of the path. */
    static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    @Option(names = "--token", defaultValue = "${env:SWALE_TOKEN}", description = "bearer token (default $SWALE_TOKEN)")
    String token;

    /** An answer of the service; {@code body} is a missing node when there was none. */
    record Answer(int status, JsonNode body) {
        boolean ok() {
            return status / 100 == 2;
        }

        /** The problem's detail, or the body. */
        String detail() {
            if (body.hasNonNull("detail")) {
                return body.get("detail").asString();
            }
            return "HTTP " + status + (body.isMissingNode() ? "" : ": " + body);
        }
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    Answer get(String path) {
        return send(request(path).GET());
    }

    Answer post(String path, String contentType, byte[] body) {
        return send(request(path).header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofByteArray(body)));
    }

    private String unreachable(IOException e) {
        return "cannot reach " + url + ": " + e;
    }

    /**
     * A request under {@code idempotencyKey}: one that went out and got no answer may have been applied, so the
     * failure names the key that applies it at most once when given again.
     */
    Answer postJson(String path, String json, String idempotencyKey) {
        HttpRequest.Builder b = request(path).header("Content-Type", "application/json")
                .header("Idempotency-Key", idempotencyKey).POST(HttpRequest.BodyPublishers.ofString(json));
        return send(b, io -> io instanceof java.net.ConnectException
                || io instanceof java.net.http.HttpConnectTimeoutException ? unreachable(io)
                : "no answer from " + url + " (" + io + "): the request may have been applied; run the command again"
                        + " with --idempotency-key " + idempotencyKey + " to apply it at most once");
    }

    /** A GET answered within {@code timeout}; an unreachable service is the caller's to judge (a wait keeps polling). */
    Answer fetch(String path, Duration timeout) throws IOException, InterruptedException {
        return answer(HTTP.send(request(path).timeout(timeout).GET().build(), HttpResponse.BodyHandlers.ofByteArray()));
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url.replaceAll("/+$", "") + path))
                .timeout(Duration.ofSeconds(60)).header("Accept", "application/json");
        if (token != null && !token.isBlank()) {
            b.header("Authorization", "Bearer " + token);
        }
        return b;
    }

    private Answer send(HttpRequest.Builder request) {
        return send(request, this::unreachable);
    }

    /** {@code failure}: what an I/O failure of the exchange means to the user. */
    private Answer send(HttpRequest.Builder request, java.util.function.Function<IOException, String> failure) {
        try {
            return answer(HTTP.send(request.build(), HttpResponse.BodyHandlers.ofByteArray()));
        } catch (IOException e) {
            throw new IllegalStateException(failure.apply(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * The service's answer. A success must carry JSON: one that does not (a proxy's or another server's page, a
     * wrong {@code --url}) is no answer of the service's, and a command that read it would report an empty table,
     * or a wait a settled run, and exit 0.
     */
    private Answer answer(HttpResponse<byte[]> r) {
        JsonNode body = null;
        if (r.body().length > 0) {
            try {
                body = RecordCodec.JSON.readTree(r.body());
            } catch (RuntimeException e) {
                body = tools.jackson.databind.node.JsonNodeFactory.instance.stringNode(
                        new String(r.body(), StandardCharsets.UTF_8));
            }
        }
        int status = r.statusCode();
        if (status / 100 == 2 && status != 204 && (body == null || !(body.isObject() || body.isArray()))) {
            String text = body == null ? "an empty body" : "`" + abbreviated(body.isString() ? body.asString()
                    : body.toString()) + "`";
            throw new NotTheService("the answer of " + r.uri() + " (HTTP " + status + ") is not JSON but " + text
                    + ": is --url (" + url + ") the Swale service?");
        }
        return new Answer(status, body == null ? tools.jackson.databind.node.MissingNode.getInstance() : body);
    }

    private static String abbreviated(String text) {
        String line = text.strip().replaceAll("\\s+", " ");
        return line.length() > 80 ? line.substring(0, 80) + "…" : line;
    }

    /** A success whose body is not the service's JSON. */
    static final class NotTheService extends IllegalStateException {
        NotTheService(String message) {
            super(message);
        }
    }
}
