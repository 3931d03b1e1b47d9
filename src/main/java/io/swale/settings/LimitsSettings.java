package io.swale.settings;

import static io.swale.settings.PropertyChecks.atLeast;
import static io.swale.settings.PropertyChecks.present;

import io.swale.definition.DefinitionLimits;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * {@code swale.limits.*}: what one request may cost, refused with a 4xx before any work is done.
 *
 * @param bodySize The largest request body (a definition, a start or backfill request).
 * @param depth Tables and arrays nested in one another in a definition (the document is depth 1); at most 256.
 * @param nodes Nodes in one definition.
 * @param stringLength Characters of one string value in a definition.
 * @param keyLength Characters of one key in a definition.
 * @param yamlAliases Alias references in one YAML definition.
 * @param yamlExpansion Parse events the aliases of one YAML definition may replay, all together.
 * @param startPartitions Partitions in one start request (a backfill and a start trigger are bounded the same).
 */
public record LimitsSettings(
        @DefaultValue("1MB") DataSize bodySize,
        @DefaultValue("32") int depth,
        @DefaultValue("20000") int nodes,
        @DefaultValue("65536") int stringLength,
        @DefaultValue("256") int keyLength,
        @DefaultValue("100") int yamlAliases,
        @DefaultValue("100000") int yamlExpansion,
        @DefaultValue("5000") int startPartitions) {

    public LimitsSettings {
        present("swale.limits.body-size", bodySize);
        if (bodySize.toBytes() < 1024 || bodySize.toBytes() > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("swale.limits.body-size must be between 1KB and 2GB, got " + bodySize);
        }
        atLeast("swale.limits.depth", depth, 4);
        if (depth > DefinitionLimits.MOST_DEPTH) {
            throw new IllegalArgumentException("swale.limits.depth must be at most "
                    + DefinitionLimits.MOST_DEPTH
                    + ": a deeper definition would publish, then its task inputs could not be read back; got " + depth);
        }
        atLeast("swale.limits.nodes", nodes, 1);
        atLeast("swale.limits.string-length", stringLength, 1);
        atLeast("swale.limits.key-length", keyLength, 16);
        atLeast("swale.limits.yaml-aliases", yamlAliases, 0);
        atLeast("swale.limits.yaml-expansion", yamlExpansion, 100);
        atLeast("swale.limits.start-partitions", startPartitions, 1);
    }
}
