package io.swale.it;

/** Definitions the integration tests publish; asset names carry the graph name so graphs never clash. */
final class Graphs {
    private Graphs() {}

    /** n noop asset nodes in a line. */
    static String chain(String g, int n) {
        StringBuilder s = new StringBuilder("[graph]\nname = \"" + g + "\"\n");
        for (int i = 0; i < n; i++) {
            s.append("[[node]]\nname = \"n").append(i).append("\"\nproduces = \"").append(g).append("_n").append(i)
                    .append("\"\noperator = \"noop\"\n");
            if (i > 0) {
                s.append("consumes = [\"").append(g).append("_n").append(i - 1).append("\"]\n");
            }
            s.append("[node.params]\ni = ").append(i).append("\n");
        }
        return s.toString();
    }

    /** flaky exits 3 until a file exists; after_flaky needs it; always runs after it whatever happened. */
    static String failing(String g, String fixedFile) {
        return """
                [graph]
                name = "%1$s"
                [[node]]
                name = "flaky"
                produces = "%1$s_flaky"
                operator = "shell"
                [node.params]
                command = "test -f '%2$s' || { echo 'not yet' >&2; exit 3; }; printf '{}'"
                [[node]]
                name = "after_flaky"
                produces = "%1$s_after"
                consumes = ["%1$s_flaky"]
                operator = "noop"
                [[node]]
                name = "always"
                after = ["flaky"]
                trigger_rule = "all_done"
                operator = "noop"
                """.formatted(g, fixedFile);
    }

    /** a → b → c (assets), report after c with all_done. */
    static String diamondWithReport(String g) {
        return """
                [graph]
                name = "%1$s"
                [[node]]
                name = "a"
                produces = "%1$s_a"
                operator = "noop"
                [[node]]
                name = "b"
                produces = "%1$s_b"
                consumes = ["%1$s_a"]
                operator = "noop"
                [[node]]
                name = "c"
                produces = "%1$s_c"
                consumes = ["%1$s_b"]
                operator = "noop"
                [[node]]
                name = "report"
                after = ["c"]
                trigger_rule = "all_done"
                operator = "noop"
                """.formatted(g);
    }

    /** slow sleeps, next follows it. */
    static String slowThenNext(String g, int seconds) {
        return """
                [graph]
                name = "%1$s"
                [[node]]
                name = "slow"
                produces = "%1$s_slow"
                operator = "shell"
                [node.params]
                command = "sleep %2$d; printf '{}'"
                [[node]]
                name = "next"
                produces = "%1$s_next"
                consumes = ["%1$s_slow"]
                operator = "noop"
                """.formatted(g, seconds);
    }

    /** A daily graph: one noop asset node, or a failing shell node when {@code fail}. */
    static String daily(String g, boolean fail) {
        return """
                [graph]
                name = "%1$s"
                partition = "daily"
                [[node]]
                name = "only"
                produces = "%1$s_only"
                operator = "%2$s"
                %3$s
                """.formatted(g, fail ? "shell" : "noop",
                fail ? "[node.params]\ncommand = \"echo broken >&2; exit 4\"" : "");
    }
}
