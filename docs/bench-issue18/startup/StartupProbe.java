package probe;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.boot.context.metrics.buffering.StartupTimeline;

/**
 * Starts Swale with Spring's buffering startup recorder and writes every step (ms since the JVM's start) to
 * -Dprobe.out. Not built with the service: compile it against target/classes and Spring's jars, jar it, and run
 * it with the unpacked jar of bin/swale aot first on the class path (the cache allows an appended entry):
 * java -XX:AOTCache=DIR/swale.aot -cp DIR/app/swale.jar:probe.jar probe.StartupProbe --server.port=…
 */
public class StartupProbe {
    public static void main(String[] args) throws Exception {
        long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
        var app = new SpringApplication(io.swale.SwaleApplication.class);
        var startup = new BufferingApplicationStartup(100000);
        app.setApplicationStartup(startup);
        var ctx = app.run(args);
        long mainCpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() / 1_000_000;
        long procCpu = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() / 1_000_000;
        System.err.println("probe: cpu main " + mainCpu + " ms process " + procCpu + " ms");
        StartupTimeline tl = startup.getBufferedTimeline();
        String out = System.getProperty("probe.out", "/tmp/startup/steps.tsv");
        try (PrintWriter w = new PrintWriter(out)) {
            w.println("id\tparent\tstart_ms\tend_ms\tdur_ms\tname\ttags");
            for (var e : tl.getEvents()) {
                var s = e.getStartupStep();
                StringBuilder tags = new StringBuilder();
                s.getTags().forEach(t -> tags.append(t.getKey()).append('=').append(t.getValue()).append(';'));
                w.printf("%d\t%s\t%d\t%d\t%d\t%s\t%s%n", s.getId(), s.getParentId(),
                        e.getStartTime().toEpochMilli() - jvmStart, e.getEndTime().toEpochMilli() - jvmStart,
                        e.getDuration().toMillis(), s.getName(), tags);
            }
        }
        System.err.println("probe: wrote " + out + " jvm start->now " + (System.currentTimeMillis() - jvmStart) + " ms");
        if (Boolean.getBoolean("probe.exit")) {
            System.exit(SpringApplication.exit(ctx));
        }
    }
}
