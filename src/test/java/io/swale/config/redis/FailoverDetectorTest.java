package io.swale.config.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.config.redis.PrimarySnapshot.Primary;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FailoverDetectorTest {
    private final FailoverDetector detector = new FailoverDetector();

    @Test
    void theFirstSnapshotIsTheBaseline() {
        assertThat(detector.observe(PrimarySnapshot.single("a:1", "r1"))).isEmpty();
        assertThat(detector.observe(PrimarySnapshot.single("a:1", "r1"))).isEmpty();
    }

    @Test
    void aNewPrimaryAddressIsAFailover() {
        detector.observe(PrimarySnapshot.single("a:1", "r1"));
        var f = detector.observe(PrimarySnapshot.single("b:2", "r2")).orElseThrow();
        assertThat(f.changes()).containsExactly("all: a:1 run_id r1 -> b:2 run_id r2");
        assertThat(detector.observe(PrimarySnapshot.single("b:2", "r2"))).isEmpty();
    }

    @Test
    void aRestartedPrimaryOnTheSameAddressIsAFailover() {
        // a restart without persistence loses writes just like a promotion
        detector.observe(PrimarySnapshot.single("a:1", "r1"));
        assertThat(detector.observe(PrimarySnapshot.single("a:1", "r9"))).isPresent();
    }

    @Test
    void clusterRangesWhosePrimaryChangedOrMovedAreReported() {
        detector.observe(new PrimarySnapshot(Map.of("slots 0-5460", new Primary("a:1", "r1"),
                "slots 5461-16383", new Primary("b:2", "r2"))));
        var f = detector.observe(new PrimarySnapshot(Map.of("slots 0-5460", new Primary("a:1", "r1"),
                "slots 5461-10922", new Primary("b:2", "r2"), "slots 10923-16383", new Primary("c:3", "r3"))))
                .orElseThrow();
        assertThat(f.changes()).containsExactly("slots 10923-16383: none -> c:3 run_id r3",
                "slots 5461-10922: none -> b:2 run_id r2", "slots 5461-16383: b:2 run_id r2 -> none");
    }

    @Test
    void runIdParsing() {
        assertThat(JedisPrimaryProbe.parseRunId("# Server\r\nredis_version:7.2.4\r\nrun_id:abc123\r\n")).isEqualTo("abc123");
    }
}
