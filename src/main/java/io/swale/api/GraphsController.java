package io.swale.api;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Graphs: the list with run counts and latest run, and one graph's adopted definition. */
@RestController
@RequestMapping("/api/v1/graphs")
@Tag(name = "graphs", description = "Adopted graphs and graphs with runs")
public class GraphsController {
    private final RunViews views;

    public GraphsController(RunViews views) {
        this.views = views;
    }

    @GetMapping
    @Operation(summary = "Every graph with a graph record or a run: run counts per state (up to 1 s old, shared by "
            + "every reader on a replica) and the latest run")
    @ApiResponse(responseCode = "200", description = "The graphs, by name")
    public List<Map<String, Object>> graphs() {
        return views.graphs();
    }

    @GetMapping("/{graph}")
    @Operation(summary = "One graph's adopted definition and its nodes")
    @ApiResponse(responseCode = "200", description = "The graph")
    @ApiResponse(responseCode = "400", ref = OpenApiConfiguration.BAD_REQUEST)
    @ApiResponse(responseCode = "404", ref = OpenApiConfiguration.NOT_FOUND)
    public Map<String, Object> graph(@PathVariable String graph) {
        return views.graph(Paths.name("graph", graph));
    }
}
