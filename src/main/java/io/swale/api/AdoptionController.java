package io.swale.api;

import io.swale.record.GraphRecord;
import io.swale.store.DefinitionStore;
import io.swale.store.DefinitionStore.Refusal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * Whether a graph's published definition was adopted (spec §4.5): the current pointer, the adopted
 * definition, and the refusal of a pending definition with its reason.
 */
@RestController
public class AdoptionController {
    private final DefinitionStore definitions;

    public AdoptionController(DefinitionStore definitions) {
        this.definitions = definitions;
    }

    @GetMapping("/api/v1/graphs/{graph}/adoption")
    @Operation(summary = "Whether the graph's published definition was adopted, and why not when it was refused")
    @ApiResponse(responseCode = "200", description = "The current pointer, the adopted definition and any refusal")
    @ApiResponse(responseCode = "400", ref = OpenApiConfiguration.BAD_REQUEST)
    @ApiResponse(responseCode = "404", ref = OpenApiConfiguration.NOT_FOUND)
    public Map<String, Object> adoption(@PathVariable String graph) {
        Paths.name("graph", graph);
        Optional<String> current = Optional.ofNullable(definitions.currentPointers().get(graph));
        Optional<GraphRecord> adopted = definitions.graphRecord(graph);
        Optional<Refusal> refusal = Optional.ofNullable(definitions.refusals().get(graph));
        if (current.isEmpty() && adopted.isEmpty() && refusal.isEmpty()) {
            throw new ApiErrors.NotFound("graph `" + graph + "` has no published definition");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("graph", graph);
        out.put("current", current.orElse(null));
        out.put("adopted", adopted.map(r -> {
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("definition", r.definition());
            a.put("adoptedAt", Instant.ofEpochMilli(r.adoptedAtMs()).toString());
            return a;
        }).orElse(null));
        out.put("pending", current.isPresent() && !current.equals(adopted.map(GraphRecord::definition)));
        out.put("refusal", refusal.map(r -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("definition", r.hash());
            m.put("reason", r.reason());
            m.put("at", Instant.ofEpochMilli(r.atMs()).toString());
            return m;
        }).orElse(null));
        return out;
    }
}
