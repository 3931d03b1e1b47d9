package io.swale.api;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.swale.config.ConfiguredPools;
import io.swale.graph.Partition;
import io.swale.kafka.DeadLetter;
import io.swale.kafka.DeadLetterBrowser;
import io.swale.kafka.KafkaInspector;
import io.swale.kafka.SwaleTopics;
import io.swale.record.AdminRequest;
import io.swale.request.RequestId;
import io.swale.request.Requests;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.task.TaskIdentity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Dead letters of a channel's {@code .DLT} topic: browse them, and for a task's dead letter request a rerun
 * of its node through the normal rerun path. A dead letter is never replayed into its old run id.
 */
@RestController
@RequestMapping("/api/v1/dead-letters")
@Tag(name = "dead letters", description = "Browse dead-letter topics; rerun the node of a task's dead letter")
public class DeadLettersController {
    private static final Pattern CURSOR = Pattern.compile("([0-9]{1,9}):([0-9]{1,18})");
    private static final Pattern LETTER = Pattern.compile("([0-9]{1,9})-([0-9]{1,18})");
    private final DeadLetterBrowser browser;
    private final KafkaInspector kafka;
    private final SwaleTopics topics;
    private final ConfiguredPools pools;
    private final Requests requests;
    private final RunStore runs;

    public DeadLettersController(DeadLetterBrowser browser, KafkaInspector kafka, SwaleTopics topics,
            ConfiguredPools pools, Requests requests, RunStore runs) {
        this.runs = runs;
        this.browser = browser;
        this.kafka = kafka;
        this.topics = topics;
        this.pools = pools;
        this.requests = requests;
    }

    @GetMapping
    @Operation(summary = "Every channel with its dead-letter topic and how many letters it holds")
    @ApiResponse(responseCode = "200", description = "`[{\"channel\",\"topic\",\"count\"}]`")
    @ApiResponse(responseCode = "503", ref = OpenApiConfiguration.UNAVAILABLE)
    public List<Map<String, Object>> channels() {
        List<SwaleTopics.Queue> queues = topics.queues(pools.pools().keySet());
        // every channel's count from one set of questions to Kafka
        KafkaInspector.Figures figures = kafka.figures(List.of(),
                queues.stream().map(q -> SwaleTopics.deadLetter(q.channel().topic())).toList());
        // a count Kafka could not tell is not 0: the answer is unavailable, as it was channel by channel
        figures.topicFailures().values().stream().findFirst().ifPresent(why -> {
            throw new KafkaInspector.KafkaQueryException(why, null);
        });
        Map<String, Long> records = figures.records();
        List<Map<String, Object>> out = new ArrayList<>();
        for (SwaleTopics.Queue q : queues) {
            String topic = SwaleTopics.deadLetter(q.channel().topic());
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("channel", q.name());
            m.put("topic", topic);
            m.put("count", records.getOrDefault(topic, 0L));
            out.add(m);
        }
        return out;
    }

    @GetMapping("/{channel}")
    @Operation(summary = "The first `limit` dead letters of a channel (events, triggers, pool.<pool>), in enqueue order")
    @ApiResponse(responseCode = "200", description = "`[{\"id\",\"enqueuedAt\",\"runId\",\"graph\",\"partition\",\"node\","
            + "\"attempts\",\"maxAttempts\",\"error\"}]`")
    @ApiResponse(responseCode = "400", ref = OpenApiConfiguration.BAD_REQUEST)
    @ApiResponse(responseCode = "404", ref = OpenApiConfiguration.NOT_FOUND)
    @ApiResponse(responseCode = "503", ref = OpenApiConfiguration.UNAVAILABLE)
    public List<Map<String, Object>> letters(@PathVariable String channel,
            @Parameter(description = "1 to 1000") @RequestParam(defaultValue = "20") int limit) {
        Paths.limit(limit, 1000);
        String topic = topic(Paths.channel(channel));
        return browser.browse(topic, limit)
                .orElseThrow(() -> new ApiErrors.NotFound("channel `" + channel + "` has no dead-letter topic `" + topic + "`"))
                .stream().map(DeadLettersController::view).toList();
    }

