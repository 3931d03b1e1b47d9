package io.swale.api.dashboard;

import io.swale.api.ApiErrors;
import io.swale.record.RunState;
import io.swagger.v3.oas.annotations.Parameter;
import java.util.Optional;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swale.api.OpenApiConfiguration;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * What the dashboard reads beyond the admin API: graphs with their latest runs, the partitions × nodes
 * grid, a run with attempts and upstreams, what runs now per pool, and the live event stream.
 */
@RestController
@RequestMapping("/api/v1/dashboard")
public class DashboardController {
    private final DashboardViews views;
    private final LiveView live;

    public DashboardController(DashboardViews views, LiveView live) {
        this.views = views;
        this.live = live;
    }

    @Operation(summary = "Dashboard: every graph with its run counts and latest runs")
    @GetMapping("/graphs")
    public List<Map<String, Object>> graphs() {
        return views.graphs();
    }

    @Operation(summary = "Dashboard: the partitions × nodes grid of a graph, newest partition first, optionally only "
            + "runs in a state and in a partition range")
    @ApiResponse(responseCode = "400", ref = OpenApiConfiguration.BAD_REQUEST)
    @ApiResponse(responseCode = "404", ref = OpenApiConfiguration.NOT_FOUND)
    @GetMapping("/graphs/{graph}/grid")
    public Map<String, Object> grid(@PathVariable String graph, @RequestParam(defaultValue = "0") int offset,
            @RequestParam(defaultValue = "25") int limit,
            @Parameter(description = "only runs in this state: active, complete, failed or cancelled")
            @RequestParam Optional<String> state,
            @Parameter(description = "first partition of the range (included)") @RequestParam Optional<String> from,
            @Parameter(description = "last partition of the range (included)") @RequestParam Optional<String> to) {
        if (offset < 0) {
            throw new ApiErrors.BadRequest("offset", "offset must be 0 or more, got " + offset);
        }
        if (limit < 1 || limit > 500) {
            throw new ApiErrors.BadRequest("limit", "limit must be between 1 and 500, got " + limit);
        }
        Optional<RunState> only = state.filter(x -> !x.isEmpty()).map(x -> RunState.fromWireName(x).orElseThrow(
                () -> new ApiErrors.BadRequest("state", "state must be one of active, complete, failed, cancelled; got `"
                        + x + "`")));
        Optional<String> first = Names.partitionBound("from", from);
        Optional<String> last = Names.partitionBound("to", to);
        if (first.isPresent() && last.isPresent() && first.get().compareTo(last.get()) > 0) {
            throw new ApiErrors.BadRequest("to", "`to` (" + last.get() + ") is before `from` (" + first.get() + ")");
        }
        return views.grid(Names.graph(graph), offset, limit, new DashboardViews.GridFilter(only, first, last));
    }

    @Operation(summary = "Dashboard: one run with attempts, start times and upstreams per node")
    @ApiResponse(responseCode = "400", ref = OpenApiConfiguration.BAD_REQUEST)
    @ApiResponse(responseCode = "404", ref = OpenApiConfiguration.NOT_FOUND)
    @GetMapping("/graphs/{graph}/runs/{partition}")
    public Map<String, Object> run(@PathVariable String graph, @PathVariable String partition) {
        return views.run(Names.graph(graph), Names.partition(partition));
    }

    @Operation(summary = "Dashboard: the task instances running now, per pool")
    @GetMapping("/running")
    public Map<String, Object> running() {
        return views.running();
    }

    /** Server-Sent Events: snapshot, started, changed, cleared, run, graph (see {@link LiveView}). */
    @Operation(summary = "Dashboard: Server-Sent Events of started, changed and cleared instances and run changes")
    @GetMapping(path = "/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    public SseEmitter events(HttpServletResponse response) {
        response.setHeader("Cache-Control", "no-store");
        // Proxies that buffer responses (nginx and its ingress) would hold the events back.
        response.setHeader("X-Accel-Buffering", "no");
        return live.subscribe();
    }

    @ExceptionHandler(LiveView.TooManyStreams.class)
    ProblemDetail tooMany(LiveView.TooManyStreams e) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, e.getMessage());
        p.setTitle("Try again");
        return p;
    }
}
