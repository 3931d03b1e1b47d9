package io.swale.lifecycle;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/**
 * {@code swale.training-run=true}: start as usual, and once ready (every bean built, every listener and the
 * HTTP server started) ask the health endpoint once, then stop and exit. {@code bin/swale aot} runs the service
 * so under {@code -XX:AOTCacheOutput}: the JVM writes, at exit, the cache of every class the start (and that
 * first request) loaded and linked, which later starts map instead of loading the classes again.
 */
@Component
@ConditionalOnBooleanProperty("swale.training-run")
public class TrainingRun implements ApplicationListener<ApplicationReadyEvent> {
    private static final Logger log = LoggerFactory.getLogger(TrainingRun.class);
    private static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(30);

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        log.info("training run: started in {} ms", event.getTimeTaken().toMillis());
        if (event.getApplicationContext() instanceof WebServerApplicationContext web) {
            // what a start is judged by, and a user's first request: its classes belong in the cache too
            askHealth(web.getWebServer().getPort());
        }
        log.info("training run: stopping");
        System.exit(SpringApplication.exit(event.getApplicationContext()));
    }

    private static void askHealth(int port) {
        try (HttpClient http = HttpClient.newBuilder().connectTimeout(HEALTH_TIMEOUT).build()) {
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/actuator/health")).timeout(HEALTH_TIMEOUT).build(),
                    HttpResponse.BodyHandlers.ofString());
            log.info("training run: health answered {}", answer.statusCode());
        } catch (IOException e) {
            log.warn("training run: health did not answer: {}", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
