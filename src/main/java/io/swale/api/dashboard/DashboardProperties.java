package io.swale.api.dashboard;

import static io.swale.settings.PropertyChecks.atLeast;
import static io.swale.settings.PropertyChecks.positive;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Everything under {@code swale.dashboard.*}.
 *
 * @param pollInterval How often the live view reads the active runs while a browser listens.
 * @param heartbeat How often an idle event stream gets a comment, so dead connections are found.
 * @param streamTimeout How long one event stream stays open before the browser reconnects (and gets a fresh
 *     snapshot).
 * @param maxStreams Event streams served at once by this replica; more are answered 503.
 * @param recentRuns Latest runs shown per graph on the graphs page.
 */
@ConfigurationProperties("swale.dashboard")
public record DashboardProperties(
        @DefaultValue("500ms") Duration pollInterval,
        @DefaultValue("15s") Duration heartbeat,
        @DefaultValue("30m") Duration streamTimeout,
        @DefaultValue("200") int maxStreams,
        @DefaultValue("24") int recentRuns) {

    public DashboardProperties {
        positive("swale.dashboard.poll-interval", pollInterval);
        positive("swale.dashboard.heartbeat", heartbeat);
        positive("swale.dashboard.stream-timeout", streamTimeout);
        // zero turns the live view off: every stream is answered 503
        atLeast("swale.dashboard.max-streams", maxStreams, 0);
        atLeast("swale.dashboard.recent-runs", recentRuns, 1);
    }
}
