package io.swale.store.redis;

import io.swale.store.PendingInstance;
import io.swale.store.RunKey;
import io.swale.store.TaskInput;
import io.swale.store.TaskStore.ItemSubmit;
import io.swale.store.TaskStore.RequestWrite;
import io.swale.store.TaskStore.RunSubmits;
import io.swale.store.TaskStore.RunSubmitted;
import io.swale.store.TaskStore.Submit;
import io.swale.store.TaskStore.SubmitRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import redis.clients.jedis.UnifiedJedis;

/**
 * The submit scripts of {@link RedisTaskStore}: one instance, with a rerun's request record or without; several
 * of one run, or of several runs, in one pipeline; and the items of a mapped node in one step.
 */
final class RedisSubmissions {
    private final UnifiedJedis redis;
    private final ScriptCalls calls;
    private final RedisKeys keys;
    private final RedisScripts scripts;
    private final long requestTtlMs;

    RedisSubmissions(UnifiedJedis redis, ScriptCalls calls, RedisKeys keys, RedisScripts scripts, long requestTtlMs) {
        this.redis = redis;
        this.calls = calls;
        this.keys = keys;
        this.scripts = scripts;
        this.requestTtlMs = requestTtlMs;
    }

    Submit submit(RunKey key, String runId, PendingInstance instance, TaskInput input, Optional<RequestWrite> request) {
        List<String> k = new ArrayList<>(List.of(keys.instances(key), keys.inputs(key), keys.run(key)));
        List<String> a = new ArrayList<>(List.of(runId, InstanceCodec.pending(instance), TaskInputCodec.encode(input)));
        request.map(RequestWrite::record).ifPresent(r -> {
            RedisRequestStore.reserveOfRun(redis, keys, scripts, key, r, requestTtlMs, "submission");
            k.add(keys.request(RedisKeys.shardOf(r), r.id()));
            k.add(keys.expiry(key));
            a.addAll(RedisRequestStore.recordArgs(r, requestTtlMs));
        });
        return outcome((String) calls.durable(scripts.submit, k, a));
    }

    /** Several submissions to one run in one pipeline; a failed script fails them all. */
    List<Submit> pipelined(RunKey key, List<SubmitRequest> requests) {
        List<String> k = List.of(keys.instances(key), keys.inputs(key), keys.run(key));
        return calls.pipelined(scripts.submit, requests, r -> k, RedisSubmissions::args, r -> outcome((String) r),
                q -> submit(key, q.runId(), q.instance(), q.input(), Optional.empty()), e -> {
                    throw e;
                }, true);
    }

    /** One submission of {@link #pipelined(List)}, with its run. */
    private record RunSubmit(RunKey key, SubmitRequest request) {}

    /** The answer to one submission of {@link #pipelined(List)}: an outcome, or the failure of its script. */
    private record Answer(Submit outcome, RuntimeException error) {}

    /** The submissions of several runs in one pipeline; a failed script fails its own run only. */
    List<RunSubmitted> pipelined(List<RunSubmits> runs) {
        List<RunSubmit> flat = new ArrayList<>();
        runs.forEach(r -> r.requests().forEach(q -> flat.add(new RunSubmit(r.key(), q))));
        List<Answer> answers = calls.pipelined(scripts.submit, flat,
                q -> List.of(keys.instances(q.key()), keys.inputs(q.key()), keys.run(q.key())),
                q -> args(q.request()), r -> new Answer(outcome((String) r), null),
                q -> new Answer(submit(q.key(), q.request().runId(), q.request().instance(), q.request().input(),
                        Optional.empty()), null),
                e -> new Answer(null, e), true);
        List<RunSubmitted> out = new ArrayList<>(runs.size());
        int next = 0;
        for (RunSubmits r : runs) {
            List<Submit> outcomes = new ArrayList<>(r.requests().size());
            RuntimeException failed = null;
            for (int i = 0; i < r.requests().size(); i++) {
                Answer a = answers.get(next++);
                if (a.error() != null) {
                    failed = failed == null ? a.error() : failed;
                } else {
                    outcomes.add(a.outcome());
                }
            }
            out.add(failed == null ? new RunSubmitted.Done(outcomes) : new RunSubmitted.Failed(failed));
        }
        return out;
    }

    List<ItemSubmit> items(RunKey key, String itemPrefix, int maxActive, List<SubmitRequest> requests) {
        if (requests.isEmpty()) {
            return List.of();
        }
        List<String> a = new ArrayList<>(List.of(itemPrefix, Integer.toString(maxActive)));
        requests.forEach(r -> a.addAll(args(r)));
        List<?> r = (List<?>) calls.durable(scripts.submitItems,
                List.of(keys.instances(key), keys.inputs(key), keys.run(key)), a);
        return r.stream().map(o -> switch (String.valueOf(o)) {
            case "new" -> ItemSubmit.NEW;
            case "exists" -> ItemSubmit.EXISTS;
            case "mismatch" -> ItemSubmit.MISMATCH;
            case "inactive" -> ItemSubmit.INACTIVE;
            default -> ItemSubmit.FULL;
        }).toList();
    }

    private static List<String> args(SubmitRequest r) {
        return List.of(r.runId(), InstanceCodec.pending(r.instance()), TaskInputCodec.encode(r.input()));
    }

    private static Submit outcome(String r) {
        return switch (r) {
            case "new" -> Submit.NEW;
            case "mismatch" -> Submit.MISMATCH;
            case "inactive" -> Submit.INACTIVE;
            default -> Submit.EXISTS;
        };
    }
}
