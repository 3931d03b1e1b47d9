package io.swale.definition;

import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.template.Reference;
import io.swale.template.Template;
import io.swale.template.TemplateSyntaxException;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * Warnings of a loaded definition that do not make it invalid: a {@code shell} command that templates an
 * upstream output or {@code run.summary} without {@code | sh}. Templates are not escaped, so such a value
 * runs as shell code ({@code $(…)}, backticks, a {@code '} ending a quoted string).
 */
public final class ShellWarnings {
    static final String SHELL = "shell";

    private ShellWarnings() {}

    /** One line per unquoted reference, in node order. */
    public static List<String> of(Graph graph) {
        List<String> out = new ArrayList<>();
        for (Node n : graph.nodes()) {
            JsonNode command = n.params().path("command");
            if (!n.operator().equals(SHELL) || !command.isString()) {
                continue;
            }
            Template template;
            try {
                template = Template.parse(command.asString());
            } catch (TemplateSyntaxException e) {
                continue; // a fault the loader reports
            }
            for (Reference r : template.references()) {
                unquoted(r).ifPresent(what -> out.add("node `" + n.name() + "`: `command` inserts " + what
                        + " unquoted, so its text runs as shell code; write `{{ " + what + " | sh }}`, or pass it "
                        + "through `env` or $SWALE_INPUTS"));
            }
        }
        return List.copyOf(out);
    }

    private static java.util.Optional<String> unquoted(Reference r) {
        return switch (r) {
            case Reference.Upstream u -> java.util.Optional.of("upstream." + u.node()
                    + (u.path().isEmpty() ? "" : "." + u.dottedPath()));
            case Reference.RunSummary s -> java.util.Optional.of("run.summary");
            case Reference.Item i -> java.util.Optional.of(i.path().isEmpty() ? "item" : "item." + i.dottedPath());
            default -> java.util.Optional.empty();
        };
    }
}
