package io.swale.cli;

import io.swale.SwaleApplication;
import io.swale.config.ConfiguredPools;
import io.swale.definition.Definition;
import io.swale.definition.DefinitionFormat;
import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.graph.Partition;
import io.swale.record.NodeRecord;
import io.swale.record.RunState;
import io.swale.run.DefinitionCatalog;
import io.swale.run.GraphRuns;
import io.swale.run.RunCancellation;
import io.swale.run.RunGraphs;
import io.swale.run.RunRecords;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.RunView;
import java.io.PrintWriter;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The local one-shot run (spec §13): the application in this process with the scheduler and pool roles on
 * embedded Kafka and Redis and no web server; the definition is put (no pointer, no graph record), the run
 * started, and each node printed once when its record appears.
 *
 * <p>Ctrl-C (SIGINT, or SIGTERM) cancels the run through the cancel path, waits for its running attempts to
 * stop, and only then closes the application and the embedded servers and exits 130 (143 on SIGTERM); a second
 * signal ends that wait at once. The
 * signals are handled here ({@link Interrupts}) and Spring's shutdown hook is off, so that no shutdown hook
 * stops Redis, Kafka or the pool role before the cancel reached the run.
 */
final class LocalRun {
    private static final long POLL_MS = 100;
    /** How long an interrupted run waits for its attempts to see the cancel (they check every second). */
    private static final long CANCEL_WAIT_MS = 15_000;
    /** How long an interrupt waits for an application still starting, to close it once started. */
    private static final long START_WAIT_S = 120;
    private final PrintWriter out;
    private final PrintWriter err;
    private final int concurrency;
    private final Object lock = new Object();
    private final CountDownLatch started = new CountDownLatch(1);
    private ConfigurableApplicationContext context;
    private RunKey key;
    private boolean closed;
    private volatile boolean interrupted;
    /** Set by a second signal: the first one's handler closes without waiting for the cancel any more. */
    private volatile boolean stopWaiting;
    /** Signals received; guarded by {@link #lock}. */
    private int signals;

    LocalRun(PrintWriter out, PrintWriter err, int concurrency) {
        this.out = out;
        this.err = err;
        this.concurrency = concurrency;
    }

    int run(byte[] text, DefinitionFormat format, Partition partition) {
        Interrupts interrupts = Interrupts.install(this::interrupt);
        try {
            ConfigurableApplicationContext ctx;
            try {
                ctx = start();
                synchronized (lock) {
                    context = ctx;
                }
            } finally {
                started.countDown();
            }
            DefinitionCatalog catalog = ctx.getBean(DefinitionCatalog.class);
            Definition stored = catalog.put(text, format);
            Graph graph = stored.graph();
            ctx.getBean(ConfiguredPools.class).ensure(new LinkedHashSet<>(graph.pools()));
            RunKey run = new RunKey(graph.name(), partition);
            GraphRuns.Started begun = null;
            synchronized (lock) {
                // started and known to the handler together: an interrupt either prevents the run or cancels it
                if (!interrupted) {
                    begun = ctx.getBean(GraphRuns.class).startRun(stored.hash(), partition);
                    key = run;
                }
            }
            if (begun == null) {
                return parkUntilExit();
            }
            out.println(begun.started()
                    ? "started " + run + ": " + begun.submitted().size() + " root(s) submitted"
                    : "resuming " + run);
            out.flush();
            return follow(ctx.getBean(RunStore.class), ctx.getBean(DefinitionCatalog.class), run);
        } finally {
            synchronized (lock) {
                if (!interrupted) {
                    interrupts.close();
                }
            }
            if (interrupted) {
                parkUntilExit();
            }
            close();
        }
    }

    /**
     * On the signal's thread: cancel the run, wait for its attempts to stop, close everything, exit. A second
     * signal ends the first one's wait for the cancel, so that it closes the application at once, and exits: the
     * JVM's shutdown hooks stop the embedded servers once that close reaches them. A third one kills this
     * process's children (the embedded redis-server, the tasks' programs) and halts without the hooks.
     */
    private void interrupt(int exitCode) {
        int signals;
        synchronized (lock) {
            signals = ++this.signals;
            interrupted = true;
        }
        if (signals == 2) {
            err.println("interrupted again: exiting now, without waiting for the cancel");
            err.flush();
            stopWaiting = true;
            System.exit(exitCode);
        }
        if (signals > 2) {
            // the hooks, which would stop them, do not run
            ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
            Runtime.getRuntime().halt(exitCode);
        }
        if (signals == 1) {
            cancelAndClose();
            System.exit(exitCode);
        }
    }

