package io.swale.bench;

import io.swale.task.SwaleMetrics;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * When each graph's last run settled, in epoch µs, as the scheduler in this process tells its metrics once the
 * settle committed. A run record keeps its request and settle times in ms, which puts up to a millisecond into a
 * chain's makespan (an edge is about one): a chain run one at a time is timed from the bench's own request to this
 * stamp instead. Only a settle in this process is seen; a run settled elsewhere keeps its record's ms.
 */
final class SettleStamps {
    private final Map<String, Long> lastSettledUs = new ConcurrentHashMap<>();

    /** Wraps the service's metrics so that each settle is stamped; added to the context before its refresh. */
    BeanPostProcessor recorder() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                return bean instanceof SwaleMetrics metrics ? stamping(metrics) : bean;
            }
        };
    }

    private SwaleMetrics stamping(SwaleMetrics metrics) {
        return (SwaleMetrics) Proxy.newProxyInstance(SwaleMetrics.class.getClassLoader(),
                new Class<?>[] {SwaleMetrics.class}, (proxy, method, args) -> {
                    if (method.getName().equals("runSettled") && args != null && args[0] instanceof String graph) {
                        lastSettledUs.put(graph, nowUs());
                    }
                    try {
                        return method.invoke(metrics, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** When the graph's last run settled, if that was at or after {@code fromUs}. */
    Optional<Long> settledSince(String graph, long fromUs) {
        return Optional.ofNullable(lastSettledUs.get(graph)).filter(us -> us >= fromUs);
    }

    /** Now in epoch µs, the unit of the instances' stamps. */
    static long nowUs() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}
