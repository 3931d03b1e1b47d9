package io.swale.lifecycle;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * {@code swale.training-run=true}: start as usual, and once ready (every bean built, every listener and the
 * HTTP server started) ask the service's own {@code /actuator/health} once, then stop and exit. {@code bin/swale
 * aot} runs the service so under {@code -XX:AOTCacheOutput}: the JVM writes, at exit, the cache of every class the
 * run loaded and linked, which later starts map instead of loading the classes again. The health request is in
 * the run because the first answer a start gives is one: without it, the classes that serve a request (Tomcat's,
 * the security filters', the health endpoint's, Jackson's) load from the jars at that first request.
 */
@Component
public class TrainingRun implements ApplicationListener<ApplicationReadyEvent> {
    private static final Logger log = LoggerFactory.getLogger(TrainingRun.class);
    private static final int REQUEST_TIMEOUT_MILLIS = 30_000;

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        // read here rather than as a condition: local mode's beans are fixed by the build's AOT step
        if (!event.getApplicationContext().getEnvironment().getProperty("swale.training-run", Boolean.class, false)) {
            return;
        }
        log.info("training run: started in {} ms; asking /actuator/health once, then stopping",
                event.getTimeTaken().toMillis());
        askHealth(event.getApplicationContext().getEnvironment());
        int code = SpringApplication.exit(event.getApplicationContext());
        System.exit(code);
    }

    /**
     * One GET of the health endpoint; its answer does not matter (readiness is not announced yet), only that it is
     * served.
     */
    private static void askHealth(Environment env) {
        Integer port = env.getProperty("local.management.port", Integer.class,
                env.getProperty("local.server.port", Integer.class, -1));
        if (port <= 0 || env.getProperty("server.ssl.enabled", Boolean.class, false)) {
            log.info("training run: no plain HTTP port; not asking /actuator/health");
            return;
        }
        String address = env.getProperty("server.address", "127.0.0.1");
        if (address.isBlank() || address.equals("0.0.0.0") || address.equals("::")) {
            address = "127.0.0.1";
        }
        String host = address.contains(":") ? "[" + address + "]" : address;
        try {
            HttpURLConnection http = (HttpURLConnection) URI.create("http://" + host + ":" + port + "/actuator/health")
                    .toURL().openConnection();
            http.setConnectTimeout(REQUEST_TIMEOUT_MILLIS);
            http.setReadTimeout(REQUEST_TIMEOUT_MILLIS);
            log.info("training run: /actuator/health answered {}", http.getResponseCode());
            http.disconnect();
        } catch (IOException | RuntimeException e) {
            // the cache is still worth writing: it only lacks the classes of a request
            log.warn("training run: /actuator/health not asked: {}", e.toString());
        }
    }
}
