package io.swale.store;

import io.swale.record.GraphRecord;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;

/** Definition texts by hash, the current pointer of each graph, graph records (adoption) and refusals. */
public interface DefinitionStore {
    /** A definition text as published, with the format it was written in. */
    record StoredText(String text, String format) {}

    /** Why the adoption of a published definition was refused. */
    record Refusal(String hash, String reason, long atMs) {}

    /**
     * One step in a graph's definition history: {@code published} (the pointer moved to the hash),
     * {@code adopted}, or {@code refused} with the reason.
     */
    record HistoryEntry(String hash, String event, long atMs, Optional<String> reason) {}

    void putText(String hash, StoredText text);

    Optional<StoredText> text(String hash);

    /** Graph name → hash, in name order. */
    SortedMap<String, String> currentPointers();

    /**
     * Moves the pointer whatever the other graphs' pointers (no asset check: tools and tests); true when it was absent
     * or held another hash.
     */
    default boolean movePointer(String graph, String hash) {
        while (true) {
            switch (movePointer(graph, hash, currentPointers())) {
                case MOVED -> {
                    return true;
                }
                case UNCHANGED -> {
                    return false;
                }
                case STALE -> { }
            }
        }
    }

    /** What a conditional move did: {@code STALE} when a pointer moved since they were read, nothing written then. */
    enum PointerMove { MOVED, UNCHANGED, STALE }

    /**
     * Moves the pointer only while every graph's pointer is as {@code asRead}, in one atomic step: a publish checks
     * its assets against the pointers it read (spec §1.9), and one that ran meanwhile may have changed them.
     */
    PointerMove movePointer(String graph, String hash, SortedMap<String, String> asRead);

    SortedMap<String, GraphRecord> graphRecords();

    Optional<GraphRecord> graphRecord(String graph);

    void putGraphRecord(String graph, GraphRecord record);

    void putRefusal(String graph, Refusal refusal);

    void clearRefusal(String graph);

    SortedMap<String, Refusal> refusals();

    /** The graph's definition history, newest first, at most {@code limit} entries (the store keeps a capped list). */
    default List<HistoryEntry> history(String graph, int limit) {
        return List.of();
    }
}
