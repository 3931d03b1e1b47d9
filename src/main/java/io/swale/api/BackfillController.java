package io.swale.api;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.swale.graph.Graph;
import io.swale.graph.Partition;
import io.swale.graph.PartitionRange;
import io.swale.graph.Partitioning;
import io.swale.settings.SwaleProperties;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Backfill of a range of partitions of a daily or hourly graph. */
@RestController
@RequestMapping("/api/v1/graphs/{graph}/backfill")
@Tag(name = "backfill", description = "Start every partition of a range, with a dry run")
public class BackfillController {
    private final Backfill backfill;
    // a range is started as one start request of its partitions, so it is bounded the same
    private final int maxPartitions;

    public BackfillController(Backfill backfill, SwaleProperties props) {
        this.backfill = backfill;
        this.maxPartitions = props.limits().startPartitions();
    }

    /**
     * @param from first partition key, in the graph's format
     * @param to last partition key (included)
     * @param dryRun only answer the plan
     * @param mode {@code missing} (default): partitions without a run; {@code failed}: also rerun the failed
     *     and cancelled nodes of failed runs
     */
    public record BackfillRequest(String from, String to, Boolean dryRun, String mode) {}

    @PostMapping
    @Operation(summary = "Start every partition from `from` to `to` (both included) that has no run; mode `failed` "
            + "also reruns the failed nodes of failed runs; `dryRun` answers the plan only")
    @ApiResponse(responseCode = "200", description = "`{\"graph\",\"from\",\"to\",\"mode\",\"dryRun\",\"plan\":[{\"partition\","
            + "\"action\":\"start|rerun|skip\"}],\"started\",\"reruns\"}`")
    @ApiResponse(responseCode = "400", ref = OpenApiConfiguration.BAD_REQUEST)
    @ApiResponse(responseCode = "401", ref = OpenApiConfiguration.UNAUTHORIZED)
    @ApiResponse(responseCode = "404", ref = OpenApiConfiguration.NOT_FOUND)
    @ApiResponse(responseCode = "503", ref = OpenApiConfiguration.UNAVAILABLE)
    public Map<String, Object> backfill(@PathVariable String graph, @RequestBody(required = false) BackfillRequest body) {
        Paths.name("graph", graph);
        if (body == null) {
            throw new ApiErrors.BadRequest("body", "the body must be {\"from\",\"to\",\"dryRun\",\"mode\"}");
        }
        String mode = body.mode() == null ? "missing" : body.mode();
        if (!mode.equals("missing") && !mode.equals("failed")) {
            throw new ApiErrors.BadRequest("mode", "mode must be `missing` or `failed`, got `" + mode + "`");
        }
        Graph g = backfill.adoptedGraph(graph);
        Partitioning partitioning = g.partitioning();
        if (partitioning == Partitioning.NONE) {
            throw new ApiErrors.BadRequest("graph", "graph `" + graph + "` is not partitioned by time: nothing to backfill");
        }
        LocalDateTime from = key("from", body.from(), partitioning);
        LocalDateTime to = key("to", body.to(), partitioning);
        if (to.isBefore(from)) {
            throw new ApiErrors.BadRequest("to", "`to` (" + body.to() + ") is before `from` (" + body.from() + ")");
        }
        List<Partition> partitions;
        try {
            partitions = PartitionRange.between(partitioning, from, to, maxPartitions);
        } catch (IllegalArgumentException e) {
            throw new ApiErrors.BadRequest("to", e.getMessage() + "; at most " + maxPartitions
                    + " per backfill (swale.limits.start-partitions)");
        }
        boolean dryRun = Boolean.TRUE.equals(body.dryRun());
        Backfill.Result result = backfill.run(graph, partitions, mode.equals("failed"), dryRun);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("graph", graph);
        out.put("from", body.from());
        out.put("to", body.to());
        out.put("mode", mode);
        out.put("dryRun", dryRun);
        out.put("plan", result.plan().stream().map(BackfillController::step).toList());
        out.put("started", result.started().stream().map(Partition::key).toList());
        List<Map<String, Object>> reruns = new ArrayList<>();
        for (Backfill.RerunDone r : result.reruns()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("partition", r.partition().key());
            m.put("node", r.node());
            m.put("outcome", RequestsController.outcomeView(r.outcome()));
            reruns.add(m);
        }
        out.put("reruns", reruns);
        return out;
    }

    private static Map<String, Object> step(Backfill.Step s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("partition", s.partition().key());
        switch (s) {
            case Backfill.Step.Start st -> m.put("action", "start");
            case Backfill.Step.Rerun r -> {
                m.put("action", "rerun");
                m.put("nodes", r.nodes());
            }
            case Backfill.Step.Skip k -> {
                m.put("action", "skip");
                m.put("state", k.state().wireName());
            }
        }
        return m;
    }

    private static LocalDateTime key(String field, String value, Partitioning partitioning) {
        if (value == null) {
            throw new ApiErrors.BadRequest(field, "`" + field + "` is required: a partition key "
                    + PartitionRange.format(partitioning));
        }
        return PartitionRange.parse(partitioning, value).orElseThrow(() -> new ApiErrors.BadRequest(field,
                "`" + value + "` is not a " + partitioning.configName() + " partition key ("
                        + PartitionRange.format(partitioning) + ")"));
    }
}
