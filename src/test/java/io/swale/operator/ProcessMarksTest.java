package io.swale.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ProcessMarksTest {
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stop() {
        started.forEach(Process::destroyForcibly);
    }

    private Process sleepWith(Map<String, String> env) throws IOException {
        ProcessBuilder b = new ProcessBuilder("sleep", "30");
        b.environment().clear();
        b.environment().putAll(env);
        b.environment().put("PATH", System.getenv("PATH"));
        Process p = b.start();
        started.add(p);
        return p;
    }

    @Test
    void findsExactlyTheProcessesCarryingTheWholeMark() throws IOException {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "a /proc file system");
        String mark = ProcessMarks.next();
        Process carrier = sleepWith(Map.of(ProcessMarks.VARIABLE, mark, "A", "1"));
        Process longerMark = sleepWith(Map.of(ProcessMarks.VARIABLE, mark + "0"));
        Process inAValue = sleepWith(Map.of("OTHER", ProcessMarks.VARIABLE + "=" + mark));

        // a child shows its own environment once it has exec'd
        await().atMost(Duration.ofSeconds(10)).until(() -> ProcessMarks.find(mark).stream()
                .anyMatch(h -> h.pid() == carrier.pid()));
        assertThat(ProcessMarks.find(mark)).extracting(ProcessHandle::pid).containsExactly(carrier.pid())
                .doesNotContain(longerMark.pid(), inAValue.pid());
    }

    @Test
    void marksAreNeverGivenTwice() {
        assertThat(ProcessMarks.next()).isNotEqualTo(ProcessMarks.next());
    }
}
