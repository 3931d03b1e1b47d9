package io.swale.operator;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.net.URISyntaxException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code http} (§8.5): one request, following redirects; a 2xx response succeeds with its status and
 * body, 5xx and 429 are transient, any other status is permanent.
 */
public final class HttpOperator implements Operator {
    private static final System.Logger LOG = System.getLogger(HttpOperator.class.getName());
    public static final String NAME = "http";
    static final String DEFAULT_METHOD = "GET";
    static final String DEFAULT_TIMEOUT = "60s";

    /** Headers the JDK's HTTP client refuses to have set (its restricted header names). */
    static final Set<String> CLIENT_SET_HEADERS = Set.of("connection", "content-length", "expect", "host", "upgrade");

    /**
     * @param method an HTTP method token, sent as written
     * @param url the request URL
     * @param headers request headers
     * @param body the request body, none when absent
     * @param timeout a duration covering the whole request, body read included
     */
    record Params(String method, @JsonProperty(required = true) String url, Map<String, String> headers,
            String body, String timeout) {
        Params {
            method = method == null ? DEFAULT_METHOD : method;
            if (!OperatorJson.isTemplated(method) && !isToken(method)) {
                throw new IllegalArgumentException("`method` `" + method + "` is not a valid HTTP method token");
            }
            if (url == null) {
                throw new IllegalArgumentException("`url` is required: a string");
            }
            headers = headers == null ? Map.of() : headers;
            for (Map.Entry<String, String> e : headers.entrySet()) {
                if (e.getValue() == null) {
                    throw new IllegalArgumentException("`headers." + e.getKey() + "` must be a string, not null");
                }
                if (CLIENT_SET_HEADERS.contains(e.getKey().toLowerCase(Locale.ROOT))) {
                    // refused at load: the client would refuse it at every run, each one dead-lettered
                    throw new IllegalArgumentException("`headers." + e.getKey() + "` cannot be set: the HTTP client"
                            + " sets it itself (so are " + String.join(", ", new TreeSet<>(CLIENT_SET_HEADERS)) + ")");
                }
                if (!OperatorJson.isTemplated(e.getValue())) {
                    // the client writes header values as ASCII: `é` went out as `?`, so the server read other data
                    e.getValue().codePoints().filter(c -> c > 0x7f).findFirst().ifPresent(c -> {
                        throw new IllegalArgumentException("`headers." + e.getKey() + "` holds "
                                + new String(Character.toChars(c)) + " (U+" + String.format("%04X", c) + "): a header "
                                + "value is sent as ASCII; percent-encode or base64 what lies outside it");
                    });
                }
            }
            headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
            timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
            if (!OperatorJson.isTemplated(timeout)) {
                OperatorDurations.parseSeconds(timeout);
            }
        }
    }

    private final HostGuards guards;
    private final int maxHeldBodyBytes;

    /** {@link HostGuards#NONE} runs every call unguarded. */
    public HttpOperator(HostGuards guards) {
        this(guards, OperatorJson.MAX_HELD_OUTPUT_BYTES);
    }

