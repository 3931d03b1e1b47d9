package io.swale.it;

import io.swale.SwaleApplication;
import io.swale.roles.PoolRole;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;

/** Pool-only replicas in this JVM, on the Kafka and Redis of a test's application context. */
final class Workers {
    private Workers() {}

    /** The arguments that point a worker at the same Kafka and Redis as {@code main}. */
    static List<String> sameInfrastructure(Environment main) {
        return List.of(
                "--spring.kafka.bootstrap-servers=" + main.getProperty("spring.kafka.bootstrap-servers"),
                "--spring.data.redis.host=" + main.getProperty("spring.data.redis.host", "127.0.0.1"),
                "--spring.data.redis.port=" + main.getProperty("spring.data.redis.port"),
                "--swale.roles=pool",
                "--swale.examples=");
    }

    static ConfigurableApplicationContext start(Environment main, String id, String... extra) {
        List<String> args = new ArrayList<>(sameInfrastructure(main));
        args.add("--swale.worker.id=" + id);
        args.add("--spring.quartz.scheduler-name=quartz-" + id);
        args.add("--spring.application.name=worker-" + id);
        args.addAll(List.of(extra));
        return new SpringApplicationBuilder(SwaleApplication.class).web(WebApplicationType.NONE)
                .run(args.toArray(String[]::new));
    }

    static int running(ConfigurableApplicationContext worker) {
        return worker.getBean(PoolRole.class).running().getOrDefault("default", 0);
    }
}
