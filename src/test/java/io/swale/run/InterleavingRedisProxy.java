package io.swale.run;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

/**
 * A TCP proxy in front of a redis-server that runs another client's step between two commands of one pipeline:
 * before it passes on the first command that {@code at} matches, it waits for the server's replies to everything
 * it passed on before (so those commands have run), runs {@code step} once, then goes on. Redis may run another
 * client's command between any two commands of a pipeline; this makes that happen at one chosen point.
 */
final class InterleavingRedisProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final int redisPort;
    private final Predicate<List<String>> at;
    private final Runnable step;
    private final AtomicBoolean stepped = new AtomicBoolean();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    InterleavingRedisProxy(int redisPort, Predicate<List<String>> at, Runnable step) throws IOException {
        this.redisPort = redisPort;
        this.at = at;
        this.step = step;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().name("proxy-accept").start(this::accept);
    }

    int port() {
        return listener.getLocalPort();
    }

    /** Whether the step ran. */
    boolean stepped() {
        return stepped.get();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), redisPort);
                sockets.add(client);
                sockets.add(server);
                Connection c = new Connection(client, server);
                Thread.ofPlatform().daemon().name("proxy-up").start(c::up);
                Thread.ofPlatform().daemon().name("proxy-down").start(c::down);
            } catch (IOException e) {
                return;
            }
        }
    }

    /** One client's connection: commands up, counted; replies down, counted. */
    private final class Connection {
        private final Socket client;
        private final Socket server;
        private long sent;
        private long replied;

        Connection(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void up() {
            try (InputStream in = client.getInputStream(); OutputStream out = server.getOutputStream()) {
                while (true) {
                    ByteArrayOutputStream frame = new ByteArrayOutputStream();
                    List<String> command = readCommand(in, frame);
                    if (command.isEmpty()) {
                        return;
                    }
                    if (!stepped.get() && at.test(command) && stepped.compareAndSet(false, true)) {
                        out.flush();
                        awaitReplies();
                        step.run();
                    }
                    synchronized (this) {
                        sent++;
                    }
                    frame.writeTo(out);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // the connection closed
            }
        }

        void down() {
            try (InputStream in = server.getInputStream(); OutputStream out = client.getOutputStream()) {
                while (true) {
                    ByteArrayOutputStream reply = new ByteArrayOutputStream();
                    if (!skipReply(in, reply)) {
                        return;
                    }
                    reply.writeTo(out);
                    out.flush();
                    synchronized (this) {
                        replied++;
                        notifyAll();
                    }
                }
            } catch (IOException e) {
                // the connection closed
            }
        }

        private synchronized void awaitReplies() throws InterruptedException {
            while (replied < sent) {
                wait();
            }
        }
    }

    /** A command as Redis clients send it, an array of bulk strings; empty at the end of the stream. */
    private static List<String> readCommand(InputStream in, ByteArrayOutputStream frame) throws IOException {
        String head = readLine(in, frame);
        if (head == null) {
            return List.of();
        }
        if (head.charAt(0) != '*') {
            throw new IOException("not a command array: " + head);
        }
        int n = Integer.parseInt(head.substring(1));
        List<String> args = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String len = readLine(in, frame);
            byte[] arg = in.readNBytes(Integer.parseInt(len.substring(1)) + 2);
            frame.write(arg);
            args.add(new String(arg, 0, arg.length - 2, StandardCharsets.UTF_8));
        }
        return args;
    }

    /** Copies one reply (RESP2 or RESP3) into {@code copy}; false at the end of the stream. */
    private static boolean skipReply(InputStream in, ByteArrayOutputStream copy) throws IOException {
        String line = readLine(in, copy);
        if (line == null) {
            return false;
        }
        String rest = line.substring(1);
        switch (line.charAt(0)) {
            case '$', '=', '!' -> {
                int len = Integer.parseInt(rest);
                if (len >= 0) {
                    copy.write(in.readNBytes(len + 2));
                }
            }
            case '*', '~', '>' -> repeat(in, copy, Integer.parseInt(rest));
            case '%' -> repeat(in, copy, 2 * Integer.parseInt(rest));
            case '|' -> {
                repeat(in, copy, 2 * Integer.parseInt(rest));
                skipReply(in, copy);
            }
            default -> { } // + - : _ , # ( carry their value on the line
        }
        return true;
    }

    private static void repeat(InputStream in, ByteArrayOutputStream copy, int n) throws IOException {
        for (int i = 0; i < n; i++) {
            if (!skipReply(in, copy)) {
                throw new IOException("the stream ended inside a reply");
            }
        }
    }

    /** A line up to CRLF, copied with its CRLF; null at the end of the stream. */
    private static String readLine(InputStream in, ByteArrayOutputStream copy) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1) {
            copy.write(b);
            if (b == '\n' && line.size() > 0 && line.toByteArray()[line.size() - 1] == '\r') {
                return new String(line.toByteArray(), 0, line.size() - 1, StandardCharsets.UTF_8);
            }
            line.write(b);
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
