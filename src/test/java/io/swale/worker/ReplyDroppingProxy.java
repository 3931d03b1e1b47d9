package io.swale.worker;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy in front of Redis that can lose answers: while armed, the next reply Redis sends is thrown away and
 * that connection cut, after Redis ran the command. What a network failure after a commit looks like to a client.
 */
final class ReplyDroppingProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final int target;
    private final AtomicInteger drops = new AtomicInteger();
    private final AtomicInteger dropped = new AtomicInteger();

    ReplyDroppingProxy(int target) throws IOException {
        this.target = target;
        this.listener = new ServerSocket(0);
        Thread accept = new Thread(this::accept, "proxy-accept");
        accept.setDaemon(true);
        accept.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** The next reply from Redis, on whichever connection, is lost. */
    void dropNextReply() {
        drops.incrementAndGet();
    }

    int dropped() {
        return dropped.get();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket("127.0.0.1", target);
                pump(client, server, false);
                pump(server, client, true);
            } catch (IOException e) {
                return;
            }
        }
    }

    private void pump(Socket from, Socket to, boolean replies) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    if (replies && drops.getAndUpdate(d -> Math.max(0, d - 1)) > 0) {
                        dropped.incrementAndGet();
                        from.close();
                        to.close();
                        return;
                    }
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // either side closed
            } finally {
                try {
                    from.close();
                    to.close();
                } catch (IOException ignored) {
                    // closing
                }
            }
        }, "proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }
}
