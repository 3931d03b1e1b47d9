package io.swale.api;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.json.JsonMapper;

/** Problem+json written by hand where no controller advice reaches: servlet filters and the container itself. */
final class ProblemResponses {
    static final String PROBLEM_JSON = "application/problem+json";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ProblemResponses() {}

    static byte[] body(int status, String title, String detail, Optional<String> field) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("type", "about:blank");
        p.put("title", title);
        p.put("status", status);
        p.put("detail", detail);
        field.ifPresent(f -> p.put("field", f));
        return JSON.writeValueAsString(p).getBytes(StandardCharsets.UTF_8);
    }

    static void write(HttpServletResponse response, int status, String title, String detail, Optional<String> field)
            throws IOException {
        byte[] body = body(status, title, detail, field);
        response.setStatus(status);
        response.setContentType(PROBLEM_JSON);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
        response.flushBuffer();
    }

    /** The reason phrase of a status, for a title when there is nothing better. */
    static String title(int status) {
        return switch (status) {
            case 400 -> "Bad request";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "Not found";
            case 405 -> "Method not allowed";
            case 406 -> "Not acceptable";
            case 408 -> "Request timeout";
            case 413 -> "Content too large";
            case 414 -> "URI too long";
            case 415 -> "Unsupported media type";
            case 431 -> "Request header fields too large";
            case 503 -> "Try again";
            default -> status >= 500 ? "Server error" : "Bad request";
        };
    }
}
