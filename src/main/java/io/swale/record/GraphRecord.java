package io.swale.record;

/** The adoption of a graph: which definition runs when the graph is started or fires. */
public record GraphRecord(String definition, long adoptedAtMs) {}
