package io.swale.local;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops the embedded servers when the JVM exits before an application context has taken them over. The broker's exit
 * hooks wait for its close (20 s at most) before they delete its logs, so that the service drains through it; but a
 * context that has not begun to build its beans never closes it, and a Ctrl-C in the first seconds of a start kept
 * the JVM for that wait, then deleted the logs under the running broker. The guard is installed before the servers
 * start, so that no moment of their start is left without it.
 */
final class StartExitGuard {
    private static final Logger log = LoggerFactory.getLogger(StartExitGuard.class);
    /** How long the exit waits for a start under way on the initializer's thread to hand its servers over. */
    private static final long EXIT_AWAITS_SERVERS_SECONDS = 60;

    private enum Owner { INITIALIZER, CONTEXT, CLOSED }

    private final AtomicReference<Owner> owner = new AtomicReference<>(Owner.INITIALIZER);
    private final CompletableFuture<Optional<EmbeddedServers>> servers = new CompletableFuture<>();
    private final Thread hook = new Thread(this::atExit, "swale-embedded-start-exit");

    private StartExitGuard() {
    }

    /** Installs the guard before anything starts; throws if the JVM is exiting already. */
    static StartExitGuard install() {
        StartExitGuard guard = new StartExitGuard();
        try {
            Runtime.getRuntime().addShutdownHook(guard.hook);
        } catch (IllegalStateException exiting) {
            throw new IllegalStateException("the JVM is shutting down: local mode's servers were not started", exiting);
        }
        return guard;
    }

    /** The servers, starting: the guard stops them at exit until {@link #handOver()}. Returns them. */
    EmbeddedServers guarding(EmbeddedServers starting) {
        servers.complete(Optional.of(starting));
        return starting;
    }

    /** The start failed, and stopped what it had started: the guard is done. */
    void nothingStarted() {
        servers.complete(Optional.empty());
        release();
    }

    /**
     * The context is about to build its beans. Its refresh has begun, so a refresh that fails closes the servers
     * ({@link #closeServers()} is one of its disposable beans), and so does the context's close, which Spring Boot's
     * shutdown hook makes at exit (a context without that hook leaves the broker to its hooks' wait, and redis-server
     * to its lifeline). Throws if the JVM's exit came first, which ends the refresh: the servers are stopped before
     * any bean that uses them is built. Calling it again changes nothing.
     */
    void handOver() {
        if (owner.get() == Owner.CONTEXT) {
            return;
        }
        if (!owner.compareAndSet(Owner.INITIALIZER, Owner.CONTEXT)) {
            throw new IllegalStateException("the JVM is shutting down: the embedded servers were stopped");
        }
        release();
    }

    /**
     * Stops the servers, whoever owns them (the start failed, or the context closes), and the guard is done. Closing
     * again changes nothing: the servers' close is idempotent.
     */
    void closeServers() {
        if (owner.getAndSet(Owner.CLOSED) == Owner.INITIALIZER) {
            release();
        }
        servers.getNow(Optional.empty()).ifPresent(EmbeddedServers::close);
    }

    private void release() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException exiting) {
            // the hook runs, and finds the servers owned by the context, stopped, or never started
        }
    }

    /** What the shutdown hook does; package-private for the tests, which cannot exit their JVM. */
    void atExit() {
        if (!owner.compareAndSet(Owner.INITIALIZER, Owner.CLOSED)) {
            return;
        }
        try {
            servers.get(EXIT_AWAITS_SERVERS_SECONDS, TimeUnit.SECONDS).ifPresent(EmbeddedServers::close);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.warn("local mode's start did not hand its servers over within {} s of the JVM's exit; the broker's own"
                    + " exit wait applies", EXIT_AWAITS_SERVERS_SECONDS);
        } catch (RuntimeException e) {
            log.warn("the embedded servers did not stop cleanly at exit: {}", e.toString());
        }
    }
}
