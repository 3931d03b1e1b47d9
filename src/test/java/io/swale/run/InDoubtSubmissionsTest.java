package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Partition;
import io.swale.task.TaskIdentity;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InDoubtSubmissionsTest {
    private static final TaskIdentity A = new TaskIdentity("g", Partition.of("p"), "a", Optional.empty(), "h", 0);

    @Test
    void aSubmissionInDoubtIsAnsweredOnceWithinItsMaxAge() {
        InDoubtSubmissions inDoubt = new InDoubtSubmissions();
        inDoubt.failed(List.of(A), 0);
        assertThat(inDoubt.answered(A, InDoubtSubmissions.MAX_AGE_NANOS)).isTrue();
        assertThat(inDoubt.answered(A, InDoubtSubmissions.MAX_AGE_NANOS)).isFalse();
    }

    @Test
    void anOldOneOrOneCreatedSinceIsNoLongerInDoubt() {
        InDoubtSubmissions inDoubt = new InDoubtSubmissions();
        inDoubt.failed(List.of(A), 0);
        assertThat(inDoubt.answered(A, InDoubtSubmissions.MAX_AGE_NANOS + 1)).isFalse();
        inDoubt.failed(List.of(A), 0);
        inDoubt.created(A);
        assertThat(inDoubt.answered(A, 1)).isFalse();
    }
}
