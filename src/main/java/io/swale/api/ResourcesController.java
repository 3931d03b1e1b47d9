package io.swale.api;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.swale.config.ResourceConfiguration;
import io.swale.settings.ResourcesProperties;
import io.swale.store.ResourceStore;
import io.swale.template.LeaseNames;
import io.swale.worker.ResourceGate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/** Named resources: capacities, who holds a lease and who waits (docs/resources.md). */
@RestController
@RequestMapping("/api/v1/resources")
@Tag(name = "resources", description = "Resources that nodes lease: capacity, holders, waiters")
public class ResourcesController {
    private final ResourceStore store;
    private final ResourceGate gate;
    private final ResourceConfiguration.DeclaredResources declared;

    public ResourcesController(ResourceStore store, ResourceGate gate, ResourceConfiguration.DeclaredResources declared) {
        this.store = store;
        this.gate = gate;
        this.declared = declared;
    }

    @GetMapping
    @Operation(summary = "Every resource declared, held or waited for: capacity, holders, waiters oldest first")
    @ApiResponse(responseCode = "200", description = "`{\"resources\": [...]}`, by name")
    public Map<String, Object> resources() {
        return Map.of("resources", store.resources().values().stream().map(ResourcesController::view).toList());
    }

    // {*name}: a resource name may hold `/` (docs/resources.md), so the name is the whole rest of the path
    @GetMapping("/{*name}")
    @Operation(summary = "One resource; a name never declared nor leased has capacity 1 and no holders")
    @ApiResponse(responseCode = "200", description = "The resource")
    @ApiResponse(responseCode = "400", ref = OpenApiConfiguration.BAD_REQUEST)
    public Map<String, Object> resource(@PathVariable String name) {
        return view(find(name(name)));
    }

    @PutMapping("/{*name}")
    @Operation(summary = "Declare a resource's capacity (`{\"capacity\": n}`, 1 to 1,000,000); holders above a "
            + "lowered capacity keep their leases")
    @ApiResponse(responseCode = "200", description = "The resource")
    @ApiResponse(responseCode = "400", ref = OpenApiConfiguration.BAD_REQUEST)
    @ApiResponse(responseCode = "401", ref = OpenApiConfiguration.UNAUTHORIZED)
    public Map<String, Object> declare(@PathVariable String name, @RequestBody(required = false) JsonNode body) {
        String resource = name(name);
        JsonNode capacity = body == null || !body.isObject() ? null : body.get("capacity");
        if (capacity == null) {
            throw new ApiErrors.BadRequest("capacity", "the body must be a JSON object `{\"capacity\": n}` for resource `"
                    + resource + "`");
        }
        if (!capacity.isIntegralNumber() || !capacity.canConvertToInt()) {
            throw new ApiErrors.BadRequest("capacity", "the capacity of resource `" + resource
                    + "` must be an integer from 1 to " + ResourcesProperties.MAX_CAPACITY + ", got " + capacity);
        }
        ResourcesProperties.capacityProblem(resource, capacity.intValue()).ifPresent(why -> {
            throw new ApiErrors.BadRequest("capacity", why);
        });
        gate.wake(store.setCapacity(resource, capacity.intValue()));
        declared.refresh();
        return view(find(resource));
    }

    private ResourceStore.Resource find(String name) {
        return store.resources().getOrDefault(name, new ResourceStore.Resource(name, 1, false, 0, List.of(), List.of()));
    }

    private static String name(String path) {
        String value = path.startsWith("/") ? path.substring(1) : path;
        var problem = LeaseNames.nameProblem(value);
        if (problem.isPresent()) {
            throw new ApiErrors.BadRequest("name", problem.get());
        }
        return value;
    }

    private static Map<String, Object> view(ResourceStore.Resource r) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", r.name());
        out.put("capacity", r.capacity());
        out.put("declared", r.declared());
        out.put("held", r.held());
        // times as everywhere in the API (interfaces §2): a lease lapses at expiresAt unless its attempt renews it
        out.put("holders", r.holders().stream().map(ResourcesController::holder).toList());
        out.put("waiting", r.waiting().stream()
                .map(w -> Map.of("runId", w.runId(), "queuedAt", RunViews.time(w.sinceMs()))).toList());
        return out;
    }

    private static Map<String, Object> holder(ResourceStore.HeldBy h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("runId", h.runId());
        // a grant without its deadline entry (being written or removed) has no time to show, not 1970
        m.put("expiresAt", h.deadlineMs() > 0 ? RunViews.time(h.deadlineMs()) : null);
        return m;
    }
}
