package io.swale.local;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The redis-server of local mode, a child process on a port of 127.0.0.1 chosen up front, started on a thread of
 * its own: the address is known at once, and the caller goes on while the binary is extracted from the jar (most
 * of the cost, when it is not reused: {@link RedisBinary}) and the server prints its ready line. Clients wait for
 * {@link #awaitStarted()} first.
 */
final class EmbeddedRedis implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EmbeddedRedis.class);
    /** How long close waits for a start still under way; a start that ends later stops its server itself. */
    private static final long CLOSE_AWAITS_START_SECONDS = 60;

    private static final Duration READY_WITHIN = Duration.ofSeconds(30);

    private final int port;
    /** Holds the port until the server is about to bind it. */
    private final Closeable reservation;
    private final CompletableFuture<RedisServerProcess> started = new CompletableFuture<>();
    private boolean closed; // guarded by this

    private EmbeddedRedis(int port, Closeable reservation) {
        this.port = port;
        this.reservation = reservation;
    }

    /**
     * Starts redis-server on a daemon thread, on a free port of 127.0.0.1; {@link #awaitStarted()} waits for it. The
     * port stays bound until the server is about to bind it: released at once, it stayed free for the whole lookup
     * and start of the binary, while the broker's sockets and any other bind of an ephemeral port could take it. At
     * the JVM's exit the server outlives the service's own shutdown, which still writes to it: it stops when closed,
     * or when the JVM is gone ({@link RedisServerProcess}).
     */
    static EmbeddedRedis starting() {
        ServerSocket reservation;
        try {
            reservation = new ServerSocket(0, 1, InetAddress.getByName(LoopbackKraftBroker.LOOPBACK));
        } catch (IOException e) {
            throw new UncheckedIOException("no free port of 127.0.0.1 for the embedded redis-server", e);
        }
        return starting(reservation.getLocalPort(), reservation);
    }

    /** As {@link #starting()}, on a port the caller keeps free itself. */
    static EmbeddedRedis starting(int port) {
        return starting(port, () -> { });
    }

    private static EmbeddedRedis starting(int port, Closeable reservation) {
        EmbeddedRedis redis = new EmbeddedRedis(port, reservation);
        Thread starter = new Thread(redis::startServer, "swale-embedded-redis-start");
        starter.setDaemon(true);
        starter.start();
        return redis;
    }

    private void startServer() {
        long t0 = System.nanoTime();
        try {
            Path binary;
            try {
                // the binary is extracted unless an identical one is there already (RedisBinary)
                binary = RedisBinary.provider().get().toPath();
            } finally {
                releaseReservation();
            }
            long extracted = System.nanoTime();
            RedisServerProcess server = RedisServerProcess.start(binary, LoopbackKraftBroker.LOOPBACK, port,
                    READY_WITHIN);
            synchronized (this) {
                if (!closed) {
                    started.complete(server);
                    log.info("embedded Redis at {} started in {} ms (binary found or extracted in {} ms)", address(),
                            (System.nanoTime() - t0) / 1_000_000, (extracted - t0) / 1_000_000);
                    return;
                }
            }
            // closed while it started: close stops only a server handed over before it, so this one is ours to stop
            stopQuietly(server);
            started.completeExceptionally(new IllegalStateException("closed while starting"));
        } catch (Throwable e) {
            started.completeExceptionally(e);
        }
    }

    private void releaseReservation() {
        try {
            reservation.close();
        } catch (IOException e) {
            log.debug("the reservation of port {} did not close cleanly: {}", port, e.toString());
        }
    }

    String address() {
        return LoopbackKraftBroker.LOOPBACK + ":" + port;
    }

    int port() {
        return port;
    }

    /** Blocks until redis-server serves; throws, naming it and the reason, if it could not start. */
    void awaitStarted() {
        try {
            started.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the embedded redis-server at " + address()
                    + " was starting", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot start the embedded redis-server at " + address() + ": "
                    + reasons(e.getCause()), e.getCause());
        }
    }

    /** Stops the server, waiting first for a start still under way. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        try {
            stopQuietly(started.get(CLOSE_AWAITS_START_SECONDS, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the start, when it ends, sees closed and stops the server
        } catch (ExecutionException | TimeoutException e) {
            // nothing started, or the start stops it itself when it ends
        }
    }

    private static void stopQuietly(RedisServerProcess server) {
        try {
            server.stop();
        } catch (RuntimeException e) {
            log.warn("embedded redis-server did not stop cleanly: {}", e.toString());
        }
    }

    /** A failed start's reason may sit in a cause (the binary's extraction): show every message. */
    private static String reasons(Throwable e) {
        StringBuilder out = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (!out.isEmpty()) {
                out.append(": ");
            }
            out.append(t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage().strip());
        }
        return out.toString();
    }
}
