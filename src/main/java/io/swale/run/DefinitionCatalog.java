package io.swale.run;

import io.swale.definition.Definition;
import io.swale.definition.DefinitionFormat;
import io.swale.definition.DefinitionLoader;
import io.swale.definition.DefinitionParseException;
import io.swale.definition.InvalidDefinitionException;
import io.swale.graph.Node;
import io.swale.store.DefinitionStore.StoredText;
import io.swale.store.DefinitionStore;
import io.swale.task.SwaleException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checked definitions by hash. A definition never changes once stored, so each is loaded once per process
 * and cached.
 */
public final class DefinitionCatalog {
    private static final Logger log = LoggerFactory.getLogger(DefinitionCatalog.class);
    // a check and a move take a millisecond or two: only a burst of publishes overtakes one this often
    private static final int PUBLISH_ATTEMPTS = 64;

    /** The result of a publish: {@code changed} is false when the graph already pointed at this hash. */
    public record Published(String graph, String hash, boolean changed, Definition definition) {}

    private final DefinitionStore store;
    private final DefinitionLoader loader;
    private final DefinitionLoader publishing;
    private final Map<String, Definition> cache = new ConcurrentHashMap<>();
    private final Set<String> unloadable = ConcurrentHashMap.newKeySet();

    public DefinitionCatalog(DefinitionStore store, DefinitionLoader loader) {
        this(store, loader, loader);
    }

    /**
     * As above; {@code publishing} checks what is published, whether by request, from the definitions folder or
     * as a growth (in strict resource mode, a literal lease needs a declared capacity: docs/resources.md), where
     * {@code loader} loads what is stored, whatever capacities are declared now.
     */
    public DefinitionCatalog(DefinitionStore store, DefinitionLoader loader, DefinitionLoader publishing) {
        this.store = store;
        this.loader = loader;
        this.publishing = publishing;
    }

    public DefinitionLoader loader() {
        return loader;
    }

    /** The loader that checks a new publication (see the constructor). */
    public DefinitionLoader publishingLoader() {
        return publishing;
    }

    /**
     * The checked definition of {@code hash}; UnknownDefinition when the store lacks it, and
     * {@link UnloadableDefinitionException} when its stored text no longer loads or is not that hash's.
     */
    public Definition get(String hash) {
        Definition cached = cache.get(hash);
        if (cached != null) {
            return cached;
        }
        StoredText text = store.text(hash).orElseThrow(() -> new SwaleException.UnknownDefinition(hash));
        Definition d;
        try {
            d = loader.load(text.text().getBytes(StandardCharsets.UTF_8), format(text.format()));
        } catch (DefinitionParseException | InvalidDefinitionException e) {
            // what a publish answers for bad text, said of a stored one, would not name it
            throw new UnloadableDefinitionException(hash, e);
        }
        if (!d.hash().equals(hash)) {
            throw new UnloadableDefinitionException(hash,
                    new IllegalStateException("its text hashes to `" + d.hash() + "`"));
        }
        cache.put(hash, d);
        return d;
    }

    /**
     * The checked definition of {@code hash}; empty when the store lacks it, and when its text no longer loads
     * (limits lowered since it was stored, say), which is logged once per hash. A graph whose recorded definition
     * does not load does not count as adopted (spec §4.5), and must not fail the sync pass or a view of every
     * other graph; {@link #get} still says why.
     */
    public Optional<Definition> find(String hash) {
        // the loader and its limits are fixed for the process: a text that failed once fails again
        if (unloadable.contains(hash)) {
            return Optional.empty();
        }
        try {
            return Optional.of(get(hash));
        } catch (SwaleException.UnknownDefinition e) {
            return Optional.empty();
        } catch (UnloadableDefinitionException e) {
            if (unloadable.add(hash)) {
                log.warn("stored definition no longer loads, its graph is left out definition={} error={}", hash,
                        e.getCause().getMessage());
            }
            return Optional.empty();
        }
    }

    /** Stores the text under its hash without moving any pointer. */
    public Definition put(byte[] text, DefinitionFormat format) {
        Definition d = loader.load(text, format);
        store.putText(d.hash(), new StoredText(d.text(), format.name().toLowerCase()));
        cache.put(d.hash(), d);
        return d;
    }

    /**
     * Loads with the publishing loader, checks the assets against every other graph with a current pointer, stores
     * the text and moves the pointer (spec §1.9).
     */
    public Published publish(byte[] text, DefinitionFormat format) {
        return publish(text, format, d -> { });
    }

    /**
     * Publishes with a step between the checks and the store: {@code beforeStore} prepares what the definition
     * needs (its pools' topics) and, by throwing, leaves nothing stored. A publish that another overtook, and that
     * its second check refuses, leaves its text stored but no pointer at it (texts are immutable, by hash).
     */
    public Published publish(byte[] text, DefinitionFormat format, java.util.function.Consumer<Definition> beforeStore) {
        return publish(publishing.load(text, format), format, beforeStore);
    }

    /** As above, for a definition the publishing loader has already loaded from text of {@code format}. */
    public Published publish(Definition d, DefinitionFormat format) {
        return publish(d, format, loaded -> { });
    }

    private Published publish(Definition d, DefinitionFormat format, java.util.function.Consumer<Definition> beforeStore) {
        String graph = d.graph().name();
        boolean stored = false;
        for (int attempt = 0; attempt < PUBLISH_ATTEMPTS; attempt++) {
            SortedMap<String, String> pointers = store.currentPointers();
            refuseAssetConflicts(d, pointers);
            if (!stored) {
                beforeStore.accept(d);
                store.putText(d.hash(), new StoredText(d.text(), format.name().toLowerCase()));
                cache.put(d.hash(), d);
                stored = true;
            }
            // another publish that moved a pointer since the read may produce one of this graph's assets: check again
            switch (store.movePointer(graph, d.hash(), pointers)) {
                case MOVED -> {
                    return new Published(graph, d.hash(), true, d);
                }
                case UNCHANGED -> {
                    return new Published(graph, d.hash(), false, d);
                }
                case STALE -> { }
            }
        }
        throw new SwaleException.PublishContended(graph);
    }

    private void refuseAssetConflicts(Definition d, SortedMap<String, String> pointers) {
        String graph = d.graph().name();
        for (Map.Entry<String, String> other : pointers.entrySet()) {
            if (other.getKey().equals(graph)) {
                continue;
            }
            // a missing definition is skipped (spec §1.9), and so, unlike the spec, is one that no longer loads (logged
            // once): with two such graphs, the publish that mends either would fail on the other, and no request
            // removes a pointer, so nothing could be published again
            Optional<Definition> otherDef = find(other.getValue());
            if (otherDef.isEmpty()) {
                continue;
            }
            for (Node n : d.graph().nodes()) {
                if (n.produces().isPresent()) {
                    String asset = n.produces().get();
                    boolean clash = otherDef.get().graph().nodes().stream()
                            .anyMatch(o -> o.produces().filter(asset::equals).isPresent());
                    if (clash) {
                        throw new SwaleException.AssetConflict(n.name(), asset, other.getKey());
                    }
                }
            }
        }
    }

    private static DefinitionFormat format(String stored) {
        return "yaml".equals(stored) ? DefinitionFormat.YAML : DefinitionFormat.TOML;
    }
}
