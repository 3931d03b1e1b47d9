package io.swale.definition;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.snakeyaml.engine.v2.api.Dump;
import org.snakeyaml.engine.v2.api.DumpSettings;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.StreamDataWriter;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.common.NonPrintableStyle;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * Reads a YAML text as its node tree and writes it out again as plain YAML for Jackson: merge keys resolved, aliases
 * replaced by what they stand for, every mapping's keys checked for duplicates with their line in the text as
 * written. Jackson's own replaying parser wrote merged keys in where the merge key stood, so an override read as a
 * duplicate key, a key written before the merge was overwritten by it, and a quoted {@code "<<"} key, which is
 * text, was merged too. Merge keys follow YAML 1.1: only an unquoted {@code <<} is one, a mapping's own keys win over
 * merged ones, and of a merged list the earlier mappings win over the later.
 */
final class YamlMerges {
    static final String MERGE_KEY = "<<";
    // YamlAliases bounds the aliases first, with the limits configured; the composer's own default (50) would not
    private static final LoadSettings COMPOSE = LoadSettings.builder()
            .setBufferSize(DocumentParser.LOAD.getBufferSize())
            .setCodePointLimit(DocumentParser.LOAD.getCodePointLimit())
            .setMaxAliasesForCollections(Integer.MAX_VALUE)
            .build();
    private static final DumpSettings DUMP = DumpSettings.builder()
            .setDereferenceAliases(true)
            .setNonPrintableStyle(NonPrintableStyle.ESCAPE)
            .setWidth(Integer.MAX_VALUE)
            .setSplitLines(false)
            .build();

    private YamlMerges() {}

    /**
     * The text of {@code text}'s tree with merges resolved and no aliases. Empty, so that Jackson's replaying parser
     * reads or reports the text as written, when {@code scan} found no scalar that reads {@code <<} (the common
     * case: a heredoc's {@code <<EOF} in a command does not count), when it nests deeper than {@code limits} allow
     * (refused by depth either way), or when snakeyaml-engine cannot build its tree (a syntax error, several
     * documents, a structure that contains itself).
     *
     * @throws DefinitionParseException for a duplicate key, a merge key on something other than mappings, or a
     *     tree whose text, aliases written out, would be longer than Jackson reads
     */
    static Optional<String> resolve(String text, YamlAliases.Scan scan, DefinitionLimits limits) {
        if (!scan.mergeKeyScalar() || scan.depth() > limits.maxDepth() + 1) {
            return Optional.empty();
        }
        Optional<Node> root;
        try {
            root = new Compose(COMPOSE).composeString(text);
        } catch (RuntimeException malformed) {
            return Optional.empty();
        }
        if (root.isEmpty()) {
            return Optional.empty();
        }
        new Merger().visit(root.get());
        BoundedText out = new BoundedText(DocumentParser.LOAD.getCodePointLimit());
        try {
            new Dump(DUMP).dumpNode(root.get(), out);
        } catch (BoundedText.Full full) {
            // each alias written out is a copy: a small text can stand for gigabytes
            throw new DefinitionParseException("YAML refused: with its aliases and merge keys written out, the text"
                    + " is longer than " + out.limit + " characters");
        } catch (RuntimeException recursive) {
            return Optional.empty();
        }
        return Optional.of(out.text.toString());
    }

    private static final class BoundedText implements StreamDataWriter {
        static final class Full extends RuntimeException {
            Full() {
                super(null, null, false, false);
            }
        }

        final StringBuilder text = new StringBuilder();
        final int limit;

        BoundedText(int limit) {
            this.limit = limit;
        }

        @Override
        public void write(String s) {
            write(s, 0, s.length());
        }

        @Override
        public void write(String s, int off, int len) {
            if (text.length() + len > limit) {
                throw new Full();
            }
            text.append(s, off, off + len);
        }
    }

    /** Walks the tree once, children first, so a merged mapping's own merges are resolved before it is merged. */
    private static final class Merger {
        private final Map<Node, Boolean> done = new IdentityHashMap<>();

        void visit(Node node) {
            if (done.putIfAbsent(node, Boolean.FALSE) != null) {
                return;
            }
            switch (node) {
                case MappingNode map -> {
                    for (NodeTuple t : map.getValue()) {
                        visit(t.getKeyNode());
                        visit(t.getValueNode());
                    }
                    resolveMerges(map);
                }
                case SequenceNode seq -> seq.getValue().forEach(this::visit);
                default -> {}
            }
            done.put(node, Boolean.TRUE);
        }

        private void resolveMerges(MappingNode map) {
            Set<String> own = new HashSet<>();
            for (NodeTuple t : map.getValue()) {
                if (!isMergeKey(t.getKeyNode()) && t.getKeyNode() instanceof ScalarNode key
                        && !own.add(key.getValue())) {
                    throw malformed("Duplicate Object property \"" + key.getValue() + "\"", key);
                }
            }
            if (map.getValue().stream().noneMatch(t -> isMergeKey(t.getKeyNode()))) {
                return;
            }
            Set<String> present = new HashSet<>(own);
            List<NodeTuple> result = new ArrayList<>();
            boolean mergeSeen = false;
            for (NodeTuple t : map.getValue()) {
                if (!isMergeKey(t.getKeyNode())) {
                    result.add(t);
                    continue;
                }
                if (mergeSeen) {
                    throw malformed("Duplicate Object property \"" + MERGE_KEY + "\"", t.getKeyNode());
                }
                mergeSeen = true;
                for (MappingNode source : sources(t)) {
                    for (NodeTuple inherited : source.getValue()) {
                        if (!(inherited.getKeyNode() instanceof ScalarNode key) || present.add(key.getValue())) {
                            result.add(inherited);
                        }
                    }
                }
            }
            map.setValue(result);
        }

        private List<MappingNode> sources(NodeTuple merge) {
            Node value = merge.getValueNode();
            List<Node> candidates = value instanceof SequenceNode seq ? seq.getValue() : List.of(value);
            List<MappingNode> sources = new ArrayList<>();
            for (Node candidate : candidates) {
                if (!(candidate instanceof MappingNode source)) {
                    throw malformed("the merge key `<<` takes a mapping or a list of mappings", merge.getKeyNode());
                }
                if (done.get(source) == Boolean.FALSE) {
                    throw malformed("the merge key `<<` refers to a mapping that contains it", merge.getKeyNode());
                }
                sources.add(source);
            }
            return sources;
        }

        private static boolean isMergeKey(Node key) {
            return key instanceof ScalarNode s && s.isPlain() && MERGE_KEY.equals(s.getValue());
        }

        private static DefinitionParseException malformed(String why, Node at) {
            String where = at.getStartMark()
                    .map((Mark m) -> " (line " + (m.getLine() + 1) + ", column " + (m.getColumn() + 1) + ")")
                    .orElse("");
            return new DefinitionParseException("malformed YAML: " + why + where);
        }
    }
}
