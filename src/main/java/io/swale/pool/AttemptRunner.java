package io.swale.pool;

import io.swale.operator.AttemptContext;
import io.swale.operator.Cancellation;
import io.swale.operator.Operator;
import io.swale.operator.OperatorRegistry;
import io.swale.operator.OperatorResult;
import io.swale.record.NodeStatus;
import io.swale.record.RecordCodec;
import io.swale.logging.LogContext;
import io.swale.scheduler.SwaleMetrics;
import io.swale.scheduler.TaskIdentity;
import io.swale.scheduler.Terminations;
import io.swale.store.TaskStore;
import io.swale.template.ParamsTemplates;
import io.swale.template.RenderContext;
import io.swale.template.RenderException;
import io.swale.template.UpstreamStatus;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs one claimed attempt: render the params, run the operator while the lease is kept and the cancel
 * flag watched, then settle with the claim's token (spec §8.2).
 */
public final class AttemptRunner {
    private static final Logger log = LoggerFactory.getLogger(AttemptRunner.class);
    static final String CANCELLED = "the graph run was cancelled";

    /** Lease and heartbeat timing. */
    public record Timing(Duration lease, Duration heartbeat, Duration cancelPoll) {}

    private final OperatorRegistry operators;
    private final TaskStore tasks;
    private final Terminations terminations;
    private final DeadLetters deadLetters;
    private final ScheduledExecutorService ticker;
    private final Timing timing;
    private final Backoff backoff;
    private final Map<String, String> environment;
    private volatile SwaleMetrics metrics = SwaleMetrics.NONE;

    public AttemptRunner(OperatorRegistry operators, TaskStore tasks, Terminations terminations, DeadLetters deadLetters,
            ScheduledExecutorService ticker, Timing timing, Backoff backoff, Map<String, String> environment) {
        this.operators = operators;
        this.tasks = tasks;
        this.terminations = terminations;
        this.deadLetters = deadLetters;
        this.ticker = ticker;
        this.timing = timing;
        this.backoff = backoff;
        this.environment = Map.copyOf(environment);
    }

    public void metrics(SwaleMetrics metrics) {
        this.metrics = metrics;
    }

    public void run(TaskIdentity id, TaskStore.Claim.Claimed claim, String pool) {
        try (LogContext ignored = LogContext.of(id.graph(), id.partition().key(), id.node(), id.runId())) {
            if (claim.attempt() == 1 && claim.step() == 0) {
                metrics.started(pool, Math.max(0, claim.nowMs() - claim.submittedMs()));
            }
            long t0 = System.nanoTime();
            String result = runClaimed(id, claim, pool);
            metrics.attemptFinished(pool, result, System.nanoTime() - t0);
        }
    }

    private String runClaimed(TaskIdentity id, TaskStore.Claim.Claimed claim, String pool) {
        Cancellation cancellation = new Cancellation();
        ScheduledFuture<?> watch = keepClaim(id, claim.token(), cancellation);
        OperatorResult result;
        try {
            result = execute(id, claim, cancellation);
        } catch (RuntimeException e) {
            log.error("attempt crashed runId={} attempt={}", id.runId(), claim.attempt(), e);
            result = new OperatorResult.TransientError("the operator crashed: " + e);
        } finally {
            watch.cancel(false);
        }
        boolean cancelled = cancellation.isCancelled() && CANCELLED.equals(cancellation.reason());
        settle(id, claim, pool, cancelled ? new OperatorResult.Failed(CANCELLED) : result, cancellation);
        return cancelled ? "cancelled" : switch (result) {
            case OperatorResult.Succeeded s -> "succeeded";
            case OperatorResult.Failed f -> "failed";
            case OperatorResult.Continue c -> "continue";
            case OperatorResult.TransientError t -> claim.attempt() < claim.maxAttempts() ? "retry" : "failed";
            case OperatorResult.PermanentError p -> "failed";
        };
    }

    private OperatorResult execute(TaskIdentity id, TaskStore.Claim.Claimed claim, Cancellation cancellation) {
        ObjectNode input;
        try {
            input = (ObjectNode) RecordCodec.JSON.readTree(claim.input());
        } catch (JacksonException | ClassCastException e) {
            return new OperatorResult.PermanentError("the task input of `" + id.runId() + "` is not a JSON object");
        }
        String operatorName = input.path("operator").asString("");
        Optional<Operator> operator = operators.find(operatorName).filter(o -> !o.checkOnly());
        if (operator.isEmpty()) {
            return new OperatorResult.PermanentError("operator `" + operatorName + "` cannot run on this worker");
        }
        JsonNode rendered;
        try {
            rendered = ParamsTemplates.render(input.path("params"), renderContext(id, input));
        } catch (RenderException e) {
            return new OperatorResult.Failed(e.getMessage());
        }
        ObjectNode inputs = input.has("inputs") && input.get("inputs").isObject()
                ? (ObjectNode) input.get("inputs") : JsonNodeFactory.instance.objectNode();
        Optional<JsonNode> state = claim.stepState().map(RecordCodec.JSON::readTree);
        AttemptContext context = new AttemptContext(id.runId(), id.graph(), id.partition().key(), id.node(),
                claim.attempt(), claim.nowMs(), rendered, inputs, state, environment, cancellation);
        return operator.get().execute(context);
    }

