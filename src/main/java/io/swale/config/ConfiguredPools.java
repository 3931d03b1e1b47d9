package io.swale.config;

import io.swale.run.PoolCatalog;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Pools from {@code swale.pools.<name>.slots}; {@code default} always exists. */
public final class ConfiguredPools implements PoolCatalog {
    private static final Logger log = LoggerFactory.getLogger(ConfiguredPools.class);
    private static final Pattern NAME = Pattern.compile("[a-z0-9_]+");

    private final Map<String, Integer> pools = new ConcurrentHashMap<>();
    private final int defaultSlots;
    private final boolean autoCreate;
    private final List<BiConsumer<String, Integer>> listeners = new ArrayList<>();

    /** Whether {@code name} can be a configured pool's name (spec §9), which a definition's pool may not be. */
    public static boolean isPoolName(String name) {
        return NAME.matcher(name).matches();
    }

    public ConfiguredPools(Map<String, Integer> configured, int defaultSlots, boolean autoCreate) {
        if (defaultSlots < 1) {
            throw new IllegalArgumentException("swale.default-slots must be at least 1, got " + defaultSlots);
        }
        this.defaultSlots = defaultSlots;
        this.autoCreate = autoCreate;
        pools.put("default", defaultSlots);
        configured.forEach((name, slots) -> {
            if (!isPoolName(name)) {
                throw new IllegalArgumentException("pool `" + name + "`: a pool name matches [a-z0-9_]+");
            }
            if (slots < 1) {
                throw new IllegalArgumentException("pool `" + name + "`: slots must be at least 1, got " + slots);
            }
            pools.put(name, slots);
        });
    }

    @Override
    public boolean isConfigured(String pool) {
        return pools.containsKey(pool);
    }

    /** Whether a definition naming {@code pool} gets it served: configured, or created on demand. */
    public boolean willServe(String pool) {
        return pools.containsKey(pool) || (autoCreate && isPoolName(pool));
    }

    @Override
    public Map<String, Integer> pools() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(new java.util.TreeMap<>(pools)));
    }

    @Override
    public void ensure(Set<String> names) {
        if (!autoCreate) {
            return;
        }
        for (String name : names) {
            if (isPoolName(name) && pools.putIfAbsent(name, defaultSlots) == null) {
                log.info("created pool pool={} slots={}", name, defaultSlots);
                try {
                    synchronized (listeners) {
                        listeners.forEach(l -> l.accept(name, defaultSlots));
                    }
                } catch (RuntimeException e) {
                    // not kept: a pool no worker was started for would pass as served; the next ensure tries again
                    pools.remove(name, defaultSlots);
                    throw e;
                }
            }
        }
    }

    /** Called for every pool created on demand after start-up. */
    public void onCreated(BiConsumer<String, Integer> listener) {
        synchronized (listeners) {
            listeners.add(listener);
        }
    }
}
