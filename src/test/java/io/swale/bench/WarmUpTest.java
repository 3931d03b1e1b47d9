package io.swale.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class WarmUpTest {

    @Test
    void roundsGoOnUntilTheJitCompilesForLessThanTheQuietShareOfOne() {
        // the JIT's clock: each round compiles for 1,000 s, then 1,000 s, then nothing: no round lasts that long
        long[] compiled = {1_000_000, 1_000_000, 0, 0};
        AtomicLong jit = new AtomicLong();
        List<Integer> ran = new ArrayList<>();
        List<String> said = new ArrayList<>();

        List<WarmUp.Round> rounds = new WarmUp(round -> {
            ran.add(round);
            jit.addAndGet(compiled[round]);
        }, jit::get).run(0, 10, 0.1, said::add);

        assertThat(ran).containsExactly(0, 1, 2);
        assertThat(rounds).extracting(WarmUp.Round::jitMs).containsExactly(1_000_000L, 1_000_000L, 0L);
        assertThat(rounds.get(2).jitShare()).isZero();
        assertThat(said).hasSize(3).allMatch(s -> s.startsWith("warm-up round "));
        assertThat(WarmUp.line("Warm-up", rounds)).startsWith("Warm-up: 3 round(s), the JIT compiling ");
    }

    @Test
    void aJitThatNeverQuietsStopsAtTheLastRound() {
        AtomicLong jit = new AtomicLong();
        List<Integer> ran = new ArrayList<>();

        List<WarmUp.Round> rounds = new WarmUp(round -> {
            ran.add(round);
            jit.addAndGet(1_000_000);
        }, jit::get).run(0, 2, 0.1, s -> { });

        assertThat(ran).containsExactly(0, 1);
        assertThat(rounds).hasSize(2).allMatch(r -> r.jitShare() > 0.1);
    }

    @Test
    void aSecondWarmUpNumbersItsRoundsAfterTheFirstSoItsGraphsAreNew() {
        AtomicLong jit = new AtomicLong();
        List<Integer> ran = new ArrayList<>();
        List<String> said = new ArrayList<>();
        WarmUp warmUp = new WarmUp(ran::add, jit::get);

        List<WarmUp.Round> first = warmUp.run(0, 5, 0.1, s -> { });
        List<WarmUp.Round> again = warmUp.run(first.size(), 5, 0.1, said::add);

        assertThat(ran).containsExactly(0, 1);
        assertThat(again).hasSize(1);
        assertThat(said).singleElement().satisfies(s -> assertThat(s).startsWith("warm-up round 2: "));
        assertThat(WarmUp.line("Warm-up after the baselines", again))
                .startsWith("Warm-up after the baselines: 1 round(s)");
    }
}
