package io.swale.api.archfixture;

import jakarta.validation.Valid;
import java.util.Map;

/** Breaks the validation rule on purpose: an argument marked for Bean Validation, which would check nothing. */
public final class ControllerAskingForValidation {
    public static int size(@Valid Map<String, String> body) {
        return body.size();
    }
}
