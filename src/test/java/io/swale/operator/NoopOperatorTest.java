package io.swale.operator;

import static io.swale.operator.TestAttempts.attempt;
import static io.swale.operator.TestAttempts.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class NoopOperatorTest {
    private final NoopOperator operator = new NoopOperator();

    @Test
    void succeedsWithItsRenderedParams() {
        assertThat(operator.execute(attempt(json("{\"a\": [1, {\"b\": \"20260915\"}]}")).build()))
                .isEqualTo(new OperatorResult.Succeeded(json("{\"a\": [1, {\"b\": \"20260915\"}]}")));
    }

    @Test
    void acceptsAnyParamsTableButNothingElse() {
        assertThatCode(() -> operator.checkParams(json("{\"anything\": {\"goes\": true}}"))).doesNotThrowAnyException();
        assertThatCode(() -> operator.checkParams(json("{}"))).doesNotThrowAnyException();
        assertThatThrownBy(() -> operator.checkParams(json("[1]")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("table");
        assertThatThrownBy(() -> operator.checkParams(json("\"x\"")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("string");
    }
}
