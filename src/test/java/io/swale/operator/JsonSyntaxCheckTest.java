package io.swale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;

/**
 * The streamed check must judge bytes as the in-memory path does (trim ASCII whitespace, empty is no output,
 * else the strict parser), whatever pieces the bytes come in.
 */
class JsonSyntaxCheckTest {
    private static final String SEED = "{\"a\": [1, -0.5e+3, true, false, null, \"x\\u00e9\\n\u00e9\"], \"b\": {}}";

    /** The in-memory path's verdict, as ProcessRunner gives it for a stdout it holds. */
    private static JsonSyntaxCheck.Verdict inMemory(byte[] bytes) {
        int start = OperatorJson.trimStart(bytes, bytes.length);
        int end = OperatorJson.trimEnd(bytes, start, bytes.length);
        if (start == end) {
            return new JsonSyntaxCheck.Verdict.Empty();
        }
        try {
            OperatorJson.parse(bytes, start, end);
            return new JsonSyntaxCheck.Verdict.Json();
        } catch (JacksonException e) {
            return new JsonSyntaxCheck.Verdict.NotJson(e.getOriginalMessage());
        }
    }

    private static JsonSyntaxCheck.Verdict streamed(byte[] bytes, int piece) {
        JsonSyntaxCheck check = new JsonSyntaxCheck();
        for (int i = 0; i < bytes.length; i += piece) {
            check.feed(bytes, i, Math.min(bytes.length, i + piece));
        }
        return check.end();
    }

    private static void agrees(byte[] bytes, int piece) {
        assertThat(streamed(bytes, piece).getClass())
                .as("%s in pieces of %d", new String(bytes, StandardCharsets.ISO_8859_1), piece)
                .isEqualTo(inMemory(bytes).getClass());
    }

    @Property(tries = 3000)
    void agreesWithTheStrictParserOnMutatedJson(@ForAll("mutated") byte[] bytes, @ForAll @IntRange(min = 1, max = 7) int piece) {
        agrees(bytes, piece);
    }

    @Property(tries = 3000)
    void agreesWithTheStrictParserOnJsonLikeNoise(@ForAll("noise") byte[] bytes, @ForAll @IntRange(min = 1, max = 5) int piece) {
        agrees(bytes, piece);
    }

    @Provide
    Arbitrary<byte[]> mutated() {
        byte[] seed = SEED.getBytes(StandardCharsets.UTF_8);
        return Arbitraries.integers().between(0, seed.length - 1).list().ofMaxSize(3)
                .flatMap(at -> alphabet().list().ofSize(at.size()).map(with -> {
                    byte[] copy = seed.clone();
                    for (int i = 0; i < at.size(); i++) {
                        copy[at.get(i)] = with.get(i);
                    }
                    return copy;
                }));
    }

    @Provide
    Arbitrary<byte[]> noise() {
        return alphabet().list().ofMaxSize(12).map(list -> {
            byte[] bytes = new byte[list.size()];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = list.get(i);
            }
            return bytes;
        });
    }

    private static Arbitrary<Byte> alphabet() {
        byte[] chars = "{}[]:,\"\\ \t\n\r\f0123456789-+.eEtrufalsnx/b".getBytes(StandardCharsets.US_ASCII);
        List<Byte> all = new java.util.ArrayList<>();
        for (byte c : chars) {
            all.add(c);
        }
        // a lone continuation, a 2-byte lead, an overlong lead, a 3- and a 4-byte lead, bytes no UTF-8 has
        for (int b : new int[] {0x80, 0xBF, 0xC3, 0xC0, 0xE2, 0xF0, 0xF5, 0xF8, 0xFF, 0x01}) {
            all.add((byte) b);
        }
        return Arbitraries.of(all);
    }

    @Test
    void judgesWholeDocuments() {
        assertThat(streamed("  [1, {\"k\": \"v\"}] \n".getBytes(StandardCharsets.UTF_8), 3))
                .isInstanceOf(JsonSyntaxCheck.Verdict.Json.class);
        assertThat(streamed(" \f\n".getBytes(StandardCharsets.UTF_8), 1)).isInstanceOf(JsonSyntaxCheck.Verdict.Empty.class);
        assertThat(streamed("-12.5E-3".getBytes(StandardCharsets.UTF_8), 2)).isInstanceOf(JsonSyntaxCheck.Verdict.Json.class);
        assertThat(streamed("nulk".getBytes(StandardCharsets.UTF_8), 1))
                .isEqualTo(new JsonSyntaxCheck.Verdict.NotJson("`null` misspelt at byte 3 (`k`)"));
        assertThat(streamed("done".getBytes(StandardCharsets.UTF_8), 1))
                .isEqualTo(new JsonSyntaxCheck.Verdict.NotJson("a value was expected at byte 0 (`d`)"));
        assertThat(streamed("{\"a\": 1} 2".getBytes(StandardCharsets.UTF_8), 4))
                .isEqualTo(new JsonSyntaxCheck.Verdict.NotJson(
                        "one JSON value was expected, and more follows it at byte 9 (`2`)"));
        assertThat(streamed("[1, 2".getBytes(StandardCharsets.UTF_8), 4))
                .isEqualTo(new JsonSyntaxCheck.Verdict.NotJson("unexpected end of input after 5 bytes"));
    }

    @Test
    void nestsAsDeepAsTheStrictParserAndNoDeeper() {
        int max = JsonSyntaxCheck.MAX_DEPTH;
        byte[] deepest = ("[".repeat(max) + "]".repeat(max)).getBytes(StandardCharsets.US_ASCII);
        byte[] deeper = ("[".repeat(max + 1) + "]".repeat(max + 1)).getBytes(StandardCharsets.US_ASCII);
        assertThat(streamed(deepest, 64)).isInstanceOf(JsonSyntaxCheck.Verdict.Json.class);
        assertThat(inMemory(deepest)).isInstanceOf(JsonSyntaxCheck.Verdict.Json.class);
        assertThat(streamed(deeper, 64)).isInstanceOf(JsonSyntaxCheck.Verdict.NotJson.class);
        assertThat(inMemory(deeper)).isInstanceOf(JsonSyntaxCheck.Verdict.NotJson.class);
    }
}
