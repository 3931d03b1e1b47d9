// What a Micrometer builder's register costs when the meter exists, against a meter kept (bytes, ns). Run in
// source-file mode with micrometer-core, -commons, -observation, HdrHistogram and LatencyUtils: java -cp "$CP" MeterCost.java
import io.micrometer.core.instrument.*;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
public class M { public static void main(String[] a) {
  var mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
  MeterRegistry registry = new SimpleMeterRegistry();
  Timer cached = Timer.builder("c").tag("pool","default").tag("result","succeeded").publishPercentileHistogram().maximumExpectedValue(Duration.ofHours(6)).register(registry);
  for (int round=0; round<4; round++) {
    int n=200_000;
    long b0 = mx.getThreadAllocatedBytes(Thread.currentThread().threadId()); long t0=System.nanoTime();
    for (int i=0;i<n;i++) {
      Timer.builder("swale.tasks.duration").description("Duration of one attempt, claim to settle")
                .tag("pool", "default").tag("result", "succeeded").publishPercentileHistogram()
                .maximumExpectedValue(Duration.ofHours(6))
                .register(registry).record(1000+i, TimeUnit.NANOSECONDS);
      Counter.builder("swale.tasks.terminated").description("x").tag("pool","default").tag("outcome","succeeded").register(registry).increment();
    }
    long b1 = mx.getThreadAllocatedBytes(Thread.currentThread().threadId()); long t1=System.nanoTime();
    for (int i=0;i<n;i++) cached.record(1000+i, TimeUnit.NANOSECONDS);
    long b2 = mx.getThreadAllocatedBytes(Thread.currentThread().threadId()); long t2=System.nanoTime();
    System.out.printf("builder+register (timer+counter): %d B %d ns; cached timer: %d B %d ns%n", (b1-b0)/n, (t1-t0)/n, (b2-b1)/n, (t2-t1)/n);
  }
}}
