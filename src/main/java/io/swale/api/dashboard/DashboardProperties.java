package io.swale.api.dashboard;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** Everything under {@code swale.dashboard.*}. */
@ConfigurationProperties("swale.dashboard")
public class DashboardProperties {
    /** How often the live view reads the active runs while a browser listens. */
    private Duration pollInterval = Duration.ofMillis(500);
    /** How often an idle event stream gets a comment, so dead connections are found. */
    private Duration heartbeat = Duration.ofSeconds(15);
    /** How long one event stream stays open before the browser reconnects (and gets a fresh snapshot). */
    private Duration streamTimeout = Duration.ofMinutes(30);
    /** Event streams served at once by this replica; more are answered 503. */
    private int maxStreams = 200;
    /** Latest runs shown per graph on the graphs page. */
    private int recentRuns = 24;

    public Duration getPollInterval() {
        return pollInterval;
    }

    public void setPollInterval(Duration pollInterval) {
        this.pollInterval = pollInterval;
    }

    public Duration getHeartbeat() {
        return heartbeat;
    }

    public void setHeartbeat(Duration heartbeat) {
        this.heartbeat = heartbeat;
    }

    public Duration getStreamTimeout() {
        return streamTimeout;
    }

    public void setStreamTimeout(Duration streamTimeout) {
        this.streamTimeout = streamTimeout;
    }

    public int getMaxStreams() {
        return maxStreams;
    }

    public void setMaxStreams(int maxStreams) {
        this.maxStreams = maxStreams;
    }

    public int getRecentRuns() {
        return recentRuns;
    }

    public void setRecentRuns(int recentRuns) {
        this.recentRuns = recentRuns;
    }
}
