package io.swale.worker;

import io.swale.task.TaskIdentity;
import org.slf4j.MDC;

/** Puts an attempt's identity in the logging context while it runs on a pool thread. */
final class Mdc implements AutoCloseable {
    private static final String[] KEYS = {"graph", "partition", "node", "runId"};

    private Mdc() {}

    static Mdc of(TaskIdentity id) {
        MDC.put("graph", id.graph());
        MDC.put("partition", id.partition().key());
        MDC.put("node", id.node());
        MDC.put("runId", id.runId());
        return new Mdc();
    }

    @Override
    public void close() {
        for (String k : KEYS) {
            MDC.remove(k);
        }
    }
}
