package io.swale.definition;

import io.swale.graph.MapSpec;
import io.swale.graph.Node;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The mapping keys of each node (docs/dynamic-graphs.md §3), per node in file order. */
final class MapChecks {
    private static final Pattern ONE_REFERENCE = Pattern.compile("\\s*\\{\\{\\s*([^{}|]*?)\\s*}}\\s*");
    private static final String FORM = "expected exactly one reference `{{ upstream.NODE[.path] }}` (or "
            + "`{{ nodes.NODE.output[.path] }}`) to an upstream's output holding a JSON array";

    private MapChecks() {}

    static List<Fault> check(RawDefinition d) {
        List<Fault> faults = new ArrayList<>();
        Map<String, List<String>> producers = d.producers();
        Set<String> names = d.nodeNames();
        for (int i = 0; i < d.nodes().size(); i++) {
            RawDefinition.RawMap raw = d.maps().get(i);
            if (raw == null) {
                continue;
            }
            Node n = d.nodes().get(i);
            if (raw.source().isEmpty()) {
                raw.maxMap().ifPresent(v -> faults.add(limit(n, "`max_map` is set without `map`; it would do nothing")));
                raw.maxParallel().ifPresent(v -> faults.add(limit(n, "`max_parallel` is set without `map`; it would do nothing")));
                continue;
            }
            String source = raw.source().get();
            Optional<Ref> ref = parse(source);
            if (ref.isEmpty()) {
                faults.add(Fault.ofNode(FaultKind.INVALID_MAP, n.name(), "node `" + n.name() + "`: `map` is \""
                        + shorten(source) + "\"; " + FORM));
            } else if (!d.upstreamsOf(n, producers, names).contains(ref.get().upstream())) {
                faults.add(Fault.ofNode(FaultKind.INVALID_MAP, n.name(), "node `" + n.name() + "`: `map` refers to `"
                        + ref.get().upstream() + "`, which is not an upstream of the node (" + remedy(d, n,
                        ref.get().upstream()) + ")"));
            }
            long maxMap = raw.maxMap().orElse((long) MapSpec.DEFAULT_MAX_MAP);
            if (maxMap < 1 || maxMap > MapSpec.MOST_MAX_MAP) {
                faults.add(limit(n, "`max_map` is " + maxMap + "; it must be from 1 to " + MapSpec.MOST_MAX_MAP));
            }
            raw.maxParallel().filter(p -> p < 1 || p > maxMap).ifPresent(p -> faults.add(limit(n, "`max_parallel` is "
                    + p + "; it must be from 1 to the node's max_map (" + maxMap + ")")));
        }
        return faults;
    }

    /** How the node gets that upstream: a task node names it in `after`; an asset node consumes what it produces. */
    private static String remedy(RawDefinition d, Node n, String upstream) {
        if (!n.isAsset()) {
            return "add it to `after`";
        }
        return d.nodes().stream().filter(u -> u.name().equals(upstream)).findFirst().flatMap(Node::produces)
                .map(asset -> "add `" + asset + "`, the asset it produces, to `consumes`")
                .orElse("an asset node's upstreams are the producers of what it consumes, and `" + upstream
                        + "` produces no asset");
    }

    /** The spec of the node at {@code position}, for a definition without faults. */
    static Optional<MapSpec> spec(RawDefinition d, int position) {
        RawDefinition.RawMap raw = d.maps().get(position);
        if (raw == null || raw.source().isEmpty()) {
            return Optional.empty();
        }
        Ref ref = parse(raw.source().get()).orElseThrow();
        int maxMap = raw.maxMap().orElse((long) MapSpec.DEFAULT_MAX_MAP).intValue();
        int maxParallel = raw.maxParallel().orElse((long) maxMap).intValue();
        return Optional.of(new MapSpec(raw.source().get(), ref.upstream(), ref.path(), maxMap, maxParallel));
    }

    /** Whether the node at {@code position} is mapped (its items may use `item` and `map.index`). */
    static boolean isMapped(RawDefinition d, int position) {
        RawDefinition.RawMap raw = d.maps().get(position);
        return raw != null && raw.source().isPresent();
    }

    private record Ref(String upstream, List<String> path) {}

    private static Optional<Ref> parse(String source) {
        Matcher m = ONE_REFERENCE.matcher(source);
        if (!m.matches()) {
            return Optional.empty();
        }
        List<String> segments = Arrays.asList(m.group(1).split("\\.", -1));
        if (segments.stream().anyMatch(String::isEmpty) || segments.size() < 2) {
            return Optional.empty();
        }
        if (segments.getFirst().equals("upstream")) {
            return Optional.of(new Ref(segments.get(1), segments.subList(2, segments.size())));
        }
        if (segments.getFirst().equals("nodes") && segments.size() >= 3 && segments.get(2).equals("output")) {
            return Optional.of(new Ref(segments.get(1), segments.subList(3, segments.size())));
        }
        return Optional.empty();
    }

    private static Fault limit(Node n, String why) {
        return Fault.ofNode(FaultKind.INVALID_MAP_LIMIT, n.name(), "node `" + n.name() + "`: " + why);
    }

    private static String shorten(String text) {
        return text.length() > 80 ? text.substring(0, 80) + "…" : text;
    }
}
