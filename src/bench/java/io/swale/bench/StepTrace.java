package io.swale.bench;

import io.swale.task.TaskStep;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * The {@link TaskStep} events of one shape, recorded with Java Flight Recorder while it runs, cut into the
 * legs of each edge: what an edge pays between and around its two Kafka hops. Every step is stamped on this
 * process's clock, so the legs need no second clock.
 */
final class StepTrace {
    /** Whose step a leg starts or ends at: the edge's upstream instance or its downstream. */
    enum Side { UPSTREAM, DOWNSTREAM }

    /** A leg of an edge, from one step to the next. */
    record Leg(String key, String label, Side fromSide, TaskStep.Kind from, Side toSide, TaskStep.Kind to) {
        /** From its first step to its second, when both were recorded. */
        OptionalLong nanos(Map<TaskStep.Kind, Long> up, Map<TaskStep.Kind, Long> down) {
            Long start = (fromSide == Side.UPSTREAM ? up : down).get(from);
            Long end = (toSide == Side.UPSTREAM ? up : down).get(to);
            return start == null || end == null ? OptionalLong.empty() : OptionalLong.of(end - start);
        }
    }

    /** An edge's legs in path order; the first and last are the edge as the steps see it. */
    static final List<Leg> EDGE_LEGS = List.of(
            new Leg("finished_to_claimed", "finished → claimed (the edge)", Side.UPSTREAM, TaskStep.Kind.FINISHED,
                    Side.DOWNSTREAM, TaskStep.Kind.CLAIMED),
            new Leg("event_hop", "  event: produce, broker, events poll", Side.UPSTREAM, TaskStep.Kind.FINISHED,
                    Side.UPSTREAM, TaskStep.Kind.EVENT_RECEIVED),
            new Leg("run_read", "  run read (Redis)", Side.UPSTREAM, TaskStep.Kind.EVENT_RECEIVED,
                    Side.UPSTREAM, TaskStep.Kind.RUN_READ),
            new Leg("readiness", "  readiness", Side.UPSTREAM, TaskStep.Kind.RUN_READ,
                    Side.DOWNSTREAM, TaskStep.Kind.SUBMITTING),
            new Leg("submit_script", "  submit script (Redis)", Side.DOWNSTREAM, TaskStep.Kind.SUBMITTING,
                    Side.DOWNSTREAM, TaskStep.Kind.SUBMITTED),
            new Leg("dispatch_hop", "  dispatch: produce, broker, pool poll", Side.DOWNSTREAM, TaskStep.Kind.SUBMITTED,
                    Side.DOWNSTREAM, TaskStep.Kind.DISPATCH_RECEIVED),
            new Leg("slot_and_admission", "  slot and admission", Side.DOWNSTREAM, TaskStep.Kind.DISPATCH_RECEIVED,
                    Side.DOWNSTREAM, TaskStep.Kind.CLAIMING),
            new Leg("claim_script", "  claim script (Redis)", Side.DOWNSTREAM, TaskStep.Kind.CLAIMING,
                    Side.DOWNSTREAM, TaskStep.Kind.CLAIMED));

    /** What each instance does between its claim and its finish: not in an edge, but in a chain's makespan. */
    static final List<Leg> NODE_LEGS = List.of(
            new Leg("hand_off", "claimed → attempt started (hand-off)", Side.DOWNSTREAM, TaskStep.Kind.CLAIMED,
                    Side.DOWNSTREAM, TaskStep.Kind.ATTEMPT_STARTED),
            new Leg("operator", "attempt started → operator returned", Side.DOWNSTREAM, TaskStep.Kind.ATTEMPT_STARTED,
                    Side.DOWNSTREAM, TaskStep.Kind.OPERATOR_RETURNED),
            new Leg("finish_script", "operator returned → finished (settle, finish script)", Side.DOWNSTREAM,
                    TaskStep.Kind.OPERATOR_RETURNED, Side.DOWNSTREAM, TaskStep.Kind.FINISHED));

    private static final String GC_PAUSE = "jdk.GCPhasePause";

    private final Recording recording = new Recording();

    private StepTrace() {
        recording.enable(TaskStep.NAME);
        // every stop-the-world pause, so that a slow edge can be told from one a pause stretched
        recording.enable(GC_PAUSE).withThreshold(java.time.Duration.ZERO);
        recording.setName("swale-bench-steps");
        recording.start();
    }

    static StepTrace start() {
        return new StepTrace();
    }

