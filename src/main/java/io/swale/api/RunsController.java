package io.swale.api;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.swale.graph.Partition;
import io.swale.record.AdminRequest;
import io.swale.request.Requests;
import io.swale.settings.SwaleProperties;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import tools.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The runs of a graph and the actions on them: start, rerun a node, cancel (each idempotent by request id). */
@RestController
@RequestMapping("/api/v1/graphs/{graph}/runs")
@Tag(name = "runs", description = "Graph runs: list, start, inspect, rerun a node, cancel")
public class RunsController {
    static final int MAX_LIMIT = 10_000;
    private final RunViews views;
    private final Requests requests;
    private final int maxPartitions;

    public RunsController(RunViews views, Requests requests, SwaleProperties props) {
        this.views = views;
        this.requests = requests;
        this.maxPartitions = props.limits().startPartitions();
    }

    /**
     * The body of a start request. Keys are read as JSON values so a number is refused rather than turned into
     * a string: {@code [1]} is not the partition {@code "1"}.
     */
    public record StartRequest(@ArraySchema(schema = @Schema(type = "string")) List<JsonNode> partitions) {}

    @GetMapping
    @Operation(summary = "Runs of a graph in partition order, from a partition (inclusive), at most `limit`")
    @ApiResponse(responseCode = "200", description = "The runs")
    @ApiResponse(responseCode = "400", ref = OpenApiConfiguration.BAD_REQUEST)
    @ApiResponse(responseCode = "404", ref = OpenApiConfiguration.NOT_FOUND)
    public List<Map<String, Object>> runs(@PathVariable String graph,
            @Parameter(description = "1 to 10000") @RequestParam(defaultValue = "100") int limit,
            @Parameter(description = "first partition to list") @RequestParam Optional<String> from) {
        Paths.limit(limit, MAX_LIMIT);
        // `from=` written empty is no bound, as an empty `limit=` is the default
        Optional<String> first = from.filter(f -> !f.isEmpty());
        first.ifPresent(f -> Paths.partition("from", f));
        return views.runsOf(Paths.name("graph", graph), first, limit);
    }

    @PostMapping
    @Operation(summary = "Start runs of partitions; partitions that already had a run are left out of `started`")
    @ApiResponse(responseCode = "200", description = "`{\"started\":[…],\"requestId\"}`")
    @ApiResponse(responseCode = "400", ref = OpenApiConfiguration.BAD_REQUEST)
    @ApiResponse(responseCode = "401", ref = OpenApiConfiguration.UNAUTHORIZED)
    @ApiResponse(responseCode = "404", ref = OpenApiConfiguration.NOT_FOUND)
    @ApiResponse(responseCode = "422", ref = OpenApiConfiguration.UNPROCESSABLE)
    @ApiResponse(responseCode = "503", ref = OpenApiConfiguration.UNAVAILABLE)
    public ResponseEntity<Object> start(@PathVariable String graph, @RequestBody(required = false) StartRequest body,
            @Parameter(in = ParameterIn.HEADER, description = "request id: 1 to 64 of [A-Za-z0-9_-]")
            @RequestHeader(value = Paths.IDEMPOTENCY_KEY, required = false) String key) {
        Paths.name("graph", graph);
        if (body == null || body.partitions() == null || body.partitions().isEmpty()) {
            throw new ApiErrors.BadRequest("partitions", "the body must list at least one partition: {\"partitions\":[\"20260915\"]}");
        }
        if (body.partitions().size() > maxPartitions) {
            throw new ApiErrors.BadRequest("partitions", "a start request lists at most " + maxPartitions
                    + " partitions, got " + body.partitions().size() + " (swale.limits.start-partitions)");
        }
        List<Partition> partitions = new ArrayList<>();
        for (int i = 0; i < body.partitions().size(); i++) {
            JsonNode value = body.partitions().get(i);
            if (value == null || !value.isString()) {
                throw new ApiErrors.BadRequest("partitions[" + i + "]", "a partition key is a string, found "
                        + (value == null ? "null" : value.getNodeType().toString().toLowerCase(java.util.Locale.ROOT)));
            }
            partitions.add(Paths.partition("partitions[" + i + "]", value.asString()));
        }
        return RequestAnswers.of(requests.handle(Paths.idempotencyKey(key), new AdminRequest.Start(graph, partitions)));
    }

