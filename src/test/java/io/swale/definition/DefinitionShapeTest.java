package io.swale.definition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Parse errors (§1.6 step 2): malformed text or the wrong shape stop loading before any fault check. */
class DefinitionShapeTest {
    private static final String NODE = "[[node]]\nname = \"a\"\noperator = \"noop\"\n";

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            unknown top-level key       | [graph]\\nname = "g"\\nnodes = []\\n                        | unknown key `nodes`
            unknown graph key           | [graph]\\nname = "g"\\ntimezone = "UTC"\\n                 | unknown key `timezone`
            unknown node key            | [graph]\\nname = "g"\\n[[node]]\\nname = "a"\\noperator = "noop"\\nretry = 1\\n | unknown key `retry`
            missing graph               | [[node]]\\nname = "a"\\noperator = "noop"\\n                | missing required key `graph`
            missing graph name          | [graph]\\nschedule = "0 2 * * *"\\n                         | missing required key `name`
            missing node name           | [graph]\\nname = "g"\\n[[node]]\\noperator = "noop"\\n      | missing required key `name`
            missing operator            | [graph]\\nname = "g"\\n[[node]]\\nname = "a"\\n             | missing required key `operator`
            graph is not a table        | graph = "g"\\n                                               | must be a table
            node is not an array        | [graph]\\nname = "g"\\n[node]\\nname = "a"\\n               | `node` must be an array
            name of wrong type          | [graph]\\nname = 5\\n                                         | `name` must be a string
            consumes not an array       | [graph]\\nname = "g"\\n[[node]]\\nname = "a"\\noperator = "noop"\\nconsumes = "x"\\n | `consumes` must be an array of strings
            after of wrong element type | [graph]\\nname = "g"\\n[[node]]\\nname = "a"\\noperator = "noop"\\nafter = [1]\\n | `after[0]` must be a string
            params not a table          | [graph]\\nname = "g"\\n[[node]]\\nname = "a"\\noperator = "noop"\\nparams = "x"\\n | `params` must be a table
            pool of wrong type          | [graph]\\nname = "g"\\n[[node]]\\nname = "a"\\noperator = "noop"\\npool = true\\n | `pool` must be a string
            pool as a TOML date         | [graph]\\nname = "g"\\n[[node]]\\nname = "a"\\noperator = "noop"\\npool = 2026-09-15\\n | `pool` must be a string, found the TOML date or time 2026-09-15
            graph name as a TOML time   | [graph]\\nname = 07:00:00\\n                                  | `name` must be a string, found the TOML date or time 07:00:00
            after holding a TOML date   | [graph]\\nname = "g"\\n[[node]]\\nname = "a"\\noperator = "noop"\\nafter = [2026-09-15]\\n | `after[0]` must be a string
            catchup as a TOML time      | [graph]\\nname = "g"\\nschedule = "0 2 * * *"\\ncatchup = 07:00:00\\n | `catchup` must be a string
            a TOML date in params       | [graph]\\nname = "g"\\n[[node]]\\nname = "a"\\noperator = "noop"\\n[node.params]\\nsince = 2026-09-15\\n | `params.since` is the TOML date or time 2026-09-15
            a TOML date-time in args    | [graph]\\nname = "g"\\n[[node]]\\nname = "a"\\noperator = "noop"\\n[node.params]\\nargs = ["--at", 1979-05-27T07:32:00Z]\\n | `params.args[1]` is the TOML date or time 1979-05-27T07:32:00Z
            the first of two dates      | [graph]\\nname = "g"\\n[[node]]\\nname = "a"\\noperator = "noop"\\n[node.params]\\nsince = 2026-09-14\\nuntil = 2026-09-15\\n | `params.since` is the TOML date or time 2026-09-14
            an invalid TOML date        | [graph]\\nname = "g"\\n[[node]]\\nname = "a"\\noperator = "noop"\\npool = 2026-02-30\\n | line 6
            bad partition               | [graph]\\nname = "g"\\npartition = "weekly"\\n               | "weekly"
            bad trigger rule            | [graph]\\nname = "g"\\n[[node]]\\nname = "a"\\noperator = "noop"\\ntrigger_rule = "always"\\n | "always"
            retries as a string         | [graph]\\nname = "g"\\n[[node]]\\nname = "a"\\noperator = "noop"\\nretries = "3"\\n | unsigned 32-bit
            negative retries            | [graph]\\nname = "g"\\n[[node]]\\nname = "a"\\noperator = "noop"\\nretries = -1\\n | unsigned 32-bit
            retries above u32           | [graph]\\nname = "g"\\n[[node]]\\nname = "a"\\noperator = "noop"\\nretries = 4294967296\\n | 4294967296
            fractional retries          | [graph]\\nname = "g"\\n[[node]]\\nname = "a"\\noperator = "noop"\\nretries = 1.0\\n | unsigned 32-bit
            malformed toml              | [graph\\nname = "g"\\n                                        | malformed TOML
            duplicate key               | [graph]\\nname = "g"\\nname = "h"\\n                          | Duplicate key (line
            """)
    void shapeErrors(String what, String escapedToml, String expected) {
        String toml = escapedToml.replace("\\n", "\n");
        assertThatThrownBy(() -> TestOperators.loader().load(toml, DefinitionFormat.TOML))
                .as(what)
                .isInstanceOf(DefinitionParseException.class)
                .hasMessageContaining(expected);
    }

    // 19-digit integers: the TOML parser of jackson-dataformat-toml 3.1.4 kept only some of their digits
    @Test
    void integersOfNineteenDigitsLoadUnchanged() {
        Definition d = TestOperators.loader().load("[graph]\nname = \"g\"\n" + NODE
                + "[node.params]\nsince_ns = 1757894400123456789\nmost = 9223372036854775807\nleast = -9223372036854775808\n",
                DefinitionFormat.TOML);
        var params = d.graph().nodes().getFirst().params();
        assertThat(params.get("since_ns").asLong()).isEqualTo(1_757_894_400_123_456_789L);
        assertThat(params.get("most").asLong()).isEqualTo(Long.MAX_VALUE);
        assertThat(params.get("least").asLong()).isEqualTo(Long.MIN_VALUE);
        assertThatThrownBy(() -> TestOperators.loader().load("[graph]\nname = \"g\"\n" + NODE
                + "retries = 1000000000000000001\n", DefinitionFormat.TOML))
                .isInstanceOf(DefinitionParseException.class).hasMessageContaining("retries");
    }

    /** TOML 1.0: an integer that cannot be held losslessly in 64 bits is an error; it loaded as a BigInteger. */
    @Test
    void anIntegerWiderThan64BitsIsAParseErrorWhereverItIs() {
        for (String value : new String[] {"9223372036854775808", "-9223372036854775809", "0xFFFFFFFFFFFFFFFFF",
                "0o7777777777777777777777", "[1, {x = 99999999999999999999}]"}) {
            assertThatThrownBy(() -> TestOperators.loader().load("[graph]\nname = \"g\"\n" + NODE
                    + "[node.params]\nn = " + value + "\n", DefinitionFormat.TOML))
                    .as(value).isInstanceOf(DefinitionParseException.class)
                    .hasMessageContaining("does not fit in 64 bits").hasMessageContaining("node[0].params.n");
        }
        // Jackson reads 16 hex digits as a BigInteger whatever their value: in range, they load
        Definition d = TestOperators.loader().load("[graph]\nname = \"g\"\n" + NODE + "[node.params]\n"
                + "most = 0x7FFFFFFFFFFFFFFF\nzeros = 0x00000000DEADBEEF\noctal = 0o0000000000000000000000017\n"
                + "binary = 0b" + "0".repeat(60) + "101\n", DefinitionFormat.TOML);
        var params = d.graph().nodes().getFirst().params();
        assertThat(params.get("most").asLong()).isEqualTo(Long.MAX_VALUE);
        assertThat(params.get("zeros").asLong()).isEqualTo(0xDEADBEEFL);
        assertThat(params.get("octal").asLong()).isEqualTo(15);
        assertThat(params.get("binary").asLong()).isEqualTo(5);
    }

    /** A file saved with Windows line ends: its multi-line strings hold the same text as with Unix ones (TOML 1.0). */
    @Test
    void aMultiLineStringOfAFileWithWindowsLineEndsHoldsPlainNewLines() {
        String unix = "[graph]\nname = \"g\"\n" + NODE + "[node.params]\ncommand = \"\"\"\nset -e\n./load.sh\"\"\"\n"
                + "literal = \'\'\'\na\nb\'\'\'\nfolded = \"\"\"\\\n  one \\\n  two\"\"\"\n";
        String windows = unix.replace("\n", "\r\n");
        Definition d = TestOperators.loader().load(windows, DefinitionFormat.TOML);
        var params = d.graph().nodes().getFirst().params();
        assertThat(params.get("command").asString()).isEqualTo("set -e\n./load.sh");
        assertThat(params.get("literal").asString()).isEqualTo("a\nb");
        assertThat(params.get("folded").asString()).isEqualTo("one two");
        assertThat(params).isEqualTo(TestOperators.loader().load(unix, DefinitionFormat.TOML).graph().nodes().getFirst()
                .params());
        // the text and the hash stay the file's own
        assertThat(d.text()).isEqualTo(windows);
        assertThat(d.hash()).isEqualTo(DefinitionHash.of(windows.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    @Test
    void largestRetriesIsAccepted() {
        Definition d = TestOperators.loader().load("[graph]\nname = \"g\"\n" + NODE + "retries = 4294967295\n",
                DefinitionFormat.TOML);
        assertThat(d.graph().nodes().getFirst().retries()).isEqualTo(4_294_967_295L);
    }

    @Test
    void defaults() {
        Definition d = TestOperators.loader().load("[graph]\nname = \"g\"\n" + NODE, DefinitionFormat.TOML);
        var graph = d.graph();
        assertThat(graph.schedule()).isEmpty();
        assertThat(graph.catchup()).isEmpty();
        assertThat(graph.partitioning()).isEqualTo(io.swale.graph.Partitioning.NONE);
        var node = graph.nodes().getFirst();
        assertThat(node.produces()).isEmpty();
        assertThat(node.consumes()).isEmpty();
        assertThat(node.after()).isEmpty();
        assertThat(node.declaredRule()).isEmpty();
        assertThat(node.pool()).isEqualTo("default");
        assertThat(node.retries()).isZero();
        assertThat(node.params().isObject()).isTrue();
        assertThat(node.params().isEmpty()).isTrue();
    }

    @Test
    void emptyProducesMakesAnAssetNode() {
        InvalidDefinitionException e = org.assertj.core.api.Assertions.catchThrowableOfType(
                InvalidDefinitionException.class, () -> TestOperators.loader().load(
                        "[graph]\nname = \"g\"\n" + NODE + "produces = \"\"\ntrigger_rule = \"all_done\"\n",
                        DefinitionFormat.TOML));
        assertThat(e.faults()).extracting(Fault::kind)
                .containsExactly(FaultKind.ASSET_NODE_TRIGGER_RULE, FaultKind.INVALID_ASSET_NAME);
    }

    @Test
    void invalidUtf8IsAParseError() {
        byte[] bytes = {'[', 'g', 'r', 'a', 'p', 'h', ']', '\n', (byte) 0xC3, (byte) 0x28};
        assertThatThrownBy(() -> TestOperators.loader().load(bytes, DefinitionFormat.TOML))
                .isInstanceOf(DefinitionParseException.class)
                .hasMessageContaining("UTF-8");
    }

    @Test
    void emptyDocumentsLackTheGraph() {
        for (DefinitionFormat format : DefinitionFormat.values()) {
            assertThatThrownBy(() -> TestOperators.loader().load("", format))
                    .isInstanceOf(DefinitionParseException.class)
                    .hasMessageContaining("graph");
        }
    }

    @Test
    void unreadableFileNamesTheCause(@TempDir Path dir) {
        Path missing = dir.resolve("missing.toml");
        assertThatThrownBy(() -> TestOperators.loader().load(missing))
                .isInstanceOf(DefinitionParseException.class)
                .hasMessageContaining("missing.toml")
                .hasMessageContaining("NoSuchFileException");
    }

    @Test
    void filesLoadInTheFormatOfTheirName(@TempDir Path dir) throws Exception {
        Path yaml = java.nio.file.Files.writeString(dir.resolve("g.yaml"),
                "graph:\n  name: g\nnode:\n  - name: a\n    operator: noop\n");
        assertThat(TestOperators.loader().load(yaml).graph().name()).isEqualTo("g");
    }

    @Test
    void parseErrorsPrecedeFaults() {
        assertThatThrownBy(() -> TestOperators.loader().load("[graph]\nname = \"Bad\"\nextra = 1\n", DefinitionFormat.TOML))
                .isInstanceOf(DefinitionParseException.class)
                .hasMessageContaining("`extra`");
    }
}
