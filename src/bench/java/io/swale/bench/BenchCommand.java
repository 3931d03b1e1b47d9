package io.swale.bench;

import io.swale.SwaleApplication;
import io.swale.kafka.KafkaInspector;
import io.swale.kafka.ListenerContainers;
import io.swale.metrics.ConsumerLagMonitor;
import io.swale.run.Adoption;
import io.swale.run.DefinitionCatalog;
import io.swale.run.GraphRuns;
import io.swale.run.Reconciler;
import io.swale.settings.SwaleProperties;
import io.swale.store.RunStore;
import io.swale.store.TaskStore;
import io.swale.task.LeaseReaper;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;
import redis.clients.jedis.UnifiedJedis;

/**
 * {@code swale bench}: starts the whole application in this process (on an embedded Kafka broker and
 * redis-server unless addresses are given), measures the physical floor with the application's own client
 * settings, then runs noop graphs of several shapes and reports edge latency, throughput, CPU, heap and
 * the reconciler at scale.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Measures how fast Swale moves work against the Kafka and Redis floor of this machine.")
public final class BenchCommand implements Callable<Integer> {

    @Option(names = "--shapes", split = ",",
            description = "Shapes to run: chain, fanout, wide, runs, rate (default: all; --rates adds rate).")
    List<String> shapes = List.of("chain", "fanout", "wide", "runs", "rate");

    @Option(names = "--chain", description = "Nodes of the chain whose edges are measured (default: ${DEFAULT-VALUE}).")
    int chain = 10;

    @Option(names = "--chain-repeat", description = "Chain runs, one after another (default: ${DEFAULT-VALUE}).")
    int chainRepeat = 50;

    @Option(names = "--chain-sizes", split = ",",
            description = "Chain lengths of the makespan sweep (default: ${DEFAULT-VALUE}).")
    List<Integer> chainSizes = List.of(1, 2, 5, 10, 20, 50);

    @Option(names = "--sweep-repeat", description = "Runs per chain length of the sweep (default: ${DEFAULT-VALUE}).")
    int sweepRepeat = 5;

    @Option(names = "--fanout", description = "Middle nodes of 1 → N → 1 (default: ${DEFAULT-VALUE}).")
    int fanout = 100;

    @Option(names = "--fanout-repeat", description = "Fan-out runs, one after another (default: ${DEFAULT-VALUE}).")
    int fanoutRepeat = 5;

    @Option(names = "--wide", description = "Independent roots of the wide run (default: ${DEFAULT-VALUE}).")
    int wide = 2000;

    @Option(names = "--runs", description = "Concurrent runs of the ten-node diamond (default: ${DEFAULT-VALUE}).")
    int runs = 500;

    @Option(names = "--rates", split = ",", description = "Target task instances/s of the sustained-rate shape, "
            + "one after another; giving them runs the shape (default: 1000,2000,4000).")
    List<Integer> rates;

    @Option(names = "--rate-steps", description = "Record the task steps of the sustained-rate shape (JFR) and report"
            + " the legs of its slowest edges; costs the service a little and the bench memory.")
    boolean rateSteps;

    @Option(names = "--rate-seconds", description = "Seconds each target rate is held (default: ${DEFAULT-VALUE}).")
    double rateSeconds = 60;

    @Option(names = "--kafka-requests", description = "Where Kafka requests are counted: auto (the broker's request "
            + "metrics when it runs in this JVM, else the clients'), broker or clients (default: ${DEFAULT-VALUE}).")
    String kafkaRequests = "auto";

    @Option(names = "--no-warmup", description = "Measure without warming up first.")
    boolean noWarmup;

    @Option(names = "--warmup-rounds", description = "Warm-up rounds at most; they stop once the JIT is quiet "
            + "(default: ${DEFAULT-VALUE}).")
    int warmupRounds = 40;

    @Option(names = "--jit-quiet", description = "The JIT is quiet when it compiles for less than this percent of a "
            + "warm-up round's wall time (default: ${DEFAULT-VALUE}).")
    double jitQuietPercent = 10;

    @Option(names = "--samples", description = "Samples of each latency baseline (default: ${DEFAULT-VALUE}).")
    int samples = 2000;

    @Option(names = "--kafka-records", description = "Records of the Kafka throughput baseline (default: ${DEFAULT-VALUE}).")
    int kafkaRecords = 200_000;

    @Option(names = "--floor-instances", description = "Task instances of the design floor's throughput half, 0 to "
            + "skip the design floor (default: ${DEFAULT-VALUE}).")
    long floorInstances = 30_000;

    @Option(names = "--floor-in-flight", description = "Instances going round at once in the design floor's "
            + "throughput half (default: ${DEFAULT-VALUE}).")
    int floorInFlight = 500;

    @Option(names = "--scale-runs", description = "Active runs of the reconciler pass, 0 to skip (default: ${DEFAULT-VALUE}).")
    int scaleRuns = 10_000;

    @Option(names = "--kafka", description = "Kafka bootstrap servers (default: an embedded broker; give both "
            + "addresses or neither, as an address turns local mode off).")
    String kafka;

    @Option(names = "--redis", description = "Redis host:port (default: an embedded redis-server).")
    String redis;

    @Option(names = {"-p", "--property"}, description = "An application property, e.g. -p swale.default-slots=8.")
    Map<String, String> properties = new LinkedHashMap<>();

    @Option(names = "--timeout", description = "Seconds a shape may take before the bench gives up (default: ${DEFAULT-VALUE}).")
    int timeoutS = 300;

    @Option(names = "--json", description = "Write every figure to this JSON file.")
    Path json;

    @Option(names = "--chart", description = "Write the edge-latency distribution and throughput chart to this PNG.")
    Path chart;

    /** Runs the bench on a thread of its own, so that its CPU time is told apart from the application's. */
    public static int run(String... args) {
        int[] exit = {1};
        Thread t = new Thread(() -> exit[0] = new CommandLine(new BenchCommand()).execute(args), "bench-main");
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            t.interrupt();
        }
        return exit[0];
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    @Override
    public Integer call() throws Exception {
        System.setProperty("java.awt.headless", "true");
        if (warmupRounds < 1 || !(jitQuietPercent > 0)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--warmup-rounds " + warmupRounds
                    + " --jit-quiet " + jitQuietPercent + ": at least one round, and a positive percent");
        }
        if (floorInstances < 0 || floorInFlight <= 0) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--floor-instances " + floorInstances
                    + " --floor-in-flight " + floorInFlight + ": instances must be 0 or more, in flight 1 or more");
        }
        if (rates().stream().anyMatch(r -> r <= 0) || rateSeconds <= 0) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--rates " + rates() + " --rate-seconds "
                    + rateSeconds + ": each rate and the duration must be positive");
        }
        Report report = new Report();
        report.loadBefore = loadAverage();
        report.options = options();
        String id = Long.toString(System.currentTimeMillis(), 36);
        try (ConfigurableApplicationContext app = start()) {
            SwaleProperties props = app.getBean(SwaleProperties.class);
            // what the pool measured was bound with, -p included
            report.options.put("default_slots", props.defaultSlots());
            UnifiedJedis pool = app.getBean(UnifiedJedis.class);
            @SuppressWarnings("unchecked")
            KafkaTemplate<String, byte[]> template = app.getBean(KafkaTemplate.class);
            ListenerContainers containers = app.getBean(ListenerContainers.class);
            report.producerConfig = template.getProducerFactory().getConfigurationProperties();
            report.consumerConfig = containers.consumerConfig(Map.of());
            Map<String, Object> adminConfig = app.getBean(KafkaAdmin.class).getConfigurationProperties();
            LagSampler lag = new LagSampler(adminConfig, app.getBean(ConsumerLagMonitor.class).channels().stream()
                    .collect(Collectors.toMap(KafkaInspector.Channel::topic, KafkaInspector.Channel::group,
                            (a, b) -> a, LinkedHashMap::new)));
            KafkaRequests requests = new KafkaRequests(kafkaRequests, lag::requests);
            report.kafkaRequestsSource = requests.source();
            ShapeRunner runner = new ShapeRunner(app.getBean(DefinitionCatalog.class), app.getBean(Adoption.class),
                    app.getBean(GraphRuns.class), pool, props.redis().keyPrefix(), requests, settles);
            long timeoutMs = timeoutS * 1000L;
            try {
                // each round's graphs are its own: a partition of a settled run would not run again
                WarmUp warmUp = new WarmUp(round -> {
                    String suffix = id + "_" + round;
                    runner.run("warmup", Shapes.diamond("bench_warm_runs_" + suffix), Math.min(runs, 300), false,
                            timeoutMs);
                    runner.run("warmup", Shapes.wide("bench_warm_wide_" + suffix, Math.min(wide, 1000)), 1, false,
                            timeoutMs);
                    runner.run("warmup", Shapes.chain("bench_warm_chain_" + suffix, 10), 30, true, timeoutMs);
                }, CpuMeter::jitMs);
                if (!noWarmup) {
                    progress("warming up");
                    report.warmUp = warmUp.run(0, warmupRounds, jitQuietPercent / 100, BenchCommand::progress);
                }
                progress("baselines: Kafka hop, two-hop ping-pong, records/s; Redis round trip");
                Baselines baselines = new Baselines(report.producerConfig, report.consumerConfig,
                        adminConfig, pool, id);
                baselines.run(samples, kafkaRecords);
                report.baselines = baselines;
                if (floorInstances > 0) {
                    progress("design floor: the design's messages on bare clients, one instance at a time, then "
                            + floorInstances + " with " + floorInFlight + " in flight");
                    DesignFloor floor = new DesignFloor(report.producerConfig, report.consumerConfig, adminConfig, pool,
                            id, props.kafka().partitions());
                    floor.run(samples, floorInstances, floorInFlight, new CpuMeter(), runner::redisCpuMs, requests,
                            runner.redisPids());
                    report.floor = floor;
                }
                if (!noWarmup) {
                    // the baselines' bare clients share the Kafka client and broker code with the service and
                    // deoptimise it: warm again, or the shapes pay for the JIT's second pass
                    progress("warming up again after the baselines");
                    report.warmUpAgain = warmUp.run(report.warmUp.size(), warmupRounds, jitQuietPercent / 100,
                            BenchCommand::progress);
                }
                for (String shape : shapes()) {
                    if (shape.equals("rate")) {
                        SustainedRate sustained = new SustainedRate(runner, lag);
                        for (int i = 0; i < rates().size(); i++) {
                            int rate = rates().get(i);
                            progress("sustained rate " + rate + " task instances/s for " + rateSeconds + " s");
                            // a graph of its own for each, so a rate given twice measures its own runs twice
                            report.rates.add(sustained.run("bench_rate" + rate + "_" + i + "_" + id, rate, rateSeconds,
                                    rateSteps, timeoutMs));
                        }
                        continue;
                    }
                    progress("shape " + shape);
                    report.shapes.add(switch (shape) {
                        case "chain" -> runner.run("chain", Shapes.chain("bench_chain_" + id, chain), chainRepeat, true,
                                timeoutMs);
                        case "fanout" -> runner.run("fanout", Shapes.fanout("bench_fanout_" + id, fanout), fanoutRepeat,
                                true, timeoutMs);
                        case "wide" -> runner.run("wide", Shapes.wide("bench_wide_" + id, wide), 1, false, timeoutMs);
                        case "runs" -> runner.run("runs", Shapes.diamond("bench_runs_" + id), runs, false, timeoutMs);
                        default -> throw new CommandLine.ParameterException(new CommandLine(this),
                                "unknown shape `" + shape + "`: chain, fanout, wide, runs or rate");
                    });
                }
                if (shapes.contains("chain")) {
                    for (int n : chainSizes) {
                        progress("chain makespan, " + n + " nodes");
                        report.sweep.add(runner.run("chain" + n, Shapes.chain("bench_sweep" + n + "_" + id, n),
                                sweepRepeat, true, timeoutMs));
                    }
                }
                if (scaleRuns > 0) {
                    progress("reconciler over " + scaleRuns + " active runs");
                    ScaleBench scale = new ScaleBench();
                    scale.run(runner, app.getBean(RunStore.class), app.getBean(TaskStore.class),
                            app.getBean(Reconciler.class), app.getBean(LeaseReaper.class), pool,
                            props.redis().keyPrefix(), "bench_scale_" + id,
                            scaleRuns);
                    report.scale = scale;
                }
            } finally {
                runner.close();
                lag.close();
                // listeners and producers first: the embedded broker stops as the context closes
                app.stop();
                template.getProducerFactory().reset();
            }
        }
        report.loadAfter = loadAverage();
        System.out.println(report.table());
        if (json != null) {
            report.writeJson(json);
            progress("figures written to " + json);
        }
        if (chart != null) {
            Charts.write(report, chart);
            progress("chart written to " + chart);
        }
        return 0;
    }

    /** The shapes asked for, with rate added when --rates was given. */
    private List<String> shapes() {
        List<String> out = new ArrayList<>(shapes);
        if (rates != null && !out.contains("rate")) {
            out.add("rate");
        }
        return out;
    }

    private List<Integer> rates() {
        return rates == null ? List.of(1000, 2000, 4000) : rates;
    }

    private ConfigurableApplicationContext start() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("spring.main.banner-mode", "off");
        p.put("logging.level.root", "WARN");
        p.put("logging.level.io.swale", "WARN");
        p.put("logging.level.org.apache.kafka.clients.NetworkClient", "ERROR");
        p.put("server.port", "0");
        p.put("server.address", "127.0.0.1");
        // the bench drives Swale in-process and its server listens on loopback only: against given addresses
        // (no local profile) it would otherwise refuse to start without a bearer token
        p.put("swale.security.open", "true");
        p.put("swale.examples", "");
        // the bench times its own reconciler passes; a scheduled pass would land in the middle of a shape
        p.put("swale.scheduler.reconcile-interval", "1h");
        p.put("swale.default-slots", DEFAULT_SLOTS);
        if (kafka != null) {
            p.put("spring.kafka.bootstrap-servers", kafka);
            p.put("swale.auto-create-pools", "true");
        }
        if (redis != null) {
            int colon = redis.lastIndexOf(':');
            p.put("spring.data.redis.host", colon < 0 ? redis : redis.substring(0, colon));
            if (colon >= 0) {
                p.put("spring.data.redis.port", redis.substring(colon + 1));
            }
        }
        p.putAll(properties);
        List<String> args = new ArrayList<>();
        p.forEach((k, v) -> args.add("--" + k + "=" + v));
        progress("starting Swale in this process" + (kafka == null && redis == null ? " on embedded Kafka and Redis" : ""));
        return new SpringApplicationBuilder(SwaleApplication.class)
                .initializers(context -> context.getBeanFactory().addBeanPostProcessor(settles.recorder()))
                .run(args.toArray(String[]::new));
    }

    private Map<String, Object> options() {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("shapes", shapes());
        o.put("rates", rates());
        o.put("rate_seconds", rateSeconds);
        o.put("rate_steps", rateSteps);
        o.put("kafka_requests", kafkaRequests);
        o.put("chain", chain);
        o.put("chain_repeat", chainRepeat);
        o.put("chain_sizes", chainSizes);
        o.put("sweep_repeat", sweepRepeat);
        o.put("fanout", fanout);
        o.put("fanout_repeat", fanoutRepeat);
        o.put("wide", wide);
        o.put("runs", runs);
        o.put("warmup", !noWarmup);
        o.put("warmup_rounds", warmupRounds);
        o.put("jit_quiet_percent", jitQuietPercent);
        o.put("samples", samples);
        o.put("kafka_records", kafkaRecords);
        o.put("floor_instances", floorInstances);
        o.put("floor_in_flight", floorInFlight);
        o.put("scale_runs", scaleRuns);
        o.put("kafka", kafka == null ? "embedded" : kafka);
        o.put("redis", redis == null ? "embedded" : redis);
        o.put("properties", properties);
        return o;
    }

    static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static final long STARTED = System.nanoTime();
    /** The settles of the service this bench starts, stamped in µs. */
    private final SettleStamps settles = new SettleStamps();
    /*
     * A noop attempt holds its slot from its claim's round trip to its finish's, milliseconds on two loaded
     * cores: on sixteen slots `runs` and `wide` measured how fast the slots turn over more than the path
     * (docs/performance.md, "The bench's pool"). -p swale.default-slots=N measures a pool of N.
     */
    static final int DEFAULT_SLOTS = 64;

    static void progress(String what) {
        System.err.printf("bench: %6.1f s  %s%n", (System.nanoTime() - STARTED) / 1e9, what);
    }
}
