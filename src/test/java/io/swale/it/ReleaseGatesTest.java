package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ReleaseGatesTest {

    @Test
    void aTaskWaitingOnAGateTheTestNeverOpenedEndsAfterTheTest() throws Exception {
        ReleaseGates gates = new ReleaseGates();
        ReleaseGates.Gate gate = gates.gate("release");
        Process waiting = new ProcessBuilder("sh", "-c", gate.awaitCommand()).start();
        try {
            assertThat(waiting.waitFor(200, TimeUnit.MILLISECONDS)).isFalse();

            gates.afterEach(null);

            await().atMost(Duration.ofSeconds(10)).until(() -> !waiting.isAlive());
            assertThat(waiting.exitValue()).isZero();
            // a task that polls only after the test must still find it open
            assertThat(gate.file()).exists();
        } finally {
            waiting.destroyForcibly();
        }
    }

    @Test
    void gatesOfOneNameAreDistinctAndStartClosed() {
        ReleaseGates gates = new ReleaseGates();
        ReleaseGates.Gate first = gates.gate("release");
        ReleaseGates.Gate second = gates.gate("release");

        assertThat(first.file()).isNotEqualTo(second.file()).doesNotExist();
        assertThat(second.file()).doesNotExist();
    }

    @Test
    void aGateTheTestOpenedIsOpenedAgainWithoutError() {
        ReleaseGates gates = new ReleaseGates();
        ReleaseGates.Gate gate = gates.gate("release");
        gate.open();

        gates.afterEach(null);

        assertThat(gate.file()).exists();
    }

    @Test
    void everyGateIsTriedWhenOneCannotBeOpened() throws Exception {
        ReleaseGates gates = new ReleaseGates();
        ReleaseGates.Gate first = gates.gate("a");
        ReleaseGates.Gate second = gates.gate("b");
        Files.delete(first.file().getParent());

        assertThatThrownBy(() -> gates.afterEach(null))
                .hasMessageContaining(first.file().toString())
                .satisfies(e -> assertThat(e.getSuppressed()).singleElement()
                        .satisfies(s -> assertThat(s).hasMessageContaining(second.file().toString())));
    }
}