    /**
     * Stops recording and returns the steps of {@code graph}'s instances: partition, then node, then each
     * step's earliest time in epoch nanoseconds.
     */
    Steps stop(String graph) {
        recording.stop();
        Path file = null;
        try {
            file = Files.createTempFile("swale-bench-steps", ".jfr");
            recording.dump(file);
            Map<String, Map<String, Map<TaskStep.Kind, Long>>> out = new HashMap<>();
            List<long[]> pauses = new ArrayList<>();
            Map<String, TaskStep.Kind> kinds = new HashMap<>();
            for (TaskStep.Kind k : TaskStep.Kind.values()) {
                kinds.put(k.wireName(), k);
            }
            // read one event at a time: a sustained shape records millions
            try (RecordingFile events = new RecordingFile(file)) {
                while (events.hasMoreEvents()) {
                    RecordedEvent e = events.readEvent();
                    String type = e.getEventType().getName();
                    // a dump holds whatever other recordings took meanwhile too (a profile of the same run)
                    if (type.equals(TaskStep.NAME) && graph.equals(e.getString("graph"))) {
                        out.computeIfAbsent(e.getString("partition"), p -> new HashMap<>())
                                .computeIfAbsent(e.getString("node"), n -> new HashMap<>())
                                .merge(kinds.get(e.getString("step")), nanos(e.getStartTime()), Math::min);
                    } else if (type.equals(GC_PAUSE)) {
                        pauses.add(new long[] {nanos(e.getStartTime()), nanos(e.getEndTime())});
                    }
                }
            }
            return new Steps(out, pauses);
        } catch (IOException e) {
            throw new UncheckedIOException("task steps of " + graph + " not read", e);
        } finally {
            recording.close();
            if (file != null) {
                file.toFile().delete();
            }
        }
    }

    /** Stops recording and drops what was recorded (the shape failed). */
    void discard() {
        recording.close();
    }

    private static long nanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    /** The recorded steps of one graph's instances, and the GC's stop-the-world pauses meanwhile (epoch ns). */
    record Steps(Map<String, Map<String, Map<TaskStep.Kind, Long>>> byPartition, List<long[]> gcPauses) {
        /**
         * Adds the legs of each of {@code nodeNames} in {@code partition} to {@code into}: the node's own legs,
         * and the edge legs from {@code upstreamOf} the node when it has one. A leg whose steps were not both
         * recorded is left out. Each edge whose steps were all recorded goes to {@code tail} too.
         */
        void addLegs(Collection<String> nodeNames, String partition, Map<String, String> upstreamOf,
                Map<String, Dist> into, EdgeTail tail) {
            Map<String, Map<TaskStep.Kind, Long>> nodes = byPartition.getOrDefault(partition, Map.of());
            for (String node : nodeNames) {
                Map<TaskStep.Kind, Long> down = nodes.getOrDefault(node, Map.of());
                NODE_LEGS.forEach(l -> record(l, down, down, into));
                Optional.ofNullable(upstreamOf.get(node))
                        .ifPresent(up -> addEdge(nodes.getOrDefault(up, Map.of()), down, into, tail));
            }
        }

        /** Each edge leg to {@code into}; the edge to {@code tail} when its legs after the first were all recorded. */
        private static void addEdge(Map<TaskStep.Kind, Long> up, Map<TaskStep.Kind, Long> down, Map<String, Dist> into,
                EdgeTail tail) {
            long[] legs = new long[EDGE_LEGS.size() - 1];
            boolean whole = true;
            for (int i = 0; i < EDGE_LEGS.size(); i++) {
                Leg leg = EDGE_LEGS.get(i);
                OptionalLong nanos = leg.nanos(up, down);
                nanos.ifPresent(n -> put(into, leg, n));
                if (i > 0) {
                    whole &= nanos.isPresent();
                    legs[i - 1] = nanos.orElse(0);
                }
            }
            if (whole) {
                tail.add(new EdgeTail.Edge(up.get(TaskStep.Kind.FINISHED), down.get(TaskStep.Kind.CLAIMED), legs));
            }
        }

        private static void record(Leg leg, Map<TaskStep.Kind, Long> up, Map<TaskStep.Kind, Long> down,
                Map<String, Dist> into) {
            leg.nanos(up, down).ifPresent(n -> put(into, leg, n));
        }

        private static void put(Map<String, Dist> into, Leg leg, long nanos) {
            into.computeIfAbsent(leg.key(), k -> new Dist()).recordNanos(nanos);
        }
    }

    /** Each leg's distribution, empty, in report order. */
    static Map<String, Dist> emptyLegs() {
        Map<String, Dist> legs = new LinkedHashMap<>();
        EDGE_LEGS.forEach(l -> legs.put(l.key(), new Dist()));
        NODE_LEGS.forEach(l -> legs.put(l.key(), new Dist()));
        return legs;
    }

    /** An empty tail of the edge's legs (the edge itself left out: it is the sum of the others). */
    static EdgeTail emptyTail() {
        return new EdgeTail(EDGE_LEGS.stream().skip(1).map(Leg::key).toList());
    }

    /** The label of a leg key. */
    static String label(String key) {
        return java.util.stream.Stream.concat(EDGE_LEGS.stream(), NODE_LEGS.stream())
                .filter(l -> l.key().equals(key)).map(Leg::label).findFirst().orElse(key);
    }
}
