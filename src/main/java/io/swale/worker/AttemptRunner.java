package io.swale.worker;

import io.swale.operator.AttemptContext;
import io.swale.operator.Cancellation;
import io.swale.operator.Operator;
import io.swale.operator.OperatorRegistry;
import io.swale.operator.OperatorResult;
import io.swale.record.NodeStatus;
import io.swale.store.TaskInput;
import io.swale.store.TaskStore;
import io.swale.task.SwaleMetrics;
import io.swale.task.TaskIdentity;
import io.swale.task.Terminations;
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
    /** The worker stops the attempt to give its lease back: the attempt settles nothing. */
    static final String GIVEN_BACK = "the worker shut down and gave the lease back";

    /** Lease and heartbeat timing. */
    public record Timing(Duration lease, Duration heartbeat, Duration cancelPoll) {}

    private final OperatorRegistry operators;
    private final TaskStore tasks;
    private final Terminations terminations;
    private final ScheduledExecutorService ticker;
    private final Timing timing;
    private final Backoff backoff;
    private final Map<String, String> environment;
    private SwaleMetrics metrics = SwaleMetrics.NONE;

    public AttemptRunner(OperatorRegistry operators, TaskStore tasks, Terminations terminations,
            ScheduledExecutorService ticker, Timing timing, Backoff backoff, Map<String, String> environment) {
        this.operators = operators;
        this.tasks = tasks;
        this.terminations = terminations;
        this.ticker = ticker;
        this.timing = timing;
        this.backoff = backoff;
        this.environment = Map.copyOf(environment);
    }

    /**
     * Runs the attempt to its end and settles it. {@code cancellation} fires when the run is cancelled (the
     * heartbeat returns the flag), the claim is lost, or the worker gives the attempt up at shutdown.
     */
    public void metrics(SwaleMetrics metrics) {
        this.metrics = metrics;
    }

    public void run(TaskIdentity id, TaskStore.Claim.Claimed claim, String pool, Cancellation cancellation) {
        try (var ignored = Mdc.of(id)) {
            long t0 = System.nanoTime();
            if (claim.attempt() == 1 && claim.step() == 0) {
                metrics.started(pool, Math.max(0, claim.nowMs() - claim.submittedMs()));
            }
            log.info("attempt started graph={} partition={} node={} runId={} attempt={}/{} step={}", id.graph(),
                    id.partition(), id.node(), id.runId(), claim.attempt(), claim.maxAttempts(), claim.step());
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
            if (cancellation.isCancelled() && GIVEN_BACK.equals(cancellation.reason())) {
                log.info("attempt stopped for hand-over runId={} attempt={}", id.runId(), claim.attempt());
                return;
            }
            boolean cancelled = cancellation.isCancelled() && CANCELLED.equals(cancellation.reason());
            log.info("attempt ended graph={} partition={} node={} runId={} attempt={} result={} ms={}", id.graph(),
                    id.partition(), id.node(), id.runId(), claim.attempt(),
                    cancelled ? "cancelled" : result.getClass().getSimpleName(), (System.nanoTime() - t0) / 1_000_000);
            settle(id, claim, pool, cancelled ? new OperatorResult.Failed(CANCELLED) : result, cancelled);
            metrics.attemptFinished(pool, cancelled ? "cancelled" : outcome(result, claim), System.nanoTime() - t0);
        }
    }

    private OperatorResult execute(TaskIdentity id, TaskStore.Claim.Claimed claim, Cancellation cancellation) {
        if (claim.input().isEmpty()) {
            return new OperatorResult.PermanentError("the task input of `" + id.runId() + "` is not a JSON object");
        }
        TaskInput input = claim.input().get();
        String operatorName = input.operator();
        Optional<Operator> operator = operators.find(operatorName).filter(o -> !o.checkOnly());
        if (operator.isEmpty()) {
            return new OperatorResult.PermanentError("operator `" + operatorName + "` cannot run on this worker");
        }
        JsonNode rendered;
        try {
            rendered = ParamsTemplates.render(input.params(), renderContext(id, input));
        } catch (RenderException e) {
            return new OperatorResult.Failed(e.getMessage());
        }
        ObjectNode inputs = JsonNodeFactory.instance.objectNode();
        input.inputs().forEach(inputs::set);
        Optional<JsonNode> state = claim.stepState();
        AttemptContext context = new AttemptContext(id.runId(), id.graph(), id.partition().key(), id.node(),
                claim.attempt(), claim.nowMs(), rendered, inputs, state, environment, cancellation);
        return operator.get().execute(context);
    }

    private static String outcome(OperatorResult result, TaskStore.Claim.Claimed claim) {
        return switch (result) {
            case OperatorResult.Succeeded s -> "succeeded";
            case OperatorResult.Failed f -> "failed";
            case OperatorResult.Continue c -> "continue";
            case OperatorResult.TransientError t -> claim.attempt() < claim.maxAttempts() ? "retry" : "failed";
            case OperatorResult.PermanentError p -> "failed";
        };
    }

    private void settle(TaskIdentity id, TaskStore.Claim.Claimed claim, String pool, OperatorResult result,
            boolean cancelled) {
        switch (result) {
            case OperatorResult.Succeeded s -> end(id, claim, NodeStatus.SUCCEEDED, Optional.of(s.output()), Optional.empty());
            case OperatorResult.Failed f -> end(id, claim, cancelled ? NodeStatus.CANCELLED : NodeStatus.FAILED,
                    Optional.empty(), Optional.of(f.reason()));
            case OperatorResult.Continue c -> park(id, claim, c.delay().toMillis(), "", true,
                    Optional.of(c.state() == null ? JsonNodeFactory.instance.nullNode() : c.state()));
            case OperatorResult.TransientError t -> {
                if (claim.attempt() < claim.maxAttempts()) {
                    park(id, claim, backoff.delayMs(claim.attempt()), t.message(), false, Optional.empty());
                } else {
                    afterEnd(id, claim, terminations.deadLetter(id, claim.token(), pool, claim.attempt(),
                            claim.maxAttempts(), t.message()));
                }
            }
            case OperatorResult.PermanentError p -> afterEnd(id, claim, terminations.deadLetter(id, claim.token(), pool,
                    claim.attempt(), claim.maxAttempts(), p.message()));
        }
    }

    private void end(TaskIdentity id, TaskStore.Claim.Claimed claim, NodeStatus status, Optional<JsonNode> output,
            Optional<String> error) {
        afterEnd(id, claim, terminations.terminate(id, claim.token(), status, output, error));
    }

    /** A run cancelled while the attempt ran ends cancelled, whatever the attempt produced. */
    private void afterEnd(TaskIdentity id, TaskStore.Claim.Claimed claim, TaskStore.Finish outcome) {
        if (outcome == TaskStore.Finish.CANCELLING) {
            terminations.terminate(id, claim.token(), NodeStatus.CANCELLED, Optional.empty(), Optional.of(CANCELLED));
        } else if (outcome != TaskStore.Finish.OK) {
            log.warn("settle refused runId={} attempt={} outcome={}", id.runId(), claim.attempt(), outcome);
        }
    }

    /** Ends an instance whose run was cancelled while this worker held it (token {@code token}). */
    void endCancelled(TaskIdentity id, long token) {
        terminations.terminate(id, token, NodeStatus.CANCELLED, Optional.empty(), Optional.of(CANCELLED));
    }

    private void park(TaskIdentity id, TaskStore.Claim.Claimed claim, long delayMs, String error, boolean nextStep,
            Optional<JsonNode> stepState) {
        switch (tasks.park(id.runKey(), id.runId(), claim.token(), delayMs, error, nextStep, stepState)) {
            case TaskStore.Park.Waiting w -> tasks.scheduleDelayed(id.runKey(), id.runId(), w.dueMs());
            case TaskStore.Park.Cancelling c -> terminations.terminate(id, claim.token(), NodeStatus.CANCELLED,
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

    private RenderContext renderContext(TaskIdentity id, TaskInput input) {
        Map<String, JsonNode> outputs = new LinkedHashMap<>(input.inputs());
        Map<String, UpstreamStatus> upstreams = new LinkedHashMap<>();
        input.upstreams().forEach((up, u) -> upstreams.put(up, new UpstreamStatus(u.status(), u.error())));
        return new RenderContext(id.graph(), id.node(), id.partition().key(), id.runId(), outputs, upstreams,
                name -> Optional.ofNullable(environment.get(name)));
    }
}
