package io.swale.bench;

import java.util.ArrayList;
import java.util.List;

/** The bench's graphs, as TOML: noop task nodes joined by {@code after}. */
final class Shapes {
    private Shapes() {}

    /** n nodes in a line. */
    static String chain(String g, int n) {
        Toml t = new Toml(g);
        for (int i = 0; i < n; i++) {
            t.node("n" + i, i == 0 ? List.of() : List.of("n" + (i - 1)));
        }
        return t.text();
    }

    /** 1 → n → 1. */
    static String fanout(String g, int n) {
        Toml t = new Toml(g);
        t.node("source", List.of());
        List<String> middle = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            t.node("m" + i, List.of("source"));
            middle.add("m" + i);
        }
        t.node("sink", middle);
        return t.text();
    }

    /** n independent roots. */
    static String wide(String g, int n) {
        Toml t = new Toml(g);
        for (int i = 0; i < n; i++) {
            t.node("w" + i, List.of());
        }
        return t.text();
    }

    /** Ten nodes, two diamonds in a row: a → b,c → d → e,f,g,h → i → j. */
    static String diamond(String g) {
        Toml t = new Toml(g);
        t.node("a", List.of());
        t.node("b", List.of("a"));
        t.node("c", List.of("a"));
        t.node("d", List.of("b", "c"));
        for (String m : List.of("e", "f", "g", "h")) {
            t.node(m, List.of("d"));
        }
        t.node("i", List.of("e", "f", "g", "h"));
        t.node("j", List.of("i"));
        return t.text();
    }

    private static final class Toml {
        private final StringBuilder s = new StringBuilder();

        Toml(String graph) {
            s.append("[graph]\nname = \"").append(graph).append("\"\n");
        }

        void node(String name, List<String> after) {
            s.append("[[node]]\nname = \"").append(name).append("\"\noperator = \"noop\"\n");
            if (!after.isEmpty()) {
                s.append("after = [");
                for (int i = 0; i < after.size(); i++) {
                    s.append(i == 0 ? "" : ", ").append('"').append(after.get(i)).append('"');
                }
                s.append("]\n");
            }
            s.append("[node.params]\nnode = \"").append(name).append("\"\n");
        }

        String text() {
            return s.toString();
        }
    }
}
