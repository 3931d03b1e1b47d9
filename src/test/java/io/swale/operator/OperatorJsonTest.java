package io.swale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class OperatorJsonTest {
    private static String tailOf(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return OperatorJson.tail(bytes, bytes.length);
    }

    @Test
    void tailOfShortTextIsAllOfIt() {
        assertThat(tailOf("")).isEmpty();
        assertThat(tailOf("oops\n")).isEqualTo("oops\n");
    }

    @Test
    void tailKeepsTheLast512BytesDroppingACutCharacter() {
        assertThat(tailOf("a".repeat(1000) + "b".repeat(512))).isEqualTo("b".repeat(512));
        // two-byte characters ending on a boundary: exactly 256 of them
        assertThat(tailOf("é".repeat(300))).isEqualTo("é".repeat(256));
        // four-byte characters: 512 = 4 · 128, aligned; shift by one byte to cut one
        assertThat(tailOf("😀".repeat(200))).isEqualTo("😀".repeat(128));
        assertThat(tailOf("😀".repeat(200) + "x")).isEqualTo("😀".repeat(127) + "x");
    }

    @Test
    void trimmingIsAsciiWhitespaceOnly() {
        byte[] bytes = " \t\n\r\f{}\u000b".getBytes(StandardCharsets.UTF_8);
        int start = OperatorJson.trimStart(bytes, bytes.length);
        int end = OperatorJson.trimEnd(bytes, start, bytes.length);
        // vertical tab is not ASCII whitespace in this sense, so it stays
        assertThat(new String(bytes, start, end - start, StandardCharsets.UTF_8)).isEqualTo("{}\u000b");
    }
}
