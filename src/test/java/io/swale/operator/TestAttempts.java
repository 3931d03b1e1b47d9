package io.swale.operator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Builds attempt contexts and reads JSON for the operator tests. */
final class TestAttempts {
    static final ObjectMapper JSON = JsonMapper.builder().build();

    private TestAttempts() {}

    static JsonNode json(String text) {
        return JSON.readTree(text);
    }

    static ObjectNode object(String text) {
        return (ObjectNode) JSON.readTree(text);
    }

    /** A worker environment with just PATH (so `sh` resolves) plus {@code extra}. */
    static Map<String, String> workerEnv(Map<String, String> extra) {
        Map<String, String> env = new HashMap<>(extra);
        env.put("PATH", Optional.ofNullable(System.getenv("PATH")).orElse("/usr/bin:/bin"));
        return env;
    }

    static Builder attempt(JsonNode params) {
        return new Builder(params);
    }

    static final class Builder {
        private JsonNode params;
        private ObjectNode inputs = JSON.createObjectNode();
        private Optional<JsonNode> state = Optional.empty();
        private Map<String, String> env = workerEnv(Map.of());
        private Cancellation cancellation = new Cancellation();
        private long nowMs = 1_000L;
        private long attempt = 1L;

        private Builder(JsonNode params) {
            this.params = params;
        }

        Builder inputs(ObjectNode inputs) {
            this.inputs = inputs;
            return this;
        }

        Builder state(JsonNode state) {
            this.state = Optional.of(state);
            return this;
        }

        Builder env(Map<String, String> env) {
            this.env = env;
            return this;
        }

        Builder cancellation(Cancellation cancellation) {
            this.cancellation = cancellation;
            return this;
        }

        Builder nowMs(long nowMs) {
            this.nowMs = nowMs;
            return this;
        }

        Builder attempt(long attempt) {
            this.attempt = attempt;
            return this;
        }

        AttemptContext build() {
            return new AttemptContext("orders-20260915-load-r0", "orders", "20260915", "load", attempt, nowMs,
                    params, inputs, state, env, cancellation);
        }
    }

    /** Whether {@code pid} is a live process; a zombie (killed, not yet reaped) counts as dead. */
    static boolean isRunning(long pid) {
        if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
                char state = stat.charAt(stat.lastIndexOf(')') + 2);
                return state != 'Z' && state != 'X';
            } catch (IOException e) {
                return false;
            }
        }
        return false;
    }

    /** The pids a test script wrote, one per line. */
    static List<Long> pids(Path file) throws IOException {
        return Files.readAllLines(file).stream().filter(s -> !s.isBlank()).map(s -> Long.parseLong(s.trim())).toList();
    }
}
