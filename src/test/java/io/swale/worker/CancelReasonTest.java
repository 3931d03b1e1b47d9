package io.swale.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.operator.Cancellation;
import org.junit.jupiter.api.Test;

class CancelReasonTest {
    @Test
    void theFirstReasonWinsAndOperatorsSeeItsMessage() {
        Cancellation c = new Cancellation();
        assertThat(c.reason()).isEmpty();
        c.cancel(CancelReason.RUN_CANCELLED);
        c.cancel(CancelReason.GIVEN_BACK);
        assertThat(c.isCancelledFor(CancelReason.RUN_CANCELLED)).isTrue();
        assertThat(c.isCancelledFor(CancelReason.GIVEN_BACK)).isFalse();
        assertThat(c.reason()).isEqualTo("the graph run was cancelled");
    }

    @Test
    void aReasonGivenAsTextIsNoneOfTheWorkers() {
        Cancellation c = new Cancellation();
        c.cancel(CancelReason.GIVEN_BACK.message());
        assertThat(c.isCancelled()).isTrue();
        assertThat(c.isCancelledFor(CancelReason.GIVEN_BACK)).isFalse();
    }
}
