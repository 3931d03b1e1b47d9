package io.swale.local;

import static io.swale.local.ExitChild.answers;
import static io.swale.local.ExitChild.anyServerProcess;
import static io.swale.local.ExitChild.awaitNothingServes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Local mode's embedded servers at the JVM's exit: before the context has taken them over nothing would close
 * them, so they stop at once; once it has, they serve until the context's close has drained through them.
 */
class LocalModeExitIT {

    @Test
    void aJvmExitingBeforeTheContextRefreshedStopsTheServersAtOnce() throws Exception {
        try (ExitChild child = ExitChild.start(LocalModeExitMain.class, "before-refresh")) {
            child.awaitLine("ready");
            int port = child.reportedRedisPort();
            child.interruptGroup();
            // unclosed, the broker's exit hooks would wait 20 s for it before deleting its logs under it
            child.awaitExit(Duration.ofSeconds(15));
            awaitNothingServes(port);
            await().atMost(Duration.ofSeconds(30)).until(() -> anyServerProcess(port) == 0);
        }
    }

    @Test
    void onceTheContextOwnsThemTheServersServeItsDrain() throws Exception {
        try (ExitChild child = ExitChild.start(LocalModeExitMain.class, "context-owns")) {
            child.awaitLine("ready");
            int port = child.reportedRedisPort();
            child.interruptGroup();
            child.awaitLine("draining");
            await("redis-server serves while the context drains").during(Duration.ofMillis(500))
                    .atMost(Duration.ofSeconds(10)).until(() -> answers(port));
            child.endDrain();
            child.awaitExit();
            assertThat(child.lines()).as("the child's output").contains("at exit: PONG");
            awaitNothingServes(port);
            await().atMost(Duration.ofSeconds(30)).until(() -> anyServerProcess(port) == 0);
        }
    }
}
