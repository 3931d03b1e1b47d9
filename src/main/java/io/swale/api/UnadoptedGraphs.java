package io.swale.api;

import io.swale.store.DefinitionStore;
import io.swale.store.DefinitionStore.Refusal;
import java.util.Optional;

/**
 * The 404 of a graph without an adopted definition says why: published and refused (with the reason), published
 * and waiting for the scheduler's sync pass, or not published at all. "Unknown" for a graph that {@code swale
 * publish} just accepted sent users looking in the wrong place.
 */
public final class UnadoptedGraphs {
    private UnadoptedGraphs() {
    }

    /** {@code what} completes "graph `g` …" when nothing was published under the name. */
    public static ApiErrors.NotFound notFound(DefinitionStore definitions, String graph, String what) {
        Optional<Refusal> refusal = Optional.ofNullable(definitions.refusals().get(graph));
        Optional<String> current = Optional.ofNullable(definitions.currentPointers().get(graph));
        if (refusal.isPresent() && current.map(refusal.get().hash()::equals).orElse(true)) {
            return new ApiErrors.NotFound("graph `" + graph + "` is published (definition " + refusal.get().hash()
                    + ") but its adoption was refused: " + refusal.get().reason());
        }
        if (current.isPresent()) {
            return new ApiErrors.NotFound("graph `" + graph + "` is published (definition " + current.get()
                    + ") and not adopted yet: the scheduler adopts it at its next sync pass (GET /api/v1/graphs/"
                    + graph + "/adoption)");
        }
        return new ApiErrors.NotFound("graph `" + graph + "` " + what);
    }
}
