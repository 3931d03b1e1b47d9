package io.swale.run;

import java.util.Map;
import java.util.Set;

/** The pools this installation knows, with their slots per worker. */
public interface PoolCatalog {
    boolean isConfigured(String pool);

    /** Name → slots. */
    Map<String, Integer> pools();

    /**
     * Called for the pools a published definition names. In the local profile a missing pool is created
     * with the default slots; elsewhere nothing happens and adoption refuses the definition.
     */
    void ensure(Set<String> pools);
}
