package io.swale.it;

import io.swale.record.RecordCodec;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.JsonNode;

/** A thin client of the REST API for integration tests. */
final class SwaleClient {
    record Response(int status, JsonNode body, String contentType, java.net.http.HttpHeaders headers) {
        Response(int status, JsonNode body, String contentType) {
            this(status, body, contentType, null);
        }

        String header(String name) {
            return headers == null ? null : headers.firstValue(name).orElse(null);
        }
    }

    private final HttpClient http = HttpClient.newHttpClient();
    private final String base;

    SwaleClient(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    Response get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    Response post(String path, String contentType, String body) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)));
    }

    Response put(String path, String json) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8)));
    }

    Response postJson(String path, String json) {
        return post(path, "application/json", json);
    }

    /** A POST with extra headers given as name, value, name, value… */
    Response postWith(String path, String json, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return send(b);
    }

    /** A GET with extra headers given as name, value, … */
    Response getWith(String path, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).GET();
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return send(b);
    }

    /** The body as text (for non-JSON answers such as Prometheus). */
    String text(String path) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(base + path)).GET().build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    String base() {
        return base;
    }

    Response publish(String toml) {
        return post("/api/v1/definitions", "application/toml", toml);
    }

    Response start(String graph, String partition) {
        return postJson("/api/v1/graphs/" + graph + "/runs", "{\"partitions\":[\"" + partition + "\"]}");
    }

    Response cancel(String graph, String partition) {
        return postJson("/api/v1/graphs/" + graph + "/runs/" + partition + "/cancel", "");
    }

    JsonNode run(String graph, String partition) {
        Response r = get("/api/v1/graphs/" + graph + "/runs/" + partition);
        if (r.status() != 200) {
            throw new AssertionError("run view answered " + r.status() + ": " + r.body());
        }
        return r.body();
    }

    static JsonNode node(JsonNode run, String name) {
        for (JsonNode n : run.get("nodes")) {
            if (n.get("name").asString().equals(name)) {
                return n;
            }
        }
        throw new AssertionError("no node " + name + " in " + run);
    }

    private Response send(HttpRequest.Builder request) {
        try {
            HttpResponse<byte[]> r = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            JsonNode body;
            try {
                body = r.body().length == 0 ? null : RecordCodec.JSON.readTree(r.body());
            } catch (RuntimeException e) {
                body = tools.jackson.databind.node.JsonNodeFactory.instance.stringNode(new String(r.body(), StandardCharsets.UTF_8));
            }
            return new Response(r.statusCode(), body, r.headers().firstValue("Content-Type").orElse(""), r.headers());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
