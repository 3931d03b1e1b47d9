package io.swale.it;

import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** Random and mutated requests for {@link ApiFuzzIT}: paths, headers, content types and bodies. */
final class FuzzRequests {
    private FuzzRequests() {}

    /** One request as raw bytes, and a short description to report a failure by. */
    record Request(byte[] bytes, String shown) {}

    static final String GRAPH = "fuzz_g";
    static final String DEFINITION = """
            [graph]
            name = "fuzz_g"
            [[node]]
            name = "a"
            operator = "noop"
            [[node]]
            name = "b"
            after = ["a"]
            operator = "noop"
            [node.params]
            x = "{{ upstream.a.y }}"
            """;
    static final String YAML = """
            graph:
              name: fuzz_y
            node:
            - name: a
              operator: noop
              params: &p {k: [1, 2, {z: "w"}]}
            - name: b
              operator: noop
              after: [a]
              params: *p
            """;

    private static final List<String> TEMPLATES = List.of(
            "/api/v1/definitions", "/api/v1/definitions/validate", "/api/v1/graphs", "/api/v1/graphs/{g}",
            "/api/v1/graphs/{g}/runs", "/api/v1/graphs/{g}/runs?limit={n}&from={p}", "/api/v1/graphs/{g}/runs/{p}",
            "/api/v1/graphs/{g}/runs/{p}/nodes/{n}/rerun", "/api/v1/graphs/{g}/runs/{p}/cancel",
            "/api/v1/graphs/{g}/backfill", "/api/v1/requests/{p}", "/api/v1/pools", "/api/v1/pools/{n}", "/api/v1/queues",
            "/api/v1/dead-letters", "/api/v1/dead-letters/{n}?limit={n}", "/api/v1/dead-letters/{n}/{p}/rerun",
            "/actuator/health", "/actuator/swale", "/", "/v3/api-docs", "/{p}", "/api/v1/graphs/{g}/{p}");

    private static final List<String> CONTENT_TYPES = List.of("application/json", "application/json; charset=utf-8",
            "application/toml", "application/yaml", "text/yaml", "text/plain", "*/*", "application/*", "*/json",
            "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "multipart/form-data",
            "application/json; charset=nope", "json", "application/json;;", "a/b/c", "text/html; q=x", "");

    static Arbitrary<Request> requests() {
        Arbitrary<String> method = Arbitraries.of("GET", "POST", "POST", "POST", "PUT", "DELETE", "PATCH", "HEAD",
                "OPTIONS", "TRACE", "FOO");
        Arbitrary<String> path = Combinators.combine(Arbitraries.of(TEMPLATES), segment(), segment(), segment(),
                number()).as((t, g, p, n, num) -> t.replace("{g}", g).replace("{p}", p)
                        .replace("{n}", num.isEmpty() ? n : num));
        Arbitrary<String> contentType = Arbitraries.oneOf(Arbitraries.of(CONTENT_TYPES),
                Arbitraries.strings().ofMaxLength(40).map(FuzzRequests::headerSafe));
        Arbitrary<String> extra = Arbitraries.oneOf(
                Arbitraries.just(""),
                Arbitraries.strings().withCharRange('!', '~').ofMinLength(1).ofMaxLength(80)
                        .map(k -> "Idempotency-Key: " + k + "\r\n"),
                Arbitraries.of("Accept: text/html\r\n", "Accept: */*\r\n", "Accept: application/xml\r\n",
                        "Accept: garbage\r\n", "Authorization: Bearer x\r\n", "Accept: application/problem+json\r\n",
                        "Transfer-Encoding: chunked\r\n", "Expect: 100-continue\r\n", "Content-Encoding: gzip\r\n"));
        return Combinators.combine(method, path, contentType, extra, body()).as(FuzzRequests::assemble);
    }

