package io.swale.api;

import io.swale.graph.Partition;
import io.swale.scheduler.GraphRuns;
import io.swale.scheduler.RerunOutcome;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Graphs, their runs, and the actions on a run: start, rerun a node, cancel. */
@RestController
@RequestMapping("/api/v1/graphs")
public class GraphsController {
    private final RunViews views;
    private final GraphRuns graphRuns;

    public GraphsController(RunViews views, GraphRuns graphRuns) {
        this.views = views;
        this.graphRuns = graphRuns;
    }

    /** The body of a start request. */
    public record StartRequest(List<String> partitions) {}

    @GetMapping
    public List<Map<String, Object>> graphs() {
        return views.graphs();
    }

    @GetMapping("/{graph}")
    public Map<String, Object> graph(@PathVariable String graph) {
        return views.graph(Paths.name("graph", graph));
    }

    @GetMapping("/{graph}/runs")
    public List<Map<String, Object>> runs(@PathVariable String graph,
            @RequestParam(defaultValue = "100") int limit, @RequestParam Optional<String> from) {
        if (limit < 1 || limit > 10_000) {
            throw new ApiErrors.BadRequest("limit", "limit must be between 1 and 10000, got " + limit);
        }
        from.ifPresent(Paths::partition);
        return views.runsOf(Paths.name("graph", graph), from, limit);
    }

    @PostMapping("/{graph}/runs")
    public Map<String, Object> start(@PathVariable String graph, @RequestBody(required = false) StartRequest body) {
        Paths.name("graph", graph);
        if (body == null || body.partitions() == null || body.partitions().isEmpty()) {
            throw new ApiErrors.BadRequest("partitions", "the body must list at least one partition: {\"partitions\":[\"20260915\"]}");
        }
        List<Partition> partitions = new ArrayList<>();
        for (String p : body.partitions()) {
            partitions.add(Paths.partition(p));
        }
        List<Partition> started = graphRuns.startRuns(graph, partitions);
        return Map.of("started", started.stream().map(Partition::key).toList());
    }

    @GetMapping("/{graph}/runs/{partition}")
    public Map<String, Object> run(@PathVariable String graph, @PathVariable String partition) {
        return views.run(Paths.name("graph", graph), Paths.partition(partition));
    }

    @PostMapping("/{graph}/runs/{partition}/nodes/{node}/rerun")
    public ResponseEntity<Map<String, Object>> rerun(@PathVariable String graph, @PathVariable String partition,
            @PathVariable String node) {
        RerunOutcome outcome = graphRuns.rerun(Paths.name("graph", graph), Paths.partition(partition),
                Paths.name("node", node));
        Map<String, Object> body = new LinkedHashMap<>();
        HttpStatus status = HttpStatus.CONFLICT;
        switch (outcome) {
            case RerunOutcome.Submitted s -> {
                status = HttpStatus.OK;
                body.put("outcome", "submitted");
                body.put("runId", s.runId());
            }
            case RerunOutcome.Active a -> {
                body.put("outcome", "active");
                body.put("runId", a.runId());
                body.put("detail", "task instance `" + a.runId() + "` is still active");
            }
            case RerunOutcome.NotReady n -> {
                body.put("outcome", "not_ready");
                body.put("node", n.node());
                body.put("detail", "the trigger rule of node `" + n.node() + "` is not met");
            }
            case RerunOutcome.NoRecord n -> {
                body.put("outcome", "no_record");
                body.put("node", n.node());
                body.put("detail", "node `" + n.node() + "` has no record yet");
            }
        }
        return ResponseEntity.status(status).body(body);
    }

    @PostMapping("/{graph}/runs/{partition}/cancel")
    public ResponseEntity<Map<String, Object>> cancel(@PathVariable String graph, @PathVariable String partition) {
        Partition p = Paths.partition(partition);
        Paths.name("graph", graph);
        views.run(graph, p);
        if (graphRuns.cancel(graph, p)) {
            return ResponseEntity.ok(Map.of("cancelled", true));
        }
        return ResponseEntity.status(HttpStatus.CONFLICT).body(Map.of("cancelled", false,
                "detail", "graph `" + graph + "` has no active run for partition `" + partition + "`"));
    }
}