    /** A body longer than {@code maxHeldBodyBytes} is not held: a 2xx then succeeds with its output omitted. */
    HttpOperator(HostGuards guards, int maxHeldBodyBytes) {
        this.guards = guards;
        this.maxHeldBodyBytes = maxHeldBodyBytes;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void checkParams(JsonNode params) {
        OperatorJson.readParams(params, Params.class);
    }

    @Override
    public OperatorResult execute(AttemptContext context) {
        Params params;
        long timeoutSeconds;
        try {
            params = OperatorJson.readParams(context.params(), Params.class);
            timeoutSeconds = OperatorDurations.parseSeconds(params.timeout());
            if (!isToken(params.method())) {
                throw new IllegalArgumentException("`method` `" + params.method() + "` is not a valid HTTP method token");
            }
        } catch (InvalidParamsException | IllegalArgumentException e) {
            return new OperatorResult.PermanentError("rendered params do not fit operator `" + NAME + "`: "
                    + e.getMessage());
        }
        String what = params.method() + " " + params.url();
        HttpRequest request;
        try {
            HttpRequest.Builder builder = HttpRequest.newBuilder(OperatorUrls.parse(params.url()))
                    .method(params.method(), params.body() == null
                            ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofString(params.body(), StandardCharsets.UTF_8));
            params.headers().forEach(builder::header);
            request = builder.build();
        } catch (URISyntaxException | IllegalArgumentException | IllegalStateException e) {
            return new OperatorResult.PermanentError(what + ": the request cannot be built: " + OperatorJson.describe(e));
        }

        HttpResponse<HttpBody> response;
        try {
            response = OperatorHttp.sendFollowing(request, HttpBody.handler(maxHeldBodyBytes), what,
                    OperatorDurations.toMillisSaturated(timeoutSeconds), params.timeout(), context.cancellation(),
                    guards);
        } catch (OperatorHttp.Abort abort) {
            return abort.result();
        }
        int status = response.statusCode();
        HttpBody body = response.body();
        Charset charset = charsetOf(response);
        if (status >= 200 && status < 300) {
            if (!body.whole()) {
                LOG.log(System.Logger.Level.INFO, "run {0}: {1} answered {2} with {3} bytes, more than the {4} held:"
                        + " its output is omitted", context.runId(), what, Integer.toString(status),
                        Long.toString(body.length()), Integer.toString(maxHeldBodyBytes));
                return OperatorResult.Succeeded.omitted();
            }
            ObjectNode output = OperatorJson.NODES.objectNode();
            output.put("status", status);
            output.set("body", bodyValue(body.held(), charset));
            return new OperatorResult.Succeeded(output);
        }
        String message = what + ": HTTP status " + status + unfollowed(response) + bodyTail(body.end(), charset);
        if (status >= 500 && status < 600 || status == 429) {
            return new OperatorResult.TransientError(message);
        }
        return new OperatorResult.PermanentError(message);
    }

    /** A final 3xx that leads somewhere (a loop, a chain past {@link Redirects#MAX_HOPS}, a scheme not followed). */
    private static String unfollowed(HttpResponse<?> response) {
        if (response.statusCode() / 100 != 3) {
            return "";
        }
        return response.headers().firstValue("Location").map(to -> {
            String where;
            try {
                where = response.uri().resolve(to).toString();
            } catch (IllegalArgumentException e) {
                where = to;
            }
            return " (a redirect to " + where + " that was not followed)";
        }).orElse("");
    }

    /** The JSON value of a trimmed body that parses, else the body as text; JSON null when empty. */
    static JsonNode bodyValue(byte[] body, Charset charset) {
        if (body.length == 0) {
            return OperatorJson.NODES.nullNode();
        }
        String text = new String(body, charset);
        String trimmed = trimAscii(text);
        if (!trimmed.isEmpty()) {
            try {
                return OperatorJson.STRICT.readTree(trimmed);
            } catch (JacksonException e) {
                // not JSON: the text itself
            }
        }
        return OperatorJson.NODES.stringNode(text);
    }

    private static String bodyTail(byte[] body, Charset charset) {
        if (body.length == 0) {
            return "; empty body";
        }
        byte[] utf8 = charset.equals(StandardCharsets.UTF_8) ? body : new String(body, charset).getBytes(StandardCharsets.UTF_8);
        return "; body tail: " + OperatorJson.tail(utf8, utf8.length);
    }

    private static Charset charsetOf(HttpResponse<?> response) {
        return response.headers().firstValue("content-type").map(type -> {
            for (String part : type.split(";")) {
                String p = part.trim();
                if (p.toLowerCase(Locale.ROOT).startsWith("charset=")) {
                    String name = p.substring("charset=".length()).replace("\"", "").trim();
                    try {
                        return Charset.forName(name);
                    } catch (IllegalArgumentException e) {
                        return StandardCharsets.UTF_8;
                    }
                }
            }
            return StandardCharsets.UTF_8;
        }).orElse(StandardCharsets.UTF_8);
    }

    private static String trimAscii(String s) {
        int i = 0;
        int j = s.length();
        while (i < j && isAsciiWhitespace(s.charAt(i))) {
            i++;
        }
        while (j > i && isAsciiWhitespace(s.charAt(j - 1))) {
            j--;
        }
        return s.substring(i, j);
    }

    private static boolean isAsciiWhitespace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
    }

    /** Whether {@code s} is an HTTP token (RFC 9110 §5.6.2), as a method must be. */
    static boolean isToken(String s) {
        if (s == null || s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
