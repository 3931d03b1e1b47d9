package io.swale.worker;

import io.swale.operator.AttemptContext;
import io.swale.operator.Cancellation;
import io.swale.operator.Operator;
import io.swale.operator.OperatorRegistry;
import io.swale.operator.OperatorResult;
import io.swale.store.TaskInput;
import io.swale.store.TaskStore;
import io.swale.task.SwaleMetrics;
import io.swale.task.TaskIdentity;
import io.swale.task.TaskStep;
import io.swale.template.ParamsTemplates;
import io.swale.template.RenderContext;
import io.swale.template.RenderException;
import io.swale.template.UpstreamStatus;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs one claimed attempt as a sequence: read its input, render the params, run the operator while the
 * {@link LeaseKeeper} keeps the claim, then hand the result to the {@link Settlement} (spec §8.2).
 */
public final class AttemptRunner {
    private static final Logger log = LoggerFactory.getLogger(AttemptRunner.class);

    private final OperatorRegistry operators;
    private final LeaseKeeper leases;
    private final Settlement settlement;
    private final Map<String, String> environment;
    private final SwaleMetrics metrics;

    public AttemptRunner(OperatorRegistry operators, LeaseKeeper leases, Settlement settlement,
            Map<String, String> environment, SwaleMetrics metrics) {
        this.operators = operators;
        this.leases = leases;
        this.settlement = settlement;
        this.environment = Map.copyOf(environment);
        this.metrics = metrics;
    }

    Settlement settlement() {
        return settlement;
    }

    /**
     * Runs the attempt to its end and settles it, ending with {@code preset} instead of running the operator when
     * present (its lease names could not be made), and calling {@code operatorReturned} on this thread once the
     * operator returned, before anything is settled. {@code cancellation} fires when the run is cancelled (the
     * heartbeat returns the flag), the claim is lost, or the worker gives the attempt up at shutdown.
     *
     * @return whether the attempt stopped for a hand-over: nothing was settled and its lease is to be given back
     *     at once. An attempt whose program succeeded as the hand-over began keeps its result (settled here):
     *     handing it over would run finished work twice.
     */
    public boolean run(TaskIdentity id, TaskStore.Claim.Claimed claim, String pool, long claimedAtNanos,
            Cancellation cancellation, Optional<OperatorResult> preset, Runnable operatorReturned) {
        try (var ignored = Mdc.of(id)) {
            long t0 = System.nanoTime();
            TaskStep.reached(TaskStep.Kind.ATTEMPT_STARTED, id);
            if (claim.attempt() == 1 && claim.step() == 0) {
                metrics.started(pool, Math.max(0, claim.nowMs() - claim.submittedMs()));
            }
            // DEBUG: INFO lines for each attempt's start and end cost the bench 12-26 % of its throughput
            // (docs/operations.md, Logs)
            log.debug("attempt started graph={} partition={} node={} runId={} attempt={}/{} step={}", id.graph(),
                    id.partition(), id.node(), id.runId(), claim.attempt(), claim.maxAttempts(), claim.step());
            // the lease is kept through the settle too, which is retried while it holds
            try (LeaseKeeper.Lease lease = leases.keep(id, claim.token(), pool, claimedAtNanos, cancellation)) {
                OperatorResult result;
                try {
                    result = preset.isPresent() ? preset.get() : execute(id, claim, cancellation);
                } catch (RuntimeException e) {
                    log.error("attempt crashed runId={} attempt={}", id.runId(), claim.attempt(), e);
                    result = new OperatorResult.TransientError("the operator crashed: " + e);
                }
                operatorReturned.run();
                if (cancellation.isCancelledFor(CancelReason.GIVEN_BACK)) {
                    // a killed program ends failed; only a success is surely the program's own result
                    if (!(result instanceof OperatorResult.Succeeded)) {
                        log.info("attempt stopped for hand-over runId={} attempt={}", id.runId(), claim.attempt());
                        return true;
                    }
                    log.info("attempt succeeded as its hand-over began, its result is kept runId={} attempt={}",
                            id.runId(), claim.attempt());
                }
                if (cancellation.isCancelledFor(CancelReason.LEASE_NOT_EXTENDED)) {
                    // the operator was stopped, so what it returned is not its result: the attempt failed for want
                    // of its lease, which the store may not have given to anyone else yet
                    log.warn("attempt stopped, its lease could not be extended runId={} attempt={} error={}", id.runId(),
                            claim.attempt(), lease.lastFailure());
                    settlement.settleUnextended(id, claim, pool, lease.lastFailure(), t0, lease.afterExpiry());
                    return false;
                }
                if (cancellation.isCancelledFor(CancelReason.CLAIM_LOST)) {
                    // what the stopped operator returned is not its result; the reaper runs the instance again
                    log.warn("attempt stopped, its claim was lost runId={} attempt={}", id.runId(), claim.attempt());
                    metrics.attemptFinished(pool, "lost", System.nanoTime() - t0);
                    return false;
                }
                if (cancellation.isCancelledFor(CancelReason.GRANT_LOST)
                        && !(result instanceof OperatorResult.Succeeded || result instanceof OperatorResult.Continue)) {
                    // an error may be the stop's own doing, and the claim still holds: a transient error that names
                    // the grant, retried while attempts remain, rather than an attempt left running until its lease
                    // expires with no cause on record. A success or a next step is the operator's own progress
                    log.warn("attempt stopped, the grant of its resource leases ended runId={} attempt={}", id.runId(),
                            claim.attempt());
                    result = new OperatorResult.TransientError("the attempt was stopped: the grant of its resource"
                            + " leases was taken back or not renewed within its lease, so another holder may have it");
                }
                boolean cancelled = cancellation.isCancelledFor(CancelReason.RUN_CANCELLED);
                // a success is DEBUG (the run's start and settle lines stay INFO); any other end is INFO
                boolean succeeded = !cancelled && result instanceof OperatorResult.Succeeded;
                if (!succeeded || log.isDebugEnabled()) {
                    log.atLevel(succeeded ? Level.DEBUG : Level.INFO).log(
                            "attempt ended graph={} partition={} node={} runId={} attempt={} result={} ms={}",
                            id.graph(), id.partition(), id.node(), id.runId(), claim.attempt(),
                            cancelled ? "cancelled" : result.getClass().getSimpleName(),
                            (System.nanoTime() - t0) / 1_000_000);
                }
                TaskStep.reached(TaskStep.Kind.OPERATOR_RETURNED, id);
                settlement.settle(id, claim, pool, result, cancelled, t0, lease);
                return false;
            }
        }
    }

