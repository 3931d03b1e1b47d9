package io.swale.api.dashboard;

import io.swale.record.GraphRecord;
import io.swale.record.NodeRecord;
import io.swale.store.DefinitionStore;
import io.swale.store.RunIndex;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.RunVersion;
import io.swale.store.RunView;
import io.swale.store.TaskInstance;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The live view pushed to dashboards as Server-Sent Events. While at least one browser listens, one thread
 * reads the runs of the active-runs index each poll interval, derives the set of running task instances
 * from their stored state ({@link RunningNow}), and sends the edges between two derivations:
 *
 * <ul>
 *   <li>{@code snapshot}: on connect, every pool with what runs in it now;
 *   <li>{@code started} / {@code changed} / {@code cleared}: a claim began, changed state (cancelling), or
 *       ended (with what its run id became);
 *   <li>{@code run}: a run's record, node records or instances changed, or it settled;
 *   <li>{@code graph}: a graph got or lost runs, or adopted another definition.
 * </ul>
 *
 * Nothing here is a source of truth: the previous derivation is kept only to compute edges, and each new
 * connection starts from a fresh snapshot.
 */
@Component
public class LiveView implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(LiveView.class);
    /** Settle times are written by another process's clock: look back this far to see every settle. */
    private static final long SETTLE_LOOKBACK_MS = 10_000;

    private final RunStore runs;
    private final RunIndex index;
    private final DefinitionStore definitions;
    private final DashboardViews views;
    private final DashboardProperties props;
    private final Clock clock;
    private final List<SseEmitter> streams = new CopyOnWriteArrayList<>();

    private volatile ScheduledExecutorService thread;
    private volatile boolean running;

    // Touched only by the live-view thread.
    private boolean primed;
    private Map<String, RunningInstance> current = Map.of();
    private Map<RunKey, Fingerprint> fingerprints = Map.of();
    private Map<RunKey, Long> settled = Map.of();
    private Map<String, GraphState> graphs = Map.of();
    private long lastTickMs;
    private long lastSendMs;
    private long failures;

    /** What a run looked like at the last read; a different one means the page should read it again. */
    private record Fingerprint(RunVersion run, Map<String, NodeRecord> records, Map<String, String> instances) {
        static Fingerprint of(RunView v) {
            Map<String, String> instances = new TreeMap<>();
            for (TaskInstance i : v.instances().values()) {
                instances.put(i.runId(), i.status().wireName() + "/" + i.step() + "/" + i.attempt() + "/" + i.token());
            }
            return new Fingerprint(v.version(), new TreeMap<>(v.nodeRecords()), instances);
        }
    }

    private record GraphState(long runs, String definition) {}

    public LiveView(RunStore runs, RunIndex index, DefinitionStore definitions, DashboardViews views,
            DashboardProperties props, Clock clock) {
        this.runs = runs;
        this.index = index;
        this.definitions = definitions;
        this.views = views;
        this.props = props;
        this.clock = clock;
    }

    /** A new event stream; its first event is a snapshot of what runs now. */
    public SseEmitter subscribe() {
        ScheduledExecutorService t = thread;
        if (t == null || !running) {
            throw new IllegalStateException("the live view is stopped");
        }
        if (streams.size() >= props.maxStreams()) {
            throw new TooManyStreams(props.maxStreams());
        }
        SseEmitter emitter = new SseEmitter(props.streamTimeout().toMillis());
        emitter.onCompletion(() -> streams.remove(emitter));
        emitter.onTimeout(() -> {
            streams.remove(emitter);
            emitter.complete();
        });
        emitter.onError(e -> streams.remove(emitter));
        t.execute(() -> attach(emitter));
        return emitter;
    }

    /** Refused because this replica already serves as many streams as configured. */
    public static final class TooManyStreams extends RuntimeException {
        TooManyStreams(int max) {
            super("this replica already serves " + max + " event streams (swale.dashboard.max-streams)");
        }
    }

    int streams() {
        return streams.size();
    }

    private void attach(SseEmitter emitter) {
        try {
            if (!primed) {
                read(false);
            }
            emitter.send(SseEmitter.event().name("snapshot").reconnectTime(1000)
                    .data(views.runningByPool(current.values()), MediaType.APPLICATION_JSON));
            streams.add(emitter);
        } catch (IOException | RuntimeException e) {
            log.debug("live view: could not open a stream: {}", e.toString());
            emitter.completeWithError(e);
        }
    }

    private void tick() {
        if (streams.isEmpty()) {
            primed = false;
            current = Map.of();
            fingerprints = Map.of();
            settled = Map.of();
            graphs = Map.of();
            return;
        }
        try {
            read(true);
            failures = 0;
            if (clock.millis() - lastSendMs >= props.heartbeat().toMillis()) {
                broadcast(() -> SseEmitter.event().comment("alive"));
            }
        } catch (RuntimeException e) {
            if (failures++ % 60 == 0) {
                log.warn("live view: reading the active runs failed ({} time(s) in a row): {}", failures, e.toString());
            }
        }
    }

    /** One derivation from the store; with {@code emit}, sends its edges to every stream. */
    private void read(boolean emit) {
        long now = clock.millis();
        Set<RunKey> keys = new LinkedHashSet<>(runs.activeRuns());
        Set<RunKey> wereActive = fingerprints.keySet();
        Set<RunKey> toRead = new LinkedHashSet<>(keys);
        toRead.addAll(wereActive);
        List<RunView> read = WholeRuns.whole(runs, List.copyOf(toRead));

        Map<String, RunningInstance> next = RunningNow.derive(read);
        RunningNow.Transitions edges = RunningNow.diff(current, next, read);

        Set<RunKey> changedRuns = new LinkedHashSet<>();
        Map<RunKey, String> states = new HashMap<>();
        Map<RunKey, Fingerprint> nextPrints = new HashMap<>();
        for (RunView v : read) {
            Fingerprint f = Fingerprint.of(v);
            states.put(v.key(), v.run().state().wireName());
            if (!f.equals(fingerprints.get(v.key()))) {
                changedRuns.add(v.key());
            }
            if (keys.contains(v.key())) {
                nextPrints.put(v.key(), f);
            }
        }
        for (RunKey k : wereActive) {
            if (!states.containsKey(k)) {
                changedRuns.add(k);
            }
        }

        long since = (primed ? lastTickMs : now) - SETTLE_LOOKBACK_MS;
        Map<RunKey, Long> nextSettled = index.settledSince(since);
        nextSettled.forEach((k, at) -> {
            if (!Objects.equals(settled.get(k), at)) {
                changedRuns.add(k);
            }
        });

        Map<String, GraphState> nextGraphs = graphState();
        Set<String> changedGraphs = new TreeSet<>();
        Set<String> names = new TreeSet<>(graphs.keySet());
        names.addAll(nextGraphs.keySet());
        for (String g : names) {
            if (!Objects.equals(graphs.get(g), nextGraphs.get(g))) {
                changedGraphs.add(g);
            }
        }

        boolean first = !primed;
        current = next;
        fingerprints = nextPrints;
        settled = nextSettled;
        graphs = nextGraphs;
        lastTickMs = now;
        primed = true;
        if (!emit || first) {
            return;
        }
        // a run that started and settled between two reads was not among those read: its state is its record's
        List<RunKey> unread = changedRuns.stream().filter(k -> !states.containsKey(k)).toList();
        if (!unread.isEmpty()) {
            runs.runRecords(unread).forEach((k, r) -> states.put(k, r.state().wireName()));
        }
        for (RunningInstance r : edges.started()) {
            send("started", r.toJson());
        }
        for (RunningInstance r : edges.changed()) {
            send("changed", r.toJson());
        }
        for (RunningNow.Cleared c : edges.cleared()) {
            Map<String, Object> m = new LinkedHashMap<>(c.instance().toJson());
            m.put("outcome", c.outcome());
            send("cleared", m);
        }
        for (RunKey k : changedRuns) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("graph", k.graph());
            m.put("partition", k.partition().key());
            m.put("state", states.get(k));
            send("run", m);
        }
        for (String g : changedGraphs) {
            GraphState state = nextGraphs.get(g);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("graph", g);
            m.put("runs", state == null ? 0 : state.runs());
            m.put("definition", state == null ? null : state.definition());
            send("graph", m);
        }
    }

    /** Per graph: its run count and adopted definition, so a new run or a new definition is an edge. */
    private Map<String, GraphState> graphState() {
        Map<String, GraphRecord> records = definitions.graphRecords();
        Set<String> names = new TreeSet<>(records.keySet());
        names.addAll(runs.graphsWithRuns());
        Map<String, Long> counts = index.runCounts(names);
        Map<String, GraphState> out = new HashMap<>();
        for (String g : names) {
            GraphRecord r = records.get(g);
            out.put(g, new GraphState(counts.getOrDefault(g, 0L), r == null ? null : r.definition()));
        }
        return out;
    }

    private void send(String name, Map<String, Object> data) {
        broadcast(() -> SseEmitter.event().name(name).data(data, MediaType.APPLICATION_JSON));
    }

    /** Sends to every stream; a builder is used once per stream, since building it consumes it. */
    private void broadcast(Supplier<SseEmitter.SseEventBuilder> event) {
        lastSendMs = clock.millis();
        List<SseEmitter> gone = new ArrayList<>();
        for (SseEmitter s : streams) {
            try {
                s.send(event.get());
            } catch (IOException | IllegalStateException e) {
                gone.add(s);
            }
        }
        if (!gone.isEmpty()) {
            streams.removeAll(gone);
            gone.forEach(SseEmitter::complete);
        }
    }

    @Override
    public void start() {
        ScheduledExecutorService t = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread th = new Thread(r, "swale-live-view");
            th.setDaemon(true);
            return th;
        });
        long every = Math.max(10, props.pollInterval().toMillis());
        t.scheduleWithFixedDelay(this::tick, every, every, TimeUnit.MILLISECONDS);
        thread = t;
        running = true;
    }

    /** Ends every stream first, so open connections never hold up the web server's graceful shutdown. */
    @Override
    public void stop() {
        running = false;
        for (SseEmitter s : streams) {
            s.complete();
        }
        streams.clear();
        ScheduledExecutorService t = thread;
        if (t != null) {
            t.shutdownNow();
        }
        thread = null;
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
