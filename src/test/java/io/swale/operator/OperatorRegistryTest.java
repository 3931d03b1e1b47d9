package io.swale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OperatorRegistryTest {
    @Test
    void builtInHoldsTheSpecOperatorsAndNoop() {
        OperatorRegistry registry = OperatorRegistry.builtIn();
        assertThat(registry.all()).extracting(Operator::name)
                .containsExactlyInAnyOrder("http", "object_exists", "shell", "subprocess", "noop");
        assertThat(registry.find("http")).containsInstanceOf(HttpOperator.class);
        assertThat(registry.find("object_exists")).containsInstanceOf(ObjectExistsOperator.class);
        assertThat(registry.all()).noneMatch(Operator::checkOnly);
        assertThat(registry.find("sql")).isEmpty();
    }
}
