package io.swale.definition;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Parse;
import org.snakeyaml.engine.v2.events.AliasEvent;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.events.NodeEvent;
import org.snakeyaml.engine.v2.events.ScalarEvent;

/**
 * Counts what a YAML text stands for before Jackson replays its aliases: one anchor of a few thousand items
 * referenced a few thousand times is a small text and gigabytes of tree ("billion laughs"). Reading only
 * the parse events costs as much as the text itself; a text over the budget is refused before any replay.
 */
final class YamlAliases {
    private YamlAliases() {}

    /**
     * What the same pass tells besides the budget: whether a scalar reads {@code <<} (a merge key, perhaps:
     * {@link YamlMerges}) and how deep its collections nest; nothing of either for a text that does not parse.
     */
    record Scan(boolean mergeKeyScalar, int depth) {}

    /** Where a collection with an anchor started, in events counted so far. */
    private record Open(String anchor, long start) {}

    static Scan check(String text, DefinitionLimits limits) {
        Map<String, Long> sizes = new HashMap<>();
        Deque<Open> open = new ArrayDeque<>();
        long aliases = 0;
        long events = 0;
        long replayed = 0;
        boolean mergeKeyScalar = false;
        int depth = 0;
        LoadSettings settings = DocumentParser.LOAD;
        try {
            for (Event e : new Parse(settings).parseString(text)) {
            switch (e.getEventId()) {
                case Alias -> {
                    aliases++;
                    if (aliases > limits.maxYamlAliases()) {
                        throw refused("more than " + limits.maxYamlAliases() + " aliases (swale.limits.yaml-aliases)");
                    }
                    String anchor = ((AliasEvent) e).getAlias().getValue();
                    long size = sizes.getOrDefault(anchor, 1L);
                    events += size;
                    replayed += size;
                }
                case MappingStart, SequenceStart -> {
                    events++;
                    open.push(new Open(((NodeEvent) e).getAnchor().map(a -> a.getValue()).orElse(null), events));
                    depth = Math.max(depth, open.size());
                }
                case MappingEnd, SequenceEnd -> {
                    events++;
                    Open o = open.pop();
                    if (o.anchor() != null) {
                        sizes.put(o.anchor(), events - o.start() + 1);
                    }
                }
                case Scalar -> {
                    events++;
                    ((NodeEvent) e).getAnchor().ifPresent(a -> sizes.put(a.getValue(), 1L));
                    mergeKeyScalar |= YamlMerges.MERGE_KEY.equals(((ScalarEvent) e).getValue());
                }
                default -> events++;
            }
            if (replayed > limits.maxYamlExpansion()) {
                throw refused("its aliases replay more than " + limits.maxYamlExpansion()
                        + " parse events (swale.limits.yaml-expansion)");
            }
            }
        } catch (DefinitionParseException refused) {
            throw refused;
        } catch (RuntimeException malformed) {
            // Jackson reads the same text next and reports the error with its own position and wording.
            return new Scan(false, depth);
        }
        return new Scan(mergeKeyScalar, depth);
    }

    private static DefinitionParseException refused(String why) {
        return new DefinitionParseException("YAML refused: " + why);
    }
}