    private void settle(TaskIdentity id, TaskStore.Claim.Claimed claim, String pool, OperatorResult result,
            Cancellation cancellation) {
        boolean cancelled = cancellation.isCancelled() && CANCELLED.equals(cancellation.reason());
        switch (result) {
            case OperatorResult.Succeeded s -> end(id, pool, claim, NodeStatus.SUCCEEDED, Optional.of(s.output()), Optional.empty());
            case OperatorResult.Failed f -> end(id, pool, claim, cancelled ? NodeStatus.CANCELLED : NodeStatus.FAILED,
                    Optional.empty(), Optional.of(f.reason()));
            case OperatorResult.Continue c -> park(id, pool, claim, c.delay().toMillis(), "", true,
                    RecordCodec.text(c.state()));
            case OperatorResult.TransientError t -> {
                if (claim.attempt() < claim.maxAttempts()) {
                    park(id, pool, claim, backoff.delayMs(claim.attempt()), t.message(), false, "");
                } else {
                    deadLetters.send(pool, id, claim.attempt(), claim.maxAttempts(), t.message());
                    end(id, pool, claim, NodeStatus.FAILED, Optional.empty(), Optional.of(t.message()));
                }
            }
            case OperatorResult.PermanentError p -> {
                deadLetters.send(pool, id, claim.attempt(), claim.maxAttempts(), p.message());
                end(id, pool, claim, NodeStatus.FAILED, Optional.empty(), Optional.of(p.message()));
            }
        }
    }

    private void end(TaskIdentity id, String pool, TaskStore.Claim.Claimed claim, NodeStatus status, Optional<JsonNode> output,
            Optional<String> error) {
        TaskStore.Finish outcome = terminations.terminate(id, pool, claim.token(), status, output, error);
        if (outcome == TaskStore.Finish.CANCELLING) {
            terminations.terminate(id, pool, claim.token(), NodeStatus.CANCELLED, Optional.empty(), Optional.of(CANCELLED));
        } else if (outcome != TaskStore.Finish.OK) {
            log.warn("settle refused runId={} attempt={} outcome={}", id.runId(), claim.attempt(), outcome);
        }
    }

    private void park(TaskIdentity id, String pool, TaskStore.Claim.Claimed claim, long delayMs, String error, boolean nextStep,
            String stepState) {
        switch (tasks.park(id.runKey(), id.runId(), claim.token(), delayMs, error, nextStep, stepState)) {
            case TaskStore.Park.Waiting w -> tasks.scheduleDelayed(id.runKey(), id.runId(), w.dueMs());
            case TaskStore.Park.Cancelling c -> terminations.terminate(id, pool, claim.token(), NodeStatus.CANCELLED,
                    Optional.empty(), Optional.of(CANCELLED));
            case TaskStore.Park.Lost l -> log.warn("park refused runId={}: the claim ended", id.runId());
        }
    }

    /** Polls the cancel flag every cancelPoll and extends the lease every heartbeat. */
    private ScheduledFuture<?> keepClaim(TaskIdentity id, long token, Cancellation cancellation) {
        long poll = timing.cancelPoll().toMillis();
        long extendEvery = Math.max(1, timing.heartbeat().toMillis() / poll);
        AtomicLong ticks = new AtomicLong();
        return ticker.scheduleWithFixedDelay(() -> {
            try {
                long lease = ticks.incrementAndGet() % extendEvery == 0 ? timing.lease().toMillis() : 0;
                switch (tasks.heartbeat(id.runKey(), id.runId(), token, lease)) {
                    case CANCELLING -> cancellation.cancel(CANCELLED);
                    case LOST -> cancellation.cancel("the claim of `" + id.runId() + "` ended");
                    case RUNNING -> { }
                }
            } catch (RuntimeException e) {
                log.warn("heartbeat failed runId={} error={}", id.runId(), e.toString());
            }
        }, poll, poll, TimeUnit.MILLISECONDS);
    }

    private RenderContext renderContext(TaskIdentity id, ObjectNode input) {
        Map<String, JsonNode> outputs = new LinkedHashMap<>();
        input.path("inputs").properties().forEach(e -> outputs.put(e.getKey(), e.getValue()));
        Map<String, UpstreamStatus> upstreams = new LinkedHashMap<>();
        input.path("upstreams").properties().forEach(e -> upstreams.put(e.getKey(), new UpstreamStatus(
                e.getValue().path("status").asString(""),
                e.getValue().hasNonNull("error") ? Optional.of(e.getValue().get("error").asString()) : Optional.empty())));
        return new RenderContext(id.graph(), id.node(), id.partition().key(), id.runId(), outputs, upstreams,
                name -> Optional.ofNullable(environment.get(name)));
    }
}
