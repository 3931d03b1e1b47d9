package io.swale.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swale.task.SwaleException;
import org.junit.jupiter.api.Test;

class RequestsTest {
    @Test
    void ulidsAre26CrockfordCharactersSortingByTime() {
        RequestId a = RequestId.generate(1_700_000_000_000L);
        RequestId b = RequestId.generate(1_700_000_000_001L);
        assertThat(a.value()).matches("[0-9A-HJKMNP-TV-Z]{26}");
        assertThat(a.value().compareTo(b.value())).isNegative();
        assertThat(RequestId.generate(0).value()).startsWith("0000000000");
    }

    @Test
    void requestIdsAreValidated() {
        assertThat(RequestId.isValid("a-b_C9")).isTrue();
        assertThat(RequestId.isValid("x".repeat(64))).isTrue();
        assertThat(RequestId.isValid("x".repeat(65))).isFalse();
        assertThat(RequestId.isValid("")).isFalse();
        assertThat(RequestId.isValid("a b")).isFalse();
        assertThatThrownBy(() -> new RequestId("é")).hasMessageContaining("`é`").hasMessageContaining("[A-Za-z0-9_-]");
    }

    @Test
    void refusalsAreClassifiedBackFromTheirText() {
        assertThat(Refusals.classify(Refusals.active("g-p-n-r1"))).isEqualTo(new Refusals.Kind.Active("g-p-n-r1"));
        assertThat(Refusals.classify(Refusals.notReady("n"))).isEqualTo(new Refusals.Kind.NotReady("n"));
        assertThat(Refusals.classify(Refusals.noRecord("n"))).isEqualTo(new Refusals.Kind.NoRecord("n"));
        assertThat(Refusals.classify(Refusals.notActive("g", "p"))).isEqualTo(new Refusals.Kind.NotActive());
        assertThat(Refusals.classify(new SwaleException.UnknownGraph("g").getMessage()))
                .isEqualTo(new Refusals.Kind.Unknown());
        assertThat(Refusals.classify(new SwaleException.UnknownGraphRun("g", "p").getMessage()))
                .isEqualTo(new Refusals.Kind.Unknown());
        assertThat(Refusals.classify(new SwaleException.UnknownNode("g", "n").getMessage()))
                .isEqualTo(new Refusals.Kind.Unknown());
        assertThat(Refusals.classify("something else")).isEqualTo(new Refusals.Kind.Other());
    }
}
