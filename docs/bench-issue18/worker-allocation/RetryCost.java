// What building the settle's retry costs per call (bytes allocated, ns). Run in source-file mode with
// resilience4j-retry, resilience4j-core 2.4.0 and slf4j-api on the class path: java -cp "$CP" RetryCost.java
import io.github.resilience4j.retry.*;
import java.util.concurrent.atomic.AtomicInteger;
public class R { public static void main(String[] a) throws Exception {
  var mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
  long sink=0;
  for (int round=0; round<3; round++) {
    long b0 = mx.getThreadAllocatedBytes(Thread.currentThread().threadId()); long t0=System.nanoTime();
    int n=200_000;
    for (int i=0;i<n;i++) {
      AtomicInteger other = new AtomicInteger();
      RetryConfig config = RetryConfig.custom().maxAttempts(Integer.MAX_VALUE)
        .retryOnException(e -> other.incrementAndGet() < 3)
        .intervalBiFunction((at, either) -> 100L).build();
      Retry r = Retry.of("settle", config);
      r.getEventPublisher().onRetry(e -> {});
      sink += r.executeSupplier(() -> 1);
    }
    long b1 = mx.getThreadAllocatedBytes(Thread.currentThread().threadId()); long t1=System.nanoTime();
    System.out.printf("bytes/call %d  ns/call %d%n", (b1-b0)/n, (t1-t0)/n);
  }
  System.out.println(sink);
}}