    private static Request assemble(String method, String path, String contentType, String extra, byte[] body) {
        boolean chunked = extra.startsWith("Transfer-Encoding");
        StringBuilder head = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n")
                .append("Host: 127.0.0.1\r\nConnection: close\r\n").append(extra);
        if (!contentType.isEmpty()) {
            head.append("Content-Type: ").append(contentType).append("\r\n");
        }
        byte[] payload = body;
        if (chunked) {
            payload = (Integer.toHexString(body.length) + "\r\n" + new String(body, StandardCharsets.ISO_8859_1)
                    + "\r\n0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        } else {
            head.append("Content-Length: ").append(body.length).append("\r\n");
        }
        head.append("\r\n");
        byte[] h = head.toString().getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[h.length + payload.length];
        System.arraycopy(h, 0, all, 0, h.length);
        System.arraycopy(payload, 0, all, h.length, payload.length);
        String shown = method + " " + path + " [" + contentType + "] " + extra.strip() + " body "
                + new String(body, 0, Math.min(body.length, 120), StandardCharsets.UTF_8);
        return new Request(all, shown);
    }

    /** A path segment: a real name, or something a path should not hold. */
    private static Arbitrary<String> segment() {
        return Arbitraries.oneOf(
                Arbitraries.of(GRAPH, "fuzz_y", "a", "b", "none", "20260915", "20260915T03", "default", "events",
                        "triggers", "pool.default", "0-0", "..", ".", "%2F", "%00", "%zz", "%", "%25", "%C3%A9", "%ff",
                        "a%2Fb", ";x=1", "~", "%20", "+", "{}", "[", "]", "\\", "%5C"),
                Arbitraries.strings().alpha().numeric().withChars('_', '-', '.').ofMinLength(0).ofMaxLength(70),
                Arbitraries.strings().withCharRange('!', '~').ofMaxLength(30),
                Arbitraries.strings().ofMaxLength(10).map(s -> new String(s.getBytes(StandardCharsets.UTF_8),
                        StandardCharsets.ISO_8859_1).replace(" ", "%20").replace("\r", "").replace("\n", "")),
                Arbitraries.integers().between(100, 9000).map("x"::repeat));
    }

    private static Arbitrary<String> number() {
        return Arbitraries.oneOf(Arbitraries.just(""), Arbitraries.of("0", "-1", "1", "10000", "10001", "1e3",
                "99999999999999999999", "NaN", "", "%00"), Arbitraries.integers().map(String::valueOf));
    }

    private static Arbitrary<byte[]> body() {
        Arbitrary<String> valid = Arbitraries.of(DEFINITION, YAML, "{\"partitions\":[\"none\"]}",
                "{\"partitions\":[\"20260915\",\"20260916\"]}", "{\"partitions\":[1,\"a\"]}",
                "{\"partitions\":[null]}", "{\"partitions\":[[\"a\"]]}", "{\"partitions\":{}}", "{\"partitions\":\"x\"}",
                "{\"from\":\"20260901\",\"to\":\"20260902\",\"dryRun\":true}", "{\"from\":1,\"to\":[],\"mode\":\"x\"}",
                "{\"from\":\"20260901\",\"to\":\"20260902\",\"dryRun\":true,\"mode\":\"failed\"}", "", "null", "[]", "{}",
                "{\"partitions\":[\"" + "p".repeat(300) + "\"]}");
        Arbitrary<byte[]> mutated = Combinators.combine(valid, Arbitraries.integers().between(0, 5),
                Arbitraries.integers().between(0, Integer.MAX_VALUE), Arbitraries.strings().ofMaxLength(12))
                .as(FuzzRequests::mutate);
        Arbitrary<byte[]> random = Arbitraries.bytes().array(byte[].class).ofMaxSize(400);
        Arbitrary<byte[]> text = Arbitraries.strings().ofMaxLength(200).map(s -> s.getBytes(StandardCharsets.UTF_8));
        Arbitrary<byte[]> nested = Arbitraries.integers().between(1, 3000).map(d ->
                ("{\"partitions\":" + "[".repeat(d) + "]".repeat(d) + "}").getBytes(StandardCharsets.UTF_8));
        Arbitrary<byte[]> deepToml = Arbitraries.integers().between(1, 3000).map(d -> (DEFINITION + "[node.params.q]\n"
                + String.join(".", java.util.Collections.nCopies(d, "k")) + " = 1\n").getBytes(StandardCharsets.UTF_8));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, mutated), net.jqwik.api.Tuple.of(2, valid.map(s -> s.getBytes(StandardCharsets.UTF_8))),
                net.jqwik.api.Tuple.of(1, random), net.jqwik.api.Tuple.of(1, text), net.jqwik.api.Tuple.of(1, nested),
                net.jqwik.api.Tuple.of(1, deepToml));
    }

    /** Flips, cuts, repeats or inserts at a position chosen by {@code at}. */
    private static byte[] mutate(String base, int how, int at, String insert) {
        String s = base;
        int i = s.isEmpty() ? 0 : at % s.length();
        s = switch (how) {
            case 0 -> s.substring(0, i);
            case 1 -> s.substring(0, i) + insert + s.substring(i);
            case 2 -> s.isEmpty() ? insert : s.substring(0, i) + (char) (s.charAt(i) ^ (1 + at % 31)) + s.substring(i + 1);
            case 3 -> s.substring(0, i) + s.substring(i).repeat(1 + at % 4);
            case 4 -> s.replace("none", insert);
            default -> s.substring(i) + s.substring(0, i);
        };
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String headerSafe(String s) {
        return s.replace("\r", "").replace("\n", "");
    }
}
