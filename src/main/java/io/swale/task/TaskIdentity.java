package io.swale.task;

import io.swale.graph.Partition;
import io.swale.store.RecordField;
import io.swale.store.RunKey;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/** Who a task instance is: travels with every dispatch as headers (spec §7.11). */
public record TaskIdentity(String graph, Partition partition, String node, Optional<String> asset, String definition,
        long rerun) {

    public static final String GRAPH = "swale.graph";
    public static final String PARTITION = "swale.partition";
    public static final String NODE = "swale.node";
    public static final String ASSET = "swale.asset";
    public static final String DEFINITION = "swale.definition";
    public static final String RERUN = "swale.rerun";

    public RunKey runKey() {
        return new RunKey(graph, partition);
    }

    public String runId() {
        return runKey().runId(node, rerun);
    }

    /** The node record's field: asset identity for an asset node, task identity otherwise. */
    public RecordField recordField() {
        return new RecordField(node, asset);
    }

    public Map<String, byte[]> headers() {
        Map<String, byte[]> h = new LinkedHashMap<>();
        h.put(GRAPH, bytes(graph));
        h.put(PARTITION, bytes(partition.key()));
        h.put(NODE, bytes(node));
        h.put(DEFINITION, bytes(definition));
        h.put(RERUN, bytes(Long.toString(rerun)));
        asset.ifPresent(a -> h.put(ASSET, bytes(a)));
        return h;
    }

    /** Reads the identity from headers; a missing header, bad partition or bad rerun is permanent. */
    public static TaskIdentity fromHeaders(Function<String, Optional<String>> header) {
        String graph = required(header, GRAPH);
        String partition = required(header, PARTITION);
        if (!Partition.isValid(partition)) {
            throw new SwaleException.Malformed("header `" + PARTITION + "` holds an invalid partition `" + partition + "`");
        }
        String rerun = required(header, RERUN);
        if (!isRerunCount(rerun)) {
            throw new SwaleException.Malformed("header `" + RERUN + "` is not a decimal count: `" + rerun + "`");
        }
        return new TaskIdentity(graph, Partition.of(partition), required(header, NODE), header.apply(ASSET),
                required(header, DEFINITION), Long.parseLong(rerun));
    }

    /** A rerun count as it travels in text: 1 to 18 decimal digits, so it always fits a long. */
    static boolean isRerunCount(String text) {
        int n = text.length();
        if (n == 0 || n > 18) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static String required(Function<String, Optional<String>> header, String name) {
        return header.apply(name).orElseThrow(() -> new SwaleException.Malformed("header `" + name + "` is missing"));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
