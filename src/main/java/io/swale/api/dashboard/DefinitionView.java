package io.swale.api.dashboard;

import io.swale.api.ApiErrors;
import io.swale.api.RunViews;
import io.swale.record.GraphRecord;
import io.swale.store.DefinitionStore;
import io.swale.store.DefinitionStore.HistoryEntry;
import io.swale.store.DefinitionStore.Refusal;
import io.swale.store.DefinitionStore.StoredText;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * A graph's definitions as operators audit them: the source exactly as published, the adoption state (the
 * current pointer, the adopted hash, a refusal and its reason) and the history of hashes published,
 * adopted and refused.
 */
@Component
public class DefinitionView {
    /** The whole history the store keeps (RedisDefinitionStore caps it at 100). */
    static final int HISTORY = 100;
    private final DefinitionStore definitions;

    public DefinitionView(DefinitionStore definitions) {
        this.definitions = definitions;
    }

    /** The view with the source of {@code hash}, or of the current pointer when none is asked for. */
    public Map<String, Object> definition(String graph, Optional<String> hash) {
        Optional<String> current = Optional.ofNullable(definitions.currentPointers().get(graph));
        Optional<GraphRecord> adopted = definitions.graphRecord(graph);
        Optional<Refusal> refusal = Optional.ofNullable(definitions.refusals().get(graph));
        if (current.isEmpty() && adopted.isEmpty() && refusal.isEmpty()) {
            throw new ApiErrors.NotFound("graph `" + graph + "` has no published definition");
        }
        List<HistoryEntry> history = definitions.history(graph, HISTORY);
        String shown = hash.or(() -> current).or(() -> adopted.map(GraphRecord::definition)).orElseThrow();
        boolean known = shown.equals(current.orElse(null)) || shown.equals(adopted.map(GraphRecord::definition).orElse(null))
                || history.stream().anyMatch(e -> e.hash().equals(shown));
        StoredText text = (known ? definitions.text(shown) : Optional.<StoredText>empty())
                .orElseThrow(() -> new ApiErrors.NotFound("graph `" + graph + "` has no definition `" + shown + "`"));

        Map<String, Object> out = new LinkedHashMap<>();
        out.put("graph", graph);
        out.put("current", current.orElse(null));
        out.put("adopted", adopted.map(r -> {
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("definition", r.definition());
            a.put("adoptedAt", RunViews.time(r.adoptedAtMs()));
            return a;
        }).orElse(null));
        out.put("pending", current.isPresent() && !current.equals(adopted.map(GraphRecord::definition)));
        out.put("refusal", refusal.map(r -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("definition", r.hash());
            m.put("reason", r.reason());
            m.put("at", RunViews.time(r.atMs()));
            return m;
        }).orElse(null));
        Map<String, Object> source = new LinkedHashMap<>();
        source.put("hash", shown);
        source.put("format", text.format());
        source.put("text", text.text());
        out.put("source", source);
        out.put("history", history.stream().map(e -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("hash", e.hash());
            m.put("event", e.event());
            m.put("at", RunViews.time(e.atMs()));
            m.put("reason", e.reason().orElse(null));
            return m;
        }).toList());
        return out;
    }

}
