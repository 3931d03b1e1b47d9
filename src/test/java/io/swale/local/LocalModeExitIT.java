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
 * them, so they stop at once; once it has, they serve until the context's close has drained through them. The
 * children's servers would wait 11 minutes for a close that never comes; each child must exit within 90 s.
 */
class LocalModeExitIT {

    @Test
    void aJvmExitingBeforeTheContextRefreshedStopsTheServersAtOnce() throws Exception {
        try (ExitChild child = ExitChild.start(LocalModeExitMain.class, "before-refresh")) {
            child.awaitLine("ready");
            int port = redisPort(child);
            child.interruptGroup();
            child.awaitExit();
            awaitNothingServes(port);
            await().atMost(Duration.ofSeconds(30)).until(() -> anyServerProcess(port) == 0);
        }
    }

    @Test
    void onceTheContextOwnsThemTheServersServeItsDrain() throws Exception {
        try (ExitChild child = ExitChild.start(LocalModeExitMain.class, "context-owns")) {
            child.awaitLine("ready");
            int port = redisPort(child);
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

    private static int redisPort(ExitChild child) {
        return child.lines().stream().filter(line -> line.startsWith("redis ")).findFirst()
                .map(line -> Integer.parseInt(line.substring("redis ".length()))).orElseThrow();
    }
}
