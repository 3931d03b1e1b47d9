package io.swale.task;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TaskStepTest {
    @TempDir
    Path dir;

    @Test
    void aRecordingThatEnablesTheStepsGetsEachWithItsInstance() throws Exception {
        List<RecordedEvent> events = record(true, () -> {
            TaskStep.reached(TaskStep.Kind.FINISHED, "etl", "2026-12-01", "extract");
            TaskStep.reached(TaskStep.Kind.CLAIMED, "etl", "2026-12-01", "load");
        });

        assertThat(events).extracting(e -> e.getString("step") + " " + e.getString("graph") + " "
                + e.getString("partition") + " " + e.getString("node"))
                .containsExactlyInAnyOrder("finished etl 2026-12-01 extract", "claimed etl 2026-12-01 load");
    }

    @Test
    void theStepsAreOffUnlessARecordingNamesThem() throws Exception {
        // a recording with the JDK's default settings must not pay for them
        List<RecordedEvent> events = record(false, () -> TaskStep.reached(TaskStep.Kind.FINISHED, "etl", "p", "n"));

        assertThat(events).isEmpty();
    }

    @Test
    void everyStepHasItsOwnWireName() {
        assertThat(List.of(TaskStep.Kind.values())).extracting(TaskStep.Kind::wireName).doesNotHaveDuplicates()
                .allMatch(n -> n.matches("[a-z]+(-[a-z]+)*"));
    }

    private List<RecordedEvent> record(boolean enable, Runnable steps) throws Exception {
        Path file = dir.resolve("steps.jfr");
        try (Recording recording = new Recording(jdk.jfr.Configuration.getConfiguration("default"))) {
            if (enable) {
                recording.enable(TaskStep.NAME);
            }
            recording.start();
            steps.run();
            recording.stop();
            recording.dump(file);
        }
        assertThat(Files.exists(file)).isTrue();
        return RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().equals(TaskStep.NAME)).toList();
    }
}
