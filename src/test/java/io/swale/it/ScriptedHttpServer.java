package io.swale.it;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/** A loopback HTTP server answering each path with a scripted sequence of statuses (the last one repeats). */
final class ScriptedHttpServer implements AutoCloseable {
    record Answer(int status, String body) {}

    private final HttpServer server;
    private final Map<String, Queue<Answer>> scripts = new ConcurrentHashMap<>();
    private final Map<String, Answer> last = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();

    ScriptedHttpServer() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            hits.computeIfAbsent(path, k -> new AtomicInteger()).incrementAndGet();
            Queue<Answer> q = scripts.get(path);
            Answer a = q == null ? new Answer(404, "no such path") : q.poll();
            if (a == null) {
                a = last.getOrDefault(path, new Answer(404, "no such path"));
            }
            byte[] body = a.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(a.status(), body.length == 0 ? -1 : body.length);
            if (body.length > 0) {
                exchange.getResponseBody().write(body);
            }
            exchange.close();
        });
        server.start();
    }

    void script(String path, Answer... answers) {
        scripts.put(path, new ConcurrentLinkedQueue<>(java.util.List.of(answers)));
        last.put(path, answers[answers.length - 1]);
    }

    int hits(String path) {
        return hits.getOrDefault(path, new AtomicInteger()).get();
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