    private void cancelAndClose() {
        ConfigurableApplicationContext ctx;
        RunKey run;
        try {
            // an application still starting is closed once it has started, so no embedded server outlives it
            started.await(START_WAIT_S, TimeUnit.SECONDS);
            synchronized (lock) {
                ctx = context;
                run = key;
            }
            if (ctx != null && run != null && ctx.isActive()) {
                out.println("interrupted: cancelling " + run);
                out.flush();
                ctx.getBean(RunCancellation.class).cancel(run.graph(), run.partition());
                RunStore runs = ctx.getBean(RunStore.class);
                long deadline = System.nanoTime() + CANCEL_WAIT_MS * 1_000_000;
                Optional<RunView> view = runs.read(run);
                while (view.isPresent() && hasActiveInstance(view.get()) && System.nanoTime() - deadline < 0
                        && !stopWaiting) {
                    Thread.sleep(POLL_MS);
                    view = runs.read(run);
                }
                out.println("run " + run + " " + view.map(v -> v.run().state().wireName()).orElse("gone")
                        + (view.isPresent() && hasActiveInstance(view.get()) ? " (an attempt was still running)" : ""));
                out.flush();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            err.println("interrupted: the run was not cancelled: " + e);
            err.flush();
        } finally {
            close();
        }
    }

    private static boolean hasActiveInstance(RunView view) {
        return view.instances().values().stream().anyMatch(i -> i.status().isActive());
    }

    private void close() {
        ConfigurableApplicationContext ctx;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            ctx = context;
        }
        if (ctx != null) {
            ctx.close();
        }
    }

    /** The signal's handler owns the end: this thread neither returns nor closes anything. */
    private static int parkUntilExit() {
        while (true) {
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException ignored) {
                // the handler's System.exit ends this thread
            }
        }
    }

    private int follow(RunStore runs, DefinitionCatalog catalog, RunKey key) {
        Set<String> printed = new HashSet<>();
        while (true) {
            if (interrupted) {
                return parkUntilExit();
            }
            Optional<RunView> view = runs.read(key);
            if (view.isEmpty()) {
                throw new IllegalStateException("the run " + key + " disappeared");
            }
            // the run's graph with its growths: a grown node's record is printed as any other
            Graph graph = RunGraphs.of(catalog, view.get());
            Map<String, NodeRecord> records = RunRecords.byNode(graph, view.get());
            for (Node n : graph.nodes()) {
                NodeRecord r = records.get(n.name());
                if (r != null && printed.add(r.runId())) {
                    print(n.name(), r);
                }
            }
            RunState state = view.get().run().state();
            if (state != RunState.ACTIVE) {
                out.println("run " + key + " " + state.wireName());
                out.flush();
                return state == RunState.COMPLETE ? SwaleCli.OK : SwaleCli.FAILED;
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                out.println("interrupted");
                return SwaleCli.INTERRUPTED;
            }
        }
    }

    private void print(String node, NodeRecord r) {
        out.println(node + ": " + r.status().wireName() + " " + r.runId());
        r.error().ifPresent(e -> e.lines().forEach(line -> out.println("    " + line)));
        out.flush();
    }

    /** Command-line arguments outrank application.yml, so these settings win over the service's. */
    private ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(SwaleApplication.class)
                .registerShutdownHook(false)
                .web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF)
                .logStartupInfo(false)
                .run("--swale.embedded=true",
                        "--swale.roles=scheduler,pool",
                        "--swale.examples=",
                        "--swale.auto-create-pools=true",
                        "--swale.default-slots=" + concurrency,
                        "--swale.scheduler.reconcile-interval=10s",
                        "--swale.ops.lag-interval=1h",
                        "--spring.quartz.scheduler-name=swale-local-run",
                        "--logging.level.root=WARN",
                        "--logging.level.io.swale=WARN",
                        "--logging.level.org.apache.kafka=ERROR",
                        "--logging.level.kafka=ERROR",
                        "--logging.level.state.change.logger=ERROR");
    }
}
