package io.swale.api.archfixture;

import java.util.Map;

/** Keeps the validation rule: it checks its input itself. */
public final class ControllerCheckingItself {
    public static int size(Map<String, String> body) {
        if (body.isEmpty()) {
            throw new IllegalArgumentException("the body names no field");
        }
        return body.size();
    }
}
