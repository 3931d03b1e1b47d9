package io.swale.template;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Templates inside operator params: every string at any depth is one. Object keys are visited in
 * lexical order and array elements by index, so problems and render errors come in a stable order.
 */
public final class ParamsTemplates {
    private ParamsTemplates() {}

    /** Template problems of {@code params} for a node whose upstreams are {@code upstreams}. */
    public static List<TemplateProblem> check(JsonNode params, Set<String> upstreams) {
        return check(params, upstreams, false);
    }

    /** As above, for a node that is {@code mapped} (its params may use {@code item} and {@code map.index}) or not. */
    public static List<TemplateProblem> check(JsonNode params, Set<String> upstreams, boolean mapped) {
        List<TemplateProblem> problems = new ArrayList<>();
        checkValue(params, "", upstreams, mapped, problems);
        return List.copyOf(problems);
    }

    /** The upstream names the valid templates of {@code params} refer to, at any depth. */
    public static Set<String> referencedUpstreams(JsonNode params) {
        Set<String> out = new java.util.TreeSet<>();
        collectUpstreams(params, out);
        return out;
    }

    private static void collectUpstreams(JsonNode value, Set<String> out) {
        if (value.isString()) {
            out.addAll(Template.upstreamsOf(value.asString()));
        } else if (value.isContainer()) {
            value.values().forEach(v -> collectUpstreams(v, out));
        }
    }

    /** A copy of {@code params} with every string rendered; other values keep their types. */
    public static JsonNode render(JsonNode params, RenderContext ctx) {
        return renderValue(params, "", new ReferenceRenderer(ctx));
    }

    private static void checkValue(JsonNode value, String path, Set<String> upstreams, boolean mapped,
            List<TemplateProblem> out) {
        if (value.isString()) {
            checkString(value.asString(), path, upstreams, mapped, out);
        } else if (value.isObject()) {
            sortedEntries(value).forEach((k, v) -> checkValue(v, join(path, k), upstreams, mapped, out));
        } else if (value.isArray()) {
            for (int i = 0; i < value.size(); i++) {
                checkValue(value.get(i), join(path, Integer.toString(i)), upstreams, mapped, out);
            }
        }
    }

    private static void checkString(String text, String path, Set<String> upstreams, boolean mapped,
            List<TemplateProblem> out) {
        Template template;
        try {
            template = Template.parse(text);
        } catch (TemplateSyntaxException e) {
            out.add(new TemplateProblem(TemplateProblem.Kind.INVALID_TEMPLATE, path, e.getMessage()));
            return;
        }
        for (String node : template.upstreamNodes()) {
            if (!upstreams.contains(node)) {
                out.add(new TemplateProblem(TemplateProblem.Kind.UNKNOWN_UPSTREAM, path,
                        "`upstream." + node + "` refers to `" + node + "`, which is not an upstream of the node"));
            }
        }
        if (!mapped && template.references().stream().map(Reference::unfiltered)
                .anyMatch(r -> r instanceof Reference.Item || r instanceof Reference.MapIndex)) {
            out.add(new TemplateProblem(TemplateProblem.Kind.ITEM_OUTSIDE_MAP, path,
                    "`item` and `map.index` are set only in a mapped node (one with `map`)"));
        }
    }

    private static JsonNode renderValue(JsonNode value, String path, ReferenceRenderer renderer) {
        if (value.isString()) {
            return JsonNodeFactory.instance.stringNode(renderString(value.asString(), path, renderer));
        }
        if (value.isObject()) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            sortedEntries(value).forEach((k, v) -> out.set(k, renderValue(v, join(path, k), renderer)));
            return out;
        }
        if (value.isArray()) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            for (int i = 0; i < value.size(); i++) {
                out.add(renderValue(value.get(i), join(path, Integer.toString(i)), renderer));
            }
            return out;
        }
        return value;
    }

    private static String renderString(String text, String path, ReferenceRenderer renderer) {
        try {
            StringBuilder out = new StringBuilder();
            for (Part part : Template.parse(text).parts()) {
                switch (part) {
                    case Part.Literal l -> out.append(l.text());
                    case Reference r -> out.append(renderer.render(r));
                }
            }
            return out.toString();
        } catch (TemplateSyntaxException | RenderException e) {
            throw new RenderException("parameter `" + path + "`: " + e.getMessage());
        }
    }

    private static Map<String, JsonNode> sortedEntries(JsonNode object) {
        TreeMap<String, JsonNode> sorted = new TreeMap<>();
        for (Map.Entry<String, JsonNode> e : object.properties()) {
            sorted.put(e.getKey(), e.getValue());
        }
        return sorted;
    }

    private static String join(String path, String segment) {
        return path.isEmpty() ? segment : path + "." + segment;
    }
}
