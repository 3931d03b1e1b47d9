package io.swale.definition;

/**
 * What a definition may cost before any check runs: a bad or hostile text is refused early and cheaply
 * instead of exhausting the stack or the heap. Each bound is a {@code swale.limits.*} property.
 *
 * @param maxDepth tables and arrays nested in one another, the document itself being depth 1; at most
 *     {@link #MOST_DEPTH}
 * @param maxNodes {@code [[node]]} entries
 * @param maxStringLength characters of one string value
 * @param maxKeyLength characters of one key
 * @param maxYamlAliases alias references ({@code *name}) in a YAML text
 * @param maxYamlExpansion parse events the aliases of a YAML text replay, all aliases together
 * @param maxPoolNameLength characters of a pool name: it must fit a Kafka topic name with its prefix
 */
public record DefinitionLimits(
        int maxDepth, int maxNodes, int maxStringLength, int maxKeyLength, int maxYamlAliases, long maxYamlExpansion,
        int maxPoolNameLength) {

    /** What the default topic prefix leaves a pool name: 249 − `swale.pool.` − `.DLT`, as the service counts it. */
    public static final int DEFAULT_POOL_NAME_LENGTH = 249 - "swale.pool.".length() - ".DLT".length();

    public static final DefinitionLimits DEFAULT = new DefinitionLimits(32, 20_000, 65_536, 256, 100, 100_000,
            DEFAULT_POOL_NAME_LENGTH);

    /**
     * The deepest a definition may ever be: its params travel as JSON in stored task inputs and node records,
     * whose reader refuses more than 500 levels; a definition deeper than it could run would publish, then
     * fail every submission of its run.
     */
    public static final int MOST_DEPTH = 256;

    public DefinitionLimits {
        positive("maxDepth", maxDepth);
        if (maxDepth > MOST_DEPTH) {
            throw new IllegalArgumentException("maxDepth must be at most " + MOST_DEPTH + " (stored records could not"
                    + " be read back), got " + maxDepth);
        }
        positive("maxNodes", maxNodes);
        positive("maxStringLength", maxStringLength);
        positive("maxKeyLength", maxKeyLength);
        if (maxYamlAliases < 0 || maxYamlExpansion < 1) {
            throw new IllegalArgumentException("YAML alias limits must be at least 0 aliases and 1 event");
        }
        positive("maxPoolNameLength", maxPoolNameLength);
    }

    private static void positive(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be at least 1, got " + value);
        }
    }
}
