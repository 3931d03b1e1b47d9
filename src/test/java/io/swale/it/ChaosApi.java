package io.swale.it;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/** The REST API of whichever scheduler answers: a killed scheduler's requests go to the other one. */
final class ChaosApi {
    private final List<SwaleClient> clients = new ArrayList<>();

    ChaosApi(List<Integer> ports) {
        ports.forEach(p -> clients.add(new SwaleClient(p)));
    }

    /** The first answer below 500 of any scheduler; empty when none gives one. */
    Optional<SwaleClient.Response> call(Function<SwaleClient, SwaleClient.Response> request) {
        for (SwaleClient c : clients) {
            try {
                SwaleClient.Response r = request.apply(c);
                if (r.status() < 500) {
                    return Optional.of(r);
                }
            } catch (RuntimeException e) {
                // connection refused while that scheduler is down: ask the other
            }
        }
        return Optional.empty();
    }

    /** Starts runs of {@code partitions}; true when a scheduler took the request (existing runs are left alone). */
    boolean start(String graph, List<String> partitions) {
        String body = "{\"partitions\":[" + String.join(",", partitions.stream().map(p -> "\"" + p + "\"").toList()) + "]}";
        return call(c -> c.postJson("/api/v1/graphs/" + graph + "/runs", body)).filter(r -> r.status() == 200).isPresent();
    }

    /** Run counts of {@code graph} by state, from the graphs list. */
    Optional<JsonNode> runCounts(String graph) {
        return call(c -> c.get("/api/v1/graphs")).filter(r -> r.status() == 200).flatMap(r -> {
            for (JsonNode g : r.body()) {
                if (g.get("name").asString().equals(graph)) {
                    return Optional.of(g.get("runs"));
                }
            }
            return Optional.empty();
        });
    }

    /** The run's view; empty when no scheduler answers 200 (a 404 is a lost run). */
    Optional<SwaleClient.Response> run(String graph, String partition) {
        return call(c -> c.get("/api/v1/graphs/" + graph + "/runs/" + partition));
    }
}
