package io.swale.api.dashboard;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swale.api.ApiErrors;
import io.swale.api.OpenApiConfiguration;
import io.swale.security.SecurityConfiguration;
import io.swale.security.SwaleSecurityProperties;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.springframework.core.env.Environment;
import org.springframework.core.env.Profiles;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The operator console's reads: a run's timeline, node durations over the last runs, asset lineage across
 * graphs, a graph's definitions with their history, and whether this dashboard needs the bearer token.
 */
@RestController
@RequestMapping("/api/v1/dashboard")
public class ConsoleController {
    private static final Pattern HASH = Pattern.compile("[0-9a-f]{8,128}");
    static final int MAX_TREND_RUNS = 200;

    private final RunTimeline timeline;
    private final DurationTrend trend;
    private final AssetLineage lineage;
    private final DefinitionView definitions;
    private final Environment env;
    private final SwaleSecurityProperties security;

    public ConsoleController(RunTimeline timeline, DurationTrend trend, AssetLineage lineage, DefinitionView definitions,
            Environment env, SwaleSecurityProperties security) {
        this.timeline = timeline;
        this.trend = trend;
        this.lineage = lineage;
        this.definitions = definitions;
        this.env = env;
        this.security = security;
    }

    @Operation(summary = "Dashboard: a run's timeline, per node the queue wait, each attempt and the waits between "
            + "attempts as bars (epoch ms)")
    @ApiResponse(responseCode = "400", ref = OpenApiConfiguration.BAD_REQUEST)
    @ApiResponse(responseCode = "404", ref = OpenApiConfiguration.NOT_FOUND)
    @GetMapping("/graphs/{graph}/runs/{partition}/timeline")
    public Map<String, Object> timeline(@PathVariable String graph, @PathVariable String partition) {
        return timeline.timeline(Names.graph(graph), Names.partition(partition));
    }

    @Operation(summary = "Dashboard: each node's run time over the runs of the graph's `runs` newest partitions "
            + "(highest keys, not the most recently run), oldest first")
    @ApiResponse(responseCode = "400", ref = OpenApiConfiguration.BAD_REQUEST)
    @ApiResponse(responseCode = "404", ref = OpenApiConfiguration.NOT_FOUND)
    @GetMapping("/graphs/{graph}/durations")
    public Map<String, Object> durations(@PathVariable String graph,
            @Parameter(description = "1 to 200") @RequestParam(defaultValue = "30") int runs) {
        if (runs < 1 || runs > MAX_TREND_RUNS) {
            throw new ApiErrors.BadRequest("runs", "runs must be between 1 and " + MAX_TREND_RUNS + ", got " + runs);
        }
        return trend.durations(Names.graph(graph), runs);
    }

    @Operation(summary = "Dashboard: every asset of the adopted graphs with its producer, its consumers and its "
            + "record in the newest partition (of the producer's 10 newest) that has one; the graph-to-graph edges they make")
    @GetMapping("/assets")
    public Map<String, Object> assets() {
        return lineage.lineage();
    }

    @Operation(summary = "Dashboard: a graph's definition source as published (of `hash`, or the current one), its "
            + "adoption state and refusal, and its history of hashes")
    @ApiResponse(responseCode = "400", ref = OpenApiConfiguration.BAD_REQUEST)
    @ApiResponse(responseCode = "404", ref = OpenApiConfiguration.NOT_FOUND)
    @GetMapping("/graphs/{graph}/definition")
    public Map<String, Object> definition(@PathVariable String graph, @RequestParam Optional<String> hash) {
        hash.ifPresent(h -> {
            if (!HASH.matcher(h).matches()) {
                throw new ApiErrors.BadRequest("hash", "`" + h + "` is not a definition hash (lowercase hex)");
            }
        });
        return definitions.definition(Names.graph(graph), hash);
    }

    /** Open to everyone (see {@link SecurityConfiguration#SESSION}): the dashboard asks it what to ask for. */
    @Operation(summary = "Dashboard: whether actions (and reads) need the bearer token here, and whether the "
            + "request carried a valid one")
    @GetMapping("/session")
    public Map<String, Object> session() {
        boolean open = env.acceptsProfiles(Profiles.of("local")) || security.open();
        Authentication auth = SecurityContextHolder.getContext().getAuthentication();
        boolean authenticated = auth != null && auth.isAuthenticated() && auth.getAuthorities().stream()
                .anyMatch(a -> a.getAuthority().equals("ROLE_OPERATOR"));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("tokenRequired", !open);
        out.put("readsNeedToken", !open && !security.anonymousReads());
        out.put("authenticated", open || authenticated);
        return out;
    }
}
