package io.swale.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code leases} of a node (docs/resources.md): resource names, each a template over the references of
 * params. Checked at publish, rendered per task instance before its claim.
 */
public final class LeaseNames {
    /** At most this many names per node. */
    public static final int MAX_LEASES = 16;
    private static final int NAME_MAX = 128;
    /** What a name's first character may be, and what any other may be besides. */
    private static final String FIRST = "A-Za-z0-9";
    private static final String LATER = "._:/-";
    private static final Pattern NAME = Pattern.compile("[" + FIRST + "][" + FIRST + LATER + "]{0," + (NAME_MAX - 1)
            + "}");
    private static final Pattern FIRST_CHAR = Pattern.compile("[" + FIRST + "]");
    private static final Pattern LATER_CHAR = Pattern.compile("[" + FIRST + LATER + "]");
    /**
     * An empty, `.` or `..` segment between slashes, which the API's path (the name as written,
     * `/api/v1/resources/db/main`) cannot carry since the server normalises or refuses it, or a slash at the end,
     * which would name a second resource `db/` beside `db`.
     */
    private static final Pattern BAD_SEGMENT = Pattern.compile("/(\\.{0,2})(/|$)");
    /** How much of a rendered name that is not one a message quotes. */
    private static final int SHOWN = 64;
    /** What a name may hold, for messages. */
    public static final String SYNTAX = "a resource name is a letter or digit, then letters, digits, `.`, `_`, `:`, "
            + "`/` or `-`, 128 characters at most, and none of its `/`-separated segments is empty, `.` or `..`";

    private LeaseNames() {}

    private static String abbreviated(String text) {
        return text.length() > 2 * SHOWN ? text.substring(0, SHOWN) + "…" : text;
    }

    public static boolean validName(String name) {
        return NAME.matcher(name).matches() && !BAD_SEGMENT.matcher(name).find();
    }

    /** Why {@code name} is not a resource name, or empty when it is one. */
    public static Optional<String> nameProblem(String name) {
        return validName(name) ? Optional.empty() : Optional.of("invalid resource name `" + name + "`: " + SYNTAX);
    }

    /**
     * The problems of a node's lease templates, each naming the template: syntax, upstreams, the shell filter,
     * literal names that are not resource names, duplicates and the count.
     */
    public static List<String> check(List<String> leases, Set<String> upstreams) {
        List<String> out = new ArrayList<>();
        if (leases.size() > MAX_LEASES) {
            out.add("`leases` lists " + leases.size() + " names, more than " + MAX_LEASES);
        }
        Set<String> seen = new LinkedHashSet<>();
        for (String text : leases) {
            if (!seen.add(text)) {
                out.add("lease `" + text + "` is listed twice");
            }
            Template t;
            try {
                t = Template.parse(text);
            } catch (TemplateSyntaxException e) {
                out.add("lease `" + text + "`: " + e.getMessage());
                continue;
            }
            if (t.isLiteral()) {
                nameProblem(text).ifPresent(out::add);
                continue;
            }
            fixedTextProblem(text, t).ifPresent(out::add);
            for (Reference r : t.references()) {
                if (r instanceof Reference.ShellQuoted) {
                    out.add("lease `" + text + "`: the `sh` filter quotes shell words; a resource name is not one");
                }
            }
            for (String node : t.upstreamNodes()) {
                if (!upstreams.contains(node)) {
                    out.add("lease `" + text + "`: `upstream." + node + "` refers to `" + node
                            + "`, which is not an upstream of the node");
                }
            }
        }
        return out;
    }

