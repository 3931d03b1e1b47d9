package io.swale.trigger;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.task.SwaleException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Property-based: any record value and headers either read as a trigger or are refused as
 * {@link SwaleException.Malformed} with a short reason (it becomes a dead letter's header), never another
 * exception. {@code -Djqwik.tries.default=N} scales it.
 */
class TriggerMessagesFuzzTest {
    private static final List<String> SEEDS = List.of(
            "{\"graph\":\"orders_daily\",\"partitions\":[\"20260915\",\"none\"]}",
            "{\"graph\":\"g\",\"time\":\"2026-09-15T02:00:00Z\"}",
            "{\"graph\":\"g\",\"time\":\"2026-09-15T04:00:00.250+02:00\"}",
            "");

    private record Edit(int at, int length, String insert) {}

    @Property
    void mutatedTriggersReadOrAreRefusedCleanly(@ForAll("seeds") String seed, @ForAll("edits") List<Edit> edits,
            @ForAll("headers") Map<String, String> headers) {
        StringBuilder text = new StringBuilder(seed);
        for (Edit e : edits) {
            int at = text.isEmpty() ? 0 : e.at() % (text.length() + 1);
            text.replace(at, Math.min(text.length(), at + e.length()), e.insert());
        }
        readsOrIsRefused(text.toString().getBytes(StandardCharsets.UTF_8), headers);
    }

    @Property
    void randomBytesAreRefusedCleanly(@ForAll("noise") byte[] value, @ForAll("headers") Map<String, String> headers) {
        readsOrIsRefused(value, headers);
    }

    private static void readsOrIsRefused(byte[] value, Map<String, String> headers) {
        try {
            Trigger t = TriggerMessages.parse(value, name -> Optional.ofNullable(headers.get(name)));
            assertThat(t).isNotNull();
        } catch (SwaleException.Malformed refused) {
            assertThat(refused.getMessage().length()).as("length of the reason").isLessThan(2048);
        }
    }

    @Provide
    Arbitrary<String> seeds() {
        return Arbitraries.of(SEEDS);
    }

    @Provide
    Arbitrary<List<Edit>> edits() {
        Arbitrary<String> inserts = Arbitraries.oneOf(
                Arbitraries.of("", "\"", "[", "]", "{", "}", ",", ":", "null", "true", "1e999", "-0", "\\u0000",
                        "\"partitions\":", "\"time\":", "\"graph\":", "[\"a\"]", "[[[[", "\uD800", "é"),
                Arbitraries.strings().ofMaxLength(12),
                Arbitraries.integers().between(1, 200_000).map("k"::repeat),
                Arbitraries.integers().between(1, 600).map(n -> "[".repeat(n)));
        return Combinators.combine(Arbitraries.integers().between(0, 1000), Arbitraries.integers().between(0, 8),
                inserts).as(Edit::new).list().ofMaxSize(5);
    }

    @Provide
    Arbitrary<Map<String, String>> headers() {
        Arbitrary<String> values = Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(24),
                Arbitraries.longs().map(n -> Long.toString(n)), Arbitraries.just("99999999999999999999"));
        return Arbitraries.maps(Arbitraries.of(TriggerHeaders.GRAPH, TriggerHeaders.FIRE_MS,
                TriggerHeaders.PREVIOUS_FIRE_MS, "other"), values).ofMaxSize(4);
    }

    @Provide
    Arbitrary<byte[]> noise() {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(1024);
    }
}
