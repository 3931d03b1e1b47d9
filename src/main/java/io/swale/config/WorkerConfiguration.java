package io.swale.config;

import io.swale.kafka.KafkaDispatcher;
import io.swale.kafka.ListenerFailure;
import io.swale.operator.OperatorRegistry;
import io.swale.settings.SwaleProperties;
import io.swale.store.TaskStore;
import io.swale.task.DelayedMover;
import io.swale.task.RepairFailures;
import io.swale.task.SwaleMetrics;
import io.swale.task.Terminations;
import io.swale.worker.AttemptRunner;
import io.swale.worker.Backoff;
import io.swale.worker.LeaseKeeper;
import io.swale.worker.Settlement;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;

/** The pieces that run attempts and move delayed instances. */
@Configuration(proxyBeanMethods = false)
public class WorkerConfiguration {

    @Bean(destroyMethod = "shutdownNow")
    ScheduledExecutorService attemptTicker() {
        ScheduledThreadPoolExecutor ticker = new ScheduledThreadPoolExecutor(2, r -> {
            Thread t = new Thread(r, "swale-heartbeat");
            t.setDaemon(true);
            return t;
        });
        // every attempt cancels its ticker when it ends: drop it from the queue then, not a poll interval later
        ticker.setRemoveOnCancelPolicy(true);
        return ticker;
    }

    @Bean
    AttemptRunner attemptRunner(OperatorRegistry operators, TaskStore tasks, Terminations terminations,
            ScheduledExecutorService attemptTicker, SwaleProperties props, SwaleMetrics metrics,
            TaskVariables taskVariables) {
        var w = props.worker();
        return new AttemptRunner(operators,
                new LeaseKeeper(tasks, attemptTicker, new LeaseKeeper.Timing(w.lease(), w.heartbeat(), w.cancelPoll()),
                        metrics),
                new Settlement(tasks, terminations, new Backoff(w.retryInitial(), w.retryMax(), w.retryJitter()), metrics,
                        ListenerFailure::isOutage),
                taskVariables.variables(), metrics);
    }

    /**
     * The environment every task sees, read once: the attempt runner and the lease gate both render
     * {@code env.NAME} from it, and collecting the service's secrets walks every property source.
     */
    @Bean
    TaskVariables taskVariables(ConfigurableEnvironment environment) {
        return new TaskVariables(io.swale.worker.TaskEnvironment.of(System.getenv(), ServiceSecrets.of(environment)));
    }

    /** The task environment as a bean (a bare map would be taken for a map of beans). */
    record TaskVariables(java.util.Map<String, String> variables) {}

    @Bean
    DelayedMover delayedMover(TaskStore tasks, KafkaDispatcher dispatcher, RepairFailures failures) {
        return new DelayedMover(tasks, dispatcher, failures);
    }
}