    /**
     * Why a template's fixed text means that no rendering of it is a resource name: a character no name holds, a
     * start that is no letter or digit, or more fixed text than a name's length. Found at publish, not at every run.
     */
    private static Optional<String> fixedTextProblem(String text, Template t) {
        List<Part> parts = t.parts();
        int fixed = 0;
        for (int i = 0; i < parts.size(); i++) {
            if (!(parts.get(i) instanceof Part.Literal literal)) {
                continue;
            }
            String chars = literal.text();
            fixed += chars.length();
            for (int j = 0; j < chars.length(); j++) {
                char c = chars.charAt(j);
                boolean first = i == 0 && j == 0;
                if (!(first ? FIRST_CHAR : LATER_CHAR).matcher(String.valueOf(c)).matches()) {
                    return Optional.of("lease `" + abbreviated(text) + "`: no name it renders to is a resource name,"
                            + (first ? " since it starts with " : " since it holds ") + "`" + c + "`: " + SYNTAX);
                }
            }
        }
        // a segment that is wrong whatever the references render to: one written whole in a piece of fixed text
        for (int i = 0; i < parts.size(); i++) {
            if (parts.get(i) instanceof Part.Literal literal) {
                var m = BAD_SEGMENT.matcher(literal.text());
                while (m.find()) {
                    if (m.group(2).equals("/") || i == parts.size() - 1) {
                        return Optional.of("lease `" + abbreviated(text) + "`: no name it renders to is a resource "
                                + "name, since it holds `" + m.group() + "`: " + SYNTAX);
                    }
                }
            }
        }
        if (fixed > NAME_MAX) {
            return Optional.of("lease `" + abbreviated(text) + "`: its fixed text alone is " + fixed
                    + " characters: " + SYNTAX);
        }
        return Optional.empty();
    }

    /**
     * The lease templates that refer to {@code item} or {@code map.index}, which only a mapped node's instances
     * set; a template that does not parse is left to {@link #check}.
     */
    public static List<String> itemReferences(List<String> leases) {
        return leases.stream().filter(text -> {
            try {
                return Template.parse(text).references().stream().map(Reference::unfiltered)
                        .anyMatch(r -> r instanceof Reference.Item || r instanceof Reference.MapIndex);
            } catch (TemplateSyntaxException e) {
                return false;
            }
        }).distinct().toList();
    }

    /** The upstream names the valid lease templates refer to. */
    public static Set<String> referencedUpstreams(List<String> leases) {
        Set<String> out = new java.util.TreeSet<>();
        leases.forEach(text -> out.addAll(Template.upstreamsOf(text)));
        return out;
    }

    /** Literal names (no reference), which can be checked against the declared resources at publish. */
    public static List<String> literals(List<String> leases) {
        return leases.stream().filter(text -> {
            try {
                return Template.parse(text).isLiteral();
            } catch (TemplateSyntaxException e) {
                return false;
            }
        }).toList();
    }

    /**
     * The names for one task instance, each once, in the order written.
     *
     * @throws RenderException naming the template when one cannot be rendered or renders to a bad name
     */
    public static List<String> render(List<String> leases, RenderContext ctx) {
        return List.copyOf(new LinkedHashSet<>(renderEach(leases, ctx).values()));
    }

    /**
     * Each template's name for one task instance, in the order written (two templates may name one resource).
     *
     * @throws RenderException naming the template when one cannot be rendered or renders to a bad name
     */
    public static Map<String, String> renderEach(List<String> leases, RenderContext ctx) {
        ReferenceRenderer renderer = new ReferenceRenderer(ctx);
        Map<String, String> names = new LinkedHashMap<>();
        for (String text : leases) {
            StringBuilder out = new StringBuilder();
            boolean cut = false;
            try {
                for (Part part : Template.parse(text).parts()) {
                    // no name is longer than 128 characters: a reference repeated thousands of times is not
                    // rendered in full on the dispatch listener's thread
                    if (out.length() > NAME_MAX) {
                        cut = true;
                        break;
                    }
                    switch (part) {
                        case Part.Literal l -> out.append(l.text());
                        case Reference r -> out.append(renderer.render(r));
                    }
                }
            } catch (TemplateSyntaxException | RenderException e) {
                throw new RenderException("lease `" + text + "`: " + e.getMessage());
            }
            String name = out.toString();
            if (!validName(name)) {
                // quoted in the instance's error: a rendered text of a few hundred KB is cut, with its length
                String shown = name.length() > SHOWN ? name.substring(0, SHOWN) + "… (" + (cut ? "more than "
                        + NAME_MAX : name.length()) + " characters)" : name;
                throw new RenderException("lease `" + abbreviated(text) + "` renders to `" + shown + "`: " + SYNTAX);
            }
            names.put(text, name);
        }
        return names;
    }
}
