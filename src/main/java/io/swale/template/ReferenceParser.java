package io.swale.template;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/** Reads the trimmed inner text of one {@code {{ … }}} into a {@link Reference}. */
final class ReferenceParser {
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final String FORMS =
            "expected `partition`, `run.id`, `run.summary`, `env.NAME`, `upstream.NODE[.path]`, or in a mapped node `item[.path]` and `map.index`";

    static final String SHELL_FILTER = "sh";

    private ReferenceParser() {}

    /** {@code REF} or {@code REF | FILTER}; {@code sh} is the one filter. */
    static Reference parse(String inner) {
        int bar = inner.indexOf('|');
        if (bar < 0) {
            return parseUnfiltered(inner);
        }
        String filter = inner.substring(bar + 1).strip();
        if (!filter.equals(SHELL_FILTER)) {
            throw invalid(inner, "unknown filter `" + filter + "`; the one filter is `" + SHELL_FILTER
                    + "` (quote as one shell word)");
        }
        return new Reference.ShellQuoted(parseUnfiltered(inner.substring(0, bar).strip()));
    }

    private static Reference parseUnfiltered(String inner) {
        if (inner.isEmpty()) {
            throw invalid(inner, "the reference is empty; " + FORMS);
        }
        switch (inner) {
            case "partition" -> {
                return new Reference.PartitionKey();
            }
            case "run.id" -> {
                return new Reference.RunId();
            }
            case "run.summary" -> {
                return new Reference.RunSummary();
            }
            case "item" -> {
                return new Reference.Item(List.of());
            }
            case "map.index" -> {
                return new Reference.MapIndex();
            }
            default -> {
                // fall through to the prefixed forms
            }
        }
        if (inner.startsWith("env.")) {
            String name = inner.substring("env.".length());
            if (ENV_NAME.matcher(name).matches()) {
                return new Reference.Env(name);
            }
            throw invalid(inner, "`env.` must be followed by one name matching [A-Za-z_][A-Za-z0-9_]*");
        }
        if (inner.startsWith("upstream.")) {
            // limit -1 keeps trailing empty segments so `upstream.a.` is rejected
            List<String> segments = Arrays.asList(inner.substring("upstream.".length()).split("\\.", -1));
            if (segments.stream().anyMatch(String::isEmpty)) {
                throw invalid(inner, "`upstream.` must be followed by a node name and a path without empty segments");
            }
            return new Reference.Upstream(segments.getFirst(), segments.subList(1, segments.size()));
        }
        if (inner.startsWith("item.")) {
            List<String> path = Arrays.asList(inner.substring("item.".length()).split("\\.", -1));
            if (path.stream().anyMatch(String::isEmpty)) {
                throw invalid(inner, "`item.` must be followed by a path without empty segments");
            }
            return new Reference.Item(path);
        }
        throw invalid(inner, FORMS);
    }

    private static TemplateSyntaxException invalid(String inner, String why) {
        return new TemplateSyntaxException("invalid reference `" + inner + "`: " + why);
    }
}
