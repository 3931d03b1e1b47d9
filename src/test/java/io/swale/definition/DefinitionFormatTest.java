package io.swale.definition;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DefinitionFormatTest {

    @Test
    void fromFileName() {
        assertThat(DefinitionFormat.fromFileName("orders.toml")).isEqualTo(DefinitionFormat.TOML);
        assertThat(DefinitionFormat.fromFileName("orders.yaml")).isEqualTo(DefinitionFormat.YAML);
        assertThat(DefinitionFormat.fromFileName("dir/orders.YML")).isEqualTo(DefinitionFormat.YAML);
        assertThat(DefinitionFormat.fromFileName("orders")).isEqualTo(DefinitionFormat.TOML);
        assertThat(DefinitionFormat.isDefinitionFileName("a.yml")).isTrue();
        assertThat(DefinitionFormat.isDefinitionFileName("a.txt")).isFalse();
    }

    @Test
    void fromContentType() {
        assertThat(DefinitionFormat.fromContentType("application/yaml")).isEqualTo(DefinitionFormat.YAML);
        assertThat(DefinitionFormat.fromContentType("application/x-yaml")).isEqualTo(DefinitionFormat.YAML);
        assertThat(DefinitionFormat.fromContentType("Text/YAML; charset=utf-8")).isEqualTo(DefinitionFormat.YAML);
        assertThat(DefinitionFormat.fromContentType("application/toml")).isEqualTo(DefinitionFormat.TOML);
        assertThat(DefinitionFormat.fromContentType("text/plain")).isEqualTo(DefinitionFormat.TOML);
        assertThat(DefinitionFormat.fromContentType("")).isEqualTo(DefinitionFormat.TOML);
    }

    @Test
    void cronChecks() {
        assertThat(CronCheck.FIVE_FIELDS.problem("0 2 * * *")).isEmpty();
        assertThat(CronCheck.FIVE_FIELDS.problem("  0\t2 * *  * ")).isEmpty();
        assertThat(CronCheck.FIVE_FIELDS.problem("0 2 * * * *")).hasValueSatisfying(m -> assertThat(m).contains("6"));
        assertThat(CronCheck.FIVE_FIELDS.problem("")).hasValueSatisfying(m -> assertThat(m).contains("0"));
        assertThat(CronCheck.ACCEPT_ALL.problem("anything")).isEmpty();
    }
}
