package io.swale.graph.archfixture;

import org.springframework.util.StringUtils;

/** Breaks the pure-core rule on purpose: a core class that reaches for Spring. */
public final class CoreUsingSpring {
    public static boolean blank(String s) {
        return !StringUtils.hasText(s);
    }
}
