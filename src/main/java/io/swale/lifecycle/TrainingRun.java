package io.swale.lifecycle;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/**
 * {@code swale.training-run=true}: start as usual, and once ready (every bean built, every listener and the
 * HTTP server started) stop and exit. {@code bin/swale aot} runs the service so under
 * {@code -XX:AOTCacheOutput}: the JVM writes, at exit, the cache of every class a start loaded and linked, which
 * later starts map instead of loading the classes again.
 */
@Component
@ConditionalOnBooleanProperty("swale.training-run")
public class TrainingRun implements ApplicationListener<ApplicationReadyEvent> {
    private static final Logger log = LoggerFactory.getLogger(TrainingRun.class);

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        log.info("training run: started in {} ms; stopping", event.getTimeTaken().toMillis());
        int code = SpringApplication.exit(event.getApplicationContext());
        System.exit(code);
    }
}