    @GetMapping("/{partition}")
    @Operation(summary = "One run: its record and every node's state, active instance and record")
    @ApiResponse(responseCode = "200", description = "The run")
    @ApiResponse(responseCode = "400", ref = OpenApiConfiguration.BAD_REQUEST)
    @ApiResponse(responseCode = "404", ref = OpenApiConfiguration.NOT_FOUND)
    public Map<String, Object> run(@PathVariable String graph, @PathVariable String partition) {
        return views.run(Paths.name("graph", graph), Paths.partition(partition));
    }

    @PostMapping("/{partition}/nodes/{node}/rerun")
    @Operation(summary = "Rerun one node of a run through the rerun path (spec §7.8)", description = "`node` may name "
            + "one item of a mapped node, `node[3]` (URL-encoded `node%5B3%5D`): that item runs again "
            + "(docs/dynamic-graphs.md §6)")
    @ApiResponse(responseCode = "200", description = "`{\"outcome\":\"submitted\",\"runId\",\"requestId\"}`")
    @ApiResponse(responseCode = "400", ref = OpenApiConfiguration.BAD_REQUEST)
    @ApiResponse(responseCode = "401", ref = OpenApiConfiguration.UNAUTHORIZED)
    @ApiResponse(responseCode = "404", ref = OpenApiConfiguration.NOT_FOUND)
    @ApiResponse(responseCode = "409", ref = OpenApiConfiguration.RERUN_REFUSED)
    @ApiResponse(responseCode = "422", ref = OpenApiConfiguration.UNPROCESSABLE)
    @ApiResponse(responseCode = "503", ref = OpenApiConfiguration.UNAVAILABLE)
    public ResponseEntity<Object> rerun(@PathVariable String graph, @PathVariable String partition,
            @PathVariable String node,
            @Parameter(in = ParameterIn.HEADER, description = "request id: 1 to 64 of [A-Za-z0-9_-]")
            @RequestHeader(value = Paths.IDEMPOTENCY_KEY, required = false) String key) {
        AdminRequest.Rerun request = new AdminRequest.Rerun(Paths.name("graph", graph), Paths.partition(partition),
                Paths.nodeOrItem(node));
        return RequestAnswers.of(requests.handle(Paths.idempotencyKey(key), request));
    }

    @PostMapping("/{partition}/cancel")
    @Operation(summary = "Cancel an active run")
    @ApiResponse(responseCode = "200", description = "`{\"cancelled\":true,\"requestId\"}`")
    @ApiResponse(responseCode = "400", ref = OpenApiConfiguration.BAD_REQUEST)
    @ApiResponse(responseCode = "401", ref = OpenApiConfiguration.UNAUTHORIZED)
    @ApiResponse(responseCode = "404", ref = OpenApiConfiguration.NOT_FOUND)
    @ApiResponse(responseCode = "409", ref = OpenApiConfiguration.CONFLICT)
    @ApiResponse(responseCode = "422", ref = OpenApiConfiguration.UNPROCESSABLE)
    public ResponseEntity<Object> cancel(@PathVariable String graph, @PathVariable String partition,
            @Parameter(in = ParameterIn.HEADER, description = "request id: 1 to 64 of [A-Za-z0-9_-]")
            @RequestHeader(value = Paths.IDEMPOTENCY_KEY, required = false) String key) {
        AdminRequest.Cancel request = new AdminRequest.Cancel(Paths.name("graph", graph), Paths.partition(partition));
        return RequestAnswers.of(requests.handle(Paths.idempotencyKey(key), request));
    }
}
