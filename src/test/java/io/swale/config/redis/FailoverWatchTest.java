package io.swale.config.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.config.redis.FailoverDetector.Failover;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The watch with a scripted probe: failures are skipped, a change after an outage is a failover. */
class FailoverWatchTest {

    /** Answers from a script; a null entry is an unreachable Redis. */
    private static final class ScriptedProbe implements Supplier<PrimarySnapshot> {
        final Deque<PrimarySnapshot> answers = new ArrayDeque<>();

        @Override
        public PrimarySnapshot get() {
            PrimarySnapshot next = answers.poll();
            if (next == null) {
                throw new redis.clients.jedis.exceptions.JedisConnectionException("down");
            }
            return next;
        }
    }

    @Test
    void anOutageThenANewPrimaryIsOneFailover() {
        ScriptedProbe probe = new ScriptedProbe();
        List<Failover> failovers = new ArrayList<>();
        FailoverWatch watch = new FailoverWatch(probe, Duration.ofSeconds(1), failovers::add);

        probe.answers.add(PrimarySnapshot.single("a:1", "r1"));
        watch.tick();
        watch.tick(); // unreachable: no snapshot, no failover
        probe.answers.add(PrimarySnapshot.single("b:2", "r2"));
        watch.tick();
        probe.answers.add(PrimarySnapshot.single("b:2", "r2"));
        watch.tick();

        assertThat(failovers).singleElement().satisfies(f -> assertThat(f.after().primaries().get("all").address())
                .isEqualTo("b:2"));
    }
}
