package io.swale.logging;

import org.slf4j.MDC;

/**
 * Puts graph, partition, node and run id into the MDC for the lines logged inside a block, so plain and
 * structured (ECS, Logstash) logs carry them as fields. Restores what was there before on close.
 */
public final class LogContext implements AutoCloseable {
    public static final String GRAPH = "swale.graph";
    public static final String PARTITION = "swale.partition";
    public static final String NODE = "swale.node";
    public static final String RUN_ID = "swale.run_id";

    private final String[] keys;
    private final String[] previous;

    private LogContext(String[] keys, String[] values) {
        this.keys = keys;
        this.previous = new String[keys.length];
        for (int i = 0; i < keys.length; i++) {
            previous[i] = MDC.get(keys[i]);
            if (values[i] == null) {
                MDC.remove(keys[i]);
            } else {
                MDC.put(keys[i], values[i]);
            }
        }
    }

    /** Any value may be null: its field is then left out. */
    public static LogContext of(String graph, String partition, String node, String runId) {
        return new LogContext(new String[] {GRAPH, PARTITION, NODE, RUN_ID},
                new String[] {graph, partition, node, runId});
    }

    public static LogContext run(String graph, String partition) {
        return of(graph, partition, null, null);
    }

    @Override
    public void close() {
        for (int i = 0; i < keys.length; i++) {
            if (previous[i] == null) {
                MDC.remove(keys[i]);
            } else {
                MDC.put(keys[i], previous[i]);
            }
        }
    }
}