    @GetMapping("/{channel}/page")
    @Operation(summary = "One page of a channel's dead letters, oldest first, continuing from `cursor`: every letter "
            + "is reachable, however many the topic holds")
    @ApiResponse(responseCode = "200", description = "`{\"channel\",\"topic\",\"total\",\"letters\":[letter…],"
            + "\"next\",\"partial\"}`: pass `next` as `cursor` for the following page; null after the last one. `partial`: "
            + "the read deadline (swale.ops.kafka-timeout) passed before every partition was read; the page may be short "
            + "or empty and `next` continues where it stopped")
    @ApiResponse(responseCode = "400", ref = OpenApiConfiguration.BAD_REQUEST)
    @ApiResponse(responseCode = "404", ref = OpenApiConfiguration.NOT_FOUND)
    @ApiResponse(responseCode = "503", ref = OpenApiConfiguration.UNAVAILABLE)
    public Map<String, Object> page(@PathVariable String channel,
            @Parameter(description = "`<partition>:<offset>,…` as a previous page's `next`; absent: the oldest letters")
            @RequestParam Optional<String> cursor,
            @Parameter(description = "1 to 100") @RequestParam(defaultValue = "50") int limit) {
        Paths.limit(limit, 100);
        String topic = topic(Paths.channel(channel));
        Map<Integer, Long> from = cursor.map(DeadLettersController::cursor).orElse(Map.of());
        DeadLetterBrowser.Page page = browser.page(topic, from, limit)
                .orElseThrow(() -> new ApiErrors.NotFound("channel `" + channel + "` has no dead-letter topic `" + topic + "`"));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("channel", channel);
        out.put("topic", topic);
        out.put("total", kafka.count(topic));
        out.put("letters", page.letters().stream().map(DeadLettersController::view).toList());
        out.put("next", page.more() ? cursor(page.next()) : null);
        out.put("partial", page.partial());
        return out;
    }

