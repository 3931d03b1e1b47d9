package io.swale.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import tools.jackson.databind.node.ArrayNode;

/**
 * Warm-up rounds before anything is measured, going on until the JIT compilers take less than a given share of
 * a round's wall time, or the rounds run out. On two cores a JVM that is still compiling gives up to a core to
 * the JIT, so what is measured after one round is a service still warming up, not the one that runs for hours.
 */
final class WarmUp {
    /** One round: its wall time and the JIT's compile time meanwhile. */
    record Round(double seconds, long jitMs) {
        double jitShare() {
            return seconds <= 0 ? Double.NaN : jitMs / (1000 * seconds);
        }
    }

    private final IntConsumer round;
    private final LongSupplier jitMs;

    /** {@code round} runs the round of the given number (from 0); {@code jitMs} reads the JIT's total time. */
    WarmUp(IntConsumer round, LongSupplier jitMs) {
        this.round = round;
        this.jitMs = jitMs;
    }

    /**
     * Runs at most {@code maxRounds} rounds, stopping after the first whose JIT share is below {@code quietShare};
     * the rounds are numbered from {@code first}, so a second warm-up's graphs are not the first one's.
     */
    List<Round> run(int first, int maxRounds, double quietShare, Consumer<String> progress) {
        List<Round> rounds = new ArrayList<>();
        while (rounds.size() < maxRounds) {
            long jit0 = jitMs.getAsLong();
            long t0 = System.nanoTime();
            round.accept(first + rounds.size());
            Round done = new Round((System.nanoTime() - t0) / 1e9, jitMs.getAsLong() - jit0);
            rounds.add(done);
            progress.accept(String.format("warm-up round %d: %.1f s, the JIT compiling %.0f %% of it",
                    first + rounds.size(), done.seconds(), 100 * done.jitShare()));
            if (done.jitShare() < quietShare) {
                break;
            }
        }
        return rounds;
    }

    /** Each round into the JSON array {@code into}. */
    static void put(ArrayNode into, List<Round> rounds) {
        rounds.forEach(r -> into.addObject().put("seconds", Report.round(r.seconds())).put("jit_compile_ms", r.jitMs())
                .put("jit_share_of_wall", Report.round(r.jitShare())));
    }

    /** The table's line, {@code title} then how many rounds and the JIT's share of each. */
    static String line(String title, List<Round> rounds) {
        return String.format("%s: %d round(s), the JIT compiling %s of each%n", title, rounds.size(), rounds.stream()
                .map(r -> String.format("%.0f %%", 100 * r.jitShare())).collect(Collectors.joining(", ")));
    }
}
