package io.swale.graph;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * One node of a graph as written in its definition. An asset node has {@code produces}; a task node
 * does not.
 *
 * @param produces the asset produced (present, possibly empty, for an asset node)
 * @param consumes assets consumed (asset nodes)
 * @param after upstream node names (task nodes)
 * @param declaredRule the trigger rule as written (task nodes; absent means all_succeeded)
 * @param params operator parameters as written; strings are templates
 * @param map what the node maps over, for a mapped node
 * @param leases names of the resources the node holds a lease on while it runs, as written (templates)
 */
public record Node(
        String name,
        Optional<String> produces,
        List<String> consumes,
        List<String> after,
        Optional<TriggerRule> declaredRule,
        String operator,
        String pool,
        long retries,
        JsonNode params,
        Optional<MapSpec> map,
        List<String> leases) {

    public static final String DEFAULT_POOL = "default";

    /** A node that is not mapped and leases nothing. */
    public Node(String name, Optional<String> produces, List<String> consumes, List<String> after,
            Optional<TriggerRule> declaredRule, String operator, String pool, long retries, JsonNode params) {
        this(name, produces, consumes, after, declaredRule, operator, pool, retries, params, Optional.empty(),
                List.of());
    }

    public Node {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(produces, "produces");
        consumes = List.copyOf(consumes);
        after = List.copyOf(after);
        Objects.requireNonNull(declaredRule, "declaredRule");
        Objects.requireNonNull(operator, "operator");
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(map, "map");
        leases = List.copyOf(leases);
    }

    /** Whether the node runs one instance per item of an upstream's array. */
    public boolean isMapped() {
        return map.isPresent();
    }

    public boolean isAsset() {
        return produces.isPresent();
    }

    /** Asset nodes always use all_succeeded; task nodes their declared rule. */
    public TriggerRule triggerRule() {
        return isAsset() ? TriggerRule.ALL_SUCCEEDED : declaredRule.orElse(TriggerRule.ALL_SUCCEEDED);
    }

    /** Attempts each step gets: retries + 1. */
    public long maxAttempts() {
        return retries + 1;
    }
}