    private static Map<Integer, Long> cursor(String value) {
        Map<Integer, Long> out = new TreeMap<>();
        if (value.isBlank()) {
            return out;
        }
        for (String part : value.split(",", -1)) {
            Matcher m = CURSOR.matcher(part);
            if (!m.matches()) {
                throw new ApiErrors.BadRequest("cursor", "`" + value + "` is not a cursor `<partition>:<offset>,…`"
                        + " (pass a page's `next` as it is)");
            }
            out.put(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)));
        }
        return out;
    }

    private static String cursor(Map<Integer, Long> next) {
        StringJoiner j = new StringJoiner(",");
        next.forEach((p, o) -> j.add(p + ":" + o));
        return j.toString();
    }

    @PostMapping("/{channel}/{letter}/rerun")
    @Operation(summary = "Rerun the node of a task's dead letter (channel pool.<pool>) through the rerun path; "
            + "answers as the node rerun endpoint does")
    @ApiResponse(responseCode = "200", description = "`{\"outcome\":\"submitted\",\"runId\",\"requestId\"}`")
    @ApiResponse(responseCode = "400", ref = OpenApiConfiguration.BAD_REQUEST)
    @ApiResponse(responseCode = "401", ref = OpenApiConfiguration.UNAUTHORIZED)
    @ApiResponse(responseCode = "404", ref = OpenApiConfiguration.NOT_FOUND)
    @ApiResponse(responseCode = "409", ref = OpenApiConfiguration.RERUN_REFUSED)
    @ApiResponse(responseCode = "422", ref = OpenApiConfiguration.UNPROCESSABLE)
    @ApiResponse(responseCode = "503", ref = OpenApiConfiguration.UNAVAILABLE)
    public ResponseEntity<Object> rerun(@PathVariable String channel,
            @Parameter(description = "`<partition>-<offset>` of the letter in its topic") @PathVariable String letter,
            @Parameter(in = ParameterIn.HEADER, description = "request id: 1 to 64 of [A-Za-z0-9_-]")
            @RequestHeader(value = Paths.IDEMPOTENCY_KEY, required = false) String key) {
        if (!Paths.channel(channel).startsWith("pool.")) {
            throw new ApiErrors.BadRequest("channel", "only a task's dead letter (channel pool.<pool>) names a node to rerun");
        }
        Optional<RequestId> id = Paths.idempotencyKey(key);
        Matcher m = LETTER.matcher(letter == null ? "" : letter);
        if (!m.matches()) {
            throw new ApiErrors.BadRequest("letter", "`" + letter + "` is not a letter id `<partition>-<offset>`");
        }
        DeadLetter found = browser.find(topic(channel), Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)))
                .orElseThrow(() -> new ApiErrors.NotFound("channel `" + channel + "` has no dead letter `" + letter + "`"));
        String graph = found.header(TaskIdentity.GRAPH).orElse(null);
        String partition = found.header(TaskIdentity.PARTITION).orElse(null);
        String node = found.header(TaskIdentity.NODE).orElse(null);
        if (graph == null || node == null || !Partition.isValid(partition)) {
            throw new ApiErrors.BadRequest("letter", "dead letter `" + letter + "` does not carry a task identity");
        }
        // a retry of a request applied already gets its recorded answer (§10), not the refusal its own rerun caused
        if (id.flatMap(requests::find).isEmpty()) {
            refuseIfRerunSince(found, new RunKey(graph, Partition.of(partition)), node);
        }
        AdminRequest.Rerun request = new AdminRequest.Rerun(graph, Partition.of(partition), node);
        return RequestAnswers.of(requests.handle(id, request));
    }

    /**
     * A letter whose instance has been rerun since (the next run id of its node exists, whoever submitted it) is
     * recovered: a second click, a retry after a lost answer, would otherwise rerun a node that may have succeeded
     * since, and its downstreams with it. A rerun that failed again leaves a letter of its own; the node itself
     * can still be rerun by its own endpoint. Two clicks at once both pass here, and the second finds the first's
     * instance (Active).
     */
    private void refuseIfRerunSince(DeadLetter letter, RunKey run, String node) {
        Optional<Long> rerun = letter.header(TaskIdentity.RERUN).filter(r -> r.matches("[0-9]{1,18}")).map(Long::parseLong);
        if (rerun.isEmpty()) {
            return;
        }
        String next = run.runId(node, rerun.get() + 1);
        if (runs.read(run).filter(v -> v.instances().containsKey(next)).isPresent()) {
            throw new ApiErrors.AlreadyRerun(next, "the node of this letter has been rerun since (`" + next + "`); "
                    + "rerun the node itself to run it again");
        }
    }

    private String topic(String channel) {
        String base = switch (channel) {
            case "events" -> topics.events();
            case "triggers" -> topics.triggers();
            default -> topics.pool(channel.substring("pool.".length()));
        };
        return SwaleTopics.deadLetter(base);
    }

    private static Map<String, Object> view(DeadLetter l) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", l.id());
        m.put("enqueuedAt", RunViews.time(l.timestampMs()));
        m.put("key", l.key().orElse(null));
        var value = l.value().filter(v -> v.isObject());
        m.put("runId", value.map(v -> v.path("run_id").asString(null)).orElse(null));
        m.put("graph", l.header(TaskIdentity.GRAPH).orElse(null));
        m.put("partition", l.header(TaskIdentity.PARTITION).orElse(null));
        m.put("node", l.header(TaskIdentity.NODE).orElse(null));
        m.put("attempts", value.filter(v -> v.has("attempts")).map(v -> v.get("attempts").asLong()).orElse(null));
        m.put("maxAttempts", value.filter(v -> v.has("max_attempts")).map(v -> v.get("max_attempts").asLong()).orElse(null));
        m.put("error", l.error());
        // the attempts the task used, as the store kept them when it was dead-lettered
        m.put("history", value.filter(v -> v.path("history").isArray()).map(v -> {
            List<Map<String, Object>> attempts = new ArrayList<>();
            for (var a : v.get("history")) {
                Map<String, Object> at = new LinkedHashMap<>();
                at.put("attempt", a.path("attempt").asLong());
                at.put("step", a.path("step").asLong());
                at.put("worker", a.path("worker").asString(null));
                at.put("startedAt", RunViews.time(a.path("started_ms").asLong()));
                at.put("endedAt", RunViews.time(a.path("ended_ms").asLong()));
                at.put("outcome", a.path("outcome").asString(null));
                at.put("error", a.path("error").asString(null));
                attempts.add(at);
            }
            return attempts;
        }).orElse(List.of()));
        return m;
    }
}