    private OperatorResult execute(TaskIdentity id, TaskStore.Claim.Claimed claim, Cancellation cancellation) {
        if (claim.input().isEmpty()) {
            return new OperatorResult.PermanentError("the stored task input or step state of `" + id.runId() + "` cannot be read");
        }
        TaskInput input = claim.input().get();
        // the params first, the operator after (spec §8.2): a render error fails the instance without a dead letter
        JsonNode rendered;
        try {
            rendered = ParamsTemplates.render(input.params(), renderContext(id, input));
        } catch (RenderException e) {
            return new OperatorResult.Failed(e.getMessage());
        }
        String operatorName = input.operator();
        Optional<Operator> operator = operators.find(operatorName).filter(o -> !o.checkOnly());
        if (operator.isEmpty()) {
            return new OperatorResult.PermanentError("operator `" + operatorName + "` cannot run on this worker");
        }
        ObjectNode inputs = JsonNodeFactory.instance.objectNode();
        input.inputs().forEach(inputs::set);
        Optional<JsonNode> state = claim.stepState();
        AttemptContext context = new AttemptContext(id.runId(), id.graph(), id.partition().key(), id.node(),
                claim.attempt(), claim.nowMs(), rendered, inputs, state, environment, cancellation);
        return operator.get().execute(context);
    }

    private RenderContext renderContext(TaskIdentity id, TaskInput input) {
        Map<String, JsonNode> outputs = new LinkedHashMap<>(input.inputs());
        Map<String, UpstreamStatus> upstreams = new LinkedHashMap<>();
        input.upstreams().forEach((up, u) -> upstreams.put(up, new UpstreamStatus(u.status(), u.error())));
        return new RenderContext(id.graph(), id.node(), id.partition().key(), id.runId(), outputs, upstreams,
                name -> Optional.ofNullable(environment.get(name)),
                input.item().map(i -> new RenderContext.MapItem(i.index(), i.value())));
    }
}
