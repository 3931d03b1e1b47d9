package io.swale.definition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What a definition may cost: each limit refused early, as a fault or a parse error naming the property. */
class DefinitionLimitsTest {
    private static final String NODE = "[[node]]\nname = \"a\"\noperator = \"noop\"\n";

    private static List<Fault> faults(String text, DefinitionFormat format) {
        InvalidDefinitionException e = catchThrowableOfType(InvalidDefinitionException.class,
                () -> TestOperators.loader().load(text, format));
        assertThat(e).as("expected faults").isNotNull();
        return e.faults();
    }

    /** An anchor of 6,000 items referenced 6,000 times: 30 KB of text, billions of replayed events. */
    @Test
    @Timeout(5)
    void aYamlAliasBombIsRefusedBeforeItIsReplayed() {
        StringBuilder y = new StringBuilder("graph:\n  name: g\nx: &a [");
        for (int i = 0; i < 6000; i++) {
            y.append(i == 0 ? "" : ",").append('1');
        }
        y.append("]\nnode:\n- name: a\n  operator: noop\n  params:\n    l: [");
        for (int i = 0; i < 6000; i++) {
            y.append(i == 0 ? "" : ",").append("*a");
        }
        y.append("]\n");
        assertThatThrownBy(() -> TestOperators.loader().load(y.toString(), DefinitionFormat.YAML))
                .isInstanceOf(DefinitionParseException.class)
                .hasMessageContaining("swale.limits.yaml-");
    }

    @Test
    void manySmallAliasesAreBoundedByTheirCount() {
        StringBuilder y = new StringBuilder("graph:\n  name: g\nnode:\n- name: a\n  operator: noop\n  params:\n    x: &a 1\n    l: [");
        for (int i = 0; i < 101; i++) {
            y.append(i == 0 ? "" : ",").append("*a");
        }
        y.append("]\n");
        assertThatThrownBy(() -> TestOperators.loader().load(y.toString(), DefinitionFormat.YAML))
                .isInstanceOf(DefinitionParseException.class)
                .hasMessageContaining("swale.limits.yaml-aliases");
    }

    @Test
    void fewLargeAliasesAreBoundedByTheExpansion() {
        StringBuilder y = new StringBuilder("graph:\n  name: g\nnode:\n- name: a\n  operator: noop\n  params:\n    x: &a [");
        for (int i = 0; i < 20_000; i++) {
            y.append(i == 0 ? "" : ",").append('1');
        }
        y.append("]\n    l: [*a, *a, *a, *a, *a, *a]\n");
        assertThatThrownBy(() -> TestOperators.loader().load(y.toString(), DefinitionFormat.YAML))
                .isInstanceOf(DefinitionParseException.class)
                .hasMessageContaining("swale.limits.yaml-expansion");
    }

    @Test
    void aFewAliasesStillWork() {
        String y = "graph:\n  name: g\nnode:\n- name: a\n  operator: noop\n  params: &p {x: [1, 2]}\n"
                + "- name: b\n  operator: noop\n  after: [a]\n  params: *p\n";
        assertThat(TestOperators.loader().load(y, DefinitionFormat.YAML).graph().nodes()).hasSize(2);
    }

    /** TOML dotted keys thousands deep overflowed the stack in the template check. */
    @Test
    void deepDottedKeysAreAFaultNotAStackOverflow() {
        for (int depth : new int[] {40, 600, 5_000}) {
            String keys = String.join(".", java.util.Collections.nCopies(depth, "k"));
            List<Fault> f = faults("[graph]\nname = \"g\"\n" + NODE + "[node.params]\n" + keys + " = \"{{x}}\"\n",
                    DefinitionFormat.TOML);
            assertThat(f).extracting(Fault::kind).contains(FaultKind.TOO_DEEP);
            assertThat(f.getFirst().message()).contains("swale.limits.depth").hasSizeLessThan(400);
        }
    }

