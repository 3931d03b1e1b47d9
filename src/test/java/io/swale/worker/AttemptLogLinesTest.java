package io.swale.worker;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.swale.operator.Cancellation;
import io.swale.operator.OperatorResult;
import io.swale.store.TaskStore;
import io.swale.task.TaskIdentity;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * What an attempt writes to the log: nothing at INFO when it succeeds (two INFO lines per attempt cost a busy pool
 * a large share of its throughput), a line naming the result when it ends any other way, both lines at DEBUG.
 */
class AttemptLogLinesTest {
    private static final TaskIdentity ID = FakeStoreAttempts.ID;

    private final FakeStoreAttempts attempts = new FakeStoreAttempts();
    private final FakeTaskStore store = attempts.store;
    private final Logger logger = (Logger) LoggerFactory.getLogger(AttemptRunner.class);
    private final Level levelBefore = logger.getLevel();
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();

    @AfterEach
    void restore() {
        logger.detachAppender(lines);
        logger.setLevel(levelBefore);
        attempts.close();
    }

    @Test
    void aSucceededAttemptWritesNoInfoLine() {
        List<ILoggingEvent> logged = run(Level.INFO, new OperatorResult.Succeeded(JsonNodeFactory.instance.objectNode()));

        assertThat(logged).isEmpty();
        assertThat(store.written).extracting(r -> r.status().wireName()).containsExactly("succeeded");
    }

    @Test
    void aFailedAttemptEndsWithAnInfoLineNamingItsResult() {
        List<ILoggingEvent> logged = run(Level.INFO, new OperatorResult.PermanentError("no such table"));

        assertThat(logged).singleElement().satisfies(e -> {
            assertThat(e.getLevel()).isEqualTo(Level.INFO);
            assertThat(e.getFormattedMessage()).startsWith("attempt ended graph=g partition=p node=n runId="
                    + ID.runId() + " attempt=1 result=PermanentError");
        });
    }

    @Test
    void atDebugBothLinesOfASuccessAreWritten() {
        List<ILoggingEvent> logged = run(Level.DEBUG, new OperatorResult.Succeeded(JsonNodeFactory.instance.objectNode()));

        assertThat(logged).extracting(e -> e.getFormattedMessage().replaceAll(" graph=.* result=(\\w+).*", " $1")
                .replaceAll(" graph=.*", "")).containsExactly("attempt started", "attempt ended Succeeded");
        assertThat(logged).extracting(ILoggingEvent::getLevel).containsOnly(Level.DEBUG);
    }

    private List<ILoggingEvent> run(Level level, OperatorResult result) {
        logger.setLevel(level);
        lines.start();
        logger.addAppender(lines);
        TaskStore.Claim.Claimed claim = new TaskStore.Claim.Claimed(store.token, 1, 3, 0, Optional.empty(),
                Optional.empty(), 0, 0);
        attempts.runner.run(ID, claim, "gpu", System.nanoTime(), new Cancellation(), Optional.of(result), () -> { });
        return List.copyOf(lines.list);
    }
}
