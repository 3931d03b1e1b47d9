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

/** Pools and their queues. */
@RestController
@RequestMapping("/api/v1/pools")
@Tag(name = "pools", description = "Pools: slots, running, pending and delayed instances, consumer lag")
public class PoolsController {
    private final PoolViews views;

    public PoolsController(PoolViews views) {
        this.views = views;
    }

    @GetMapping
    @Operation(summary = "Every configured pool: slots, running (all replicas), runningHere, pending, delayed, "
            + "lag and consumed of the dispatch topic's group, dead letters")
    @ApiResponse(responseCode = "200", description = "The pools, by name")
    public List<Map<String, Object>> pools() {
        return views.pools();
    }

    @GetMapping("/{pool}")
    @Operation(summary = "One pool")
    @ApiResponse(responseCode = "200", description = "The pool")
    @ApiResponse(responseCode = "400", ref = OpenApiConfiguration.BAD_REQUEST)
    @ApiResponse(responseCode = "404", ref = OpenApiConfiguration.NOT_FOUND)
    public Map<String, Object> pool(@PathVariable String pool) {
        return views.pool(Paths.name("pool", pool))
                .orElseThrow(() -> new ApiErrors.NotFound("pool `" + pool + "` is not configured"));
    }
}
