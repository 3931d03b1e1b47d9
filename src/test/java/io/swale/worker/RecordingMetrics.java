package io.swale.worker;

import io.swale.task.SwaleMetrics;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The worker's meters as a list of {@code name pool [outcome]} lines, in the order they were counted. */
final class RecordingMetrics implements SwaleMetrics {
    final List<String> counted = new CopyOnWriteArrayList<>();

    long count(String line) {
        return counted.stream().filter(line::equals).count();
    }

    @Override
    public void attemptFinished(String pool, String result, long durationNanos) {
        counted.add("attempt " + pool + " " + result);
    }

    @Override
    public void taskTerminated(String pool, String outcome) {
        counted.add("terminated " + pool + " " + outcome);
    }

    @Override
    public void heartbeatFailed(String pool) {
        counted.add("heartbeat-failed " + pool);
    }

    @Override
    public void leaseLost(String pool) {
        counted.add("lease-lost " + pool);
    }

    @Override
    public void settleRetried(String pool) {
        counted.add("settle-retried " + pool);
    }

    @Override
    public void settleAbandoned(String pool) {
        counted.add("settle-abandoned " + pool);
    }
}
