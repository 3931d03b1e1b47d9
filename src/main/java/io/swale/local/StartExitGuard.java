package io.swale.local;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Stops the embedded servers when the JVM exits before an application context has taken them over. Their own exit
 * hooks wait for their owner's close, so that the service drains through them; but a context that has not begun to
 * build its beans never closes them, and a Ctrl-C in the first seconds of a start kept the JVM waiting out those
 * waits (90 s by default). The guard is installed before the servers start, so that no moment of their start is
 * left without it.
 */
final class StartExitGuard {
    /** How long the exit waits for a start under way on the initializer's thread to hand its servers over. */
    private static final long EXIT_AWAITS_SERVERS_SECONDS = 60;

    private enum Owner { INITIALIZER, CONTEXT, EXIT }

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
     * The context is about to build its beans (its refresh has begun, so a refresh that fails closes the servers
     * too, and Spring's shutdown hook closes the context at exit): from now on it owns them. Throws if the JVM's
     * exit came first, so that the refresh ends: the servers are stopped, and nothing has run on them yet.
     */
    void handOver() {
        if (!owner.compareAndSet(Owner.INITIALIZER, Owner.CONTEXT)) {
            throw new IllegalStateException("the JVM is shutting down: the embedded servers were stopped");
        }
        release();
    }

    /** The start failed after the servers were handed to the guard: stops them now, and the guard is done. */
    void stop() {
        if (owner.compareAndSet(Owner.INITIALIZER, Owner.EXIT)) {
            release();
            servers.getNow(Optional.empty()).ifPresent(EmbeddedServers::close);
        }
    }

    private void release() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException exiting) {
            // the hook runs, and finds the servers owned by the context, stopped, or never started
        }
    }

    private void atExit() {
        if (!owner.compareAndSet(Owner.INITIALIZER, Owner.EXIT)) {
            return;
        }
        try {
            servers.get(EXIT_AWAITS_SERVERS_SECONDS, TimeUnit.SECONDS).ifPresent(EmbeddedServers::close);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // the initializer's thread never handed them over; the servers' own exit waits apply
        }
    }
}