    @Test
    void deeplyNestedYamlIsAFaultOrAParseErrorNeverAnError() {
        String y = "graph:\n  name: g\nnode:\n- name: a\n  operator: noop\n  params:\n    x: " + "[".repeat(3000)
                + "]".repeat(3000) + "\n";
        Throwable t = catchThrowableOfType(RuntimeException.class,
                () -> TestOperators.loader().load(y, DefinitionFormat.YAML));
        assertThat(t).isInstanceOfAny(InvalidDefinitionException.class, DefinitionParseException.class);
    }

    /** snakeyaml-engine threw IndexOutOfBoundsException (a 500) when a surrogate pair crossed its buffer's end. */
    @Test
    void longEmojiStringsInYamlAreRead() {
        String emoji = "\uD83D\uDE00".repeat(1100);
        for (String value : new String[] {"\"" + emoji + "\"", emoji, "'" + emoji + "'"}) {
            String y = "graph:\n  name: g\nnode:\n- name: a\n  operator: noop\n  params:\n    x: " + value + "\n";
            Definition d = TestOperators.loader().load(y, DefinitionFormat.YAML);
            assertThat(d.graph().nodes().getFirst().params().get("x").asString()).isEqualTo(emoji);
        }
    }

    @Test
    void tooManyNodesLongStringsAndKeysAreFaults() {
        DefinitionLoader small = new DefinitionLoader(TestOperators.registry(), CronCheck.FIVE_FIELDS,
                new DefinitionLimits(32, 2, 10, 16, 100, 100_000, 200));
        String toml = "[graph]\nname = \"g\"\n" + NODE.replace("\"a\"", "\"b\"") + NODE.replace("\"a\"", "\"c\"")
                + NODE + "[node.params]\nthis_key_is_longer_than_sixteen = \"0123456789ab\"\n";
        InvalidDefinitionException e = catchThrowableOfType(InvalidDefinitionException.class,
                () -> small.load(toml, DefinitionFormat.TOML));
        assertThat(e.faults()).extracting(Fault::kind).contains(FaultKind.TOO_MANY_NODES, FaultKind.STRING_TOO_LONG,
                FaultKind.KEY_TOO_LONG);
    }

    /** A pool is part of two Kafka topic names; one that cannot be a topic was stored and then broke the API. */
    @Test
    void aPoolThatCannotNameATopicIsAFault() {
        String longPool = "p".repeat(240);
        List<Fault> f = faults("[graph]\nname = \"g\"\n" + NODE + "pool = \"" + longPool + "\"\n", DefinitionFormat.TOML);
        assertThat(f).extracting(Fault::kind).containsExactly(FaultKind.INVALID_POOL_NAME);
        assertThat(faults("[graph]\nname = \"g\"\n" + NODE + "pool = \"a/b\"\n", DefinitionFormat.TOML))
                .extracting(Fault::kind).containsExactly(FaultKind.INVALID_POOL_NAME);
        assertThat(TestOperators.loader().load("[graph]\nname = \"g\"\n" + NODE + "pool = \"gpu-2.x\"\n",
                DefinitionFormat.TOML).graph().nodes()).hasSize(1);
        // what the service allows with the default prefix swale. (234) loads by default too, as validate uses it
        assertThat(TestOperators.loader().load("[graph]\nname = \"g\"\n" + NODE + "pool = \"" + "p".repeat(234)
                + "\"\n", DefinitionFormat.TOML).graph().nodes()).hasSize(1);
        assertThat(faults("[graph]\nname = \"g\"\n" + NODE + "pool = \"" + "p".repeat(235) + "\"\n",
                DefinitionFormat.TOML)).extracting(Fault::kind).containsExactly(FaultKind.INVALID_POOL_NAME);
    }

    @Test
    void theLimitsRefuseNonsense() {
        assertThatThrownBy(() -> new DefinitionLimits(0, 1, 1, 1, 1, 1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Duration.ZERO).isZero();
    }
}
