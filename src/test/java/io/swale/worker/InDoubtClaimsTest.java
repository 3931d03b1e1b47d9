package io.swale.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Partition;
import io.swale.task.TaskIdentity;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InDoubtClaimsTest {
    private static final long MAX_AGE = 60_000_000_000L;

    @Test
    void aClaimInDoubtIsAskedAgainUnderItsIdAndANewOneGetsANewId() {
        InDoubtClaims claims = new InDoubtClaims(MAX_AGE);
        TaskIdentity a = identity("a");
        String first = claims.claimIdFor(a);
        claims.failed(List.of(a), List.of(first), 0);
        assertThat(claims.claimIdFor(a)).isEqualTo(first);
        assertThat(claims.claimIdFor(a)).isNotEqualTo(first);
    }

    @Test
    void theGrantOfAClaimInDoubtIsAskedForAgainUntilTheClaimIsAskedAgain() {
        InDoubtClaims claims = new InDoubtClaims(MAX_AGE);
        TaskIdentity a = identity("a");
        TaskIdentity b = identity("b");
        claims.failed(List.of(a, b), List.of(claims.claimIdFor(a), claims.claimIdFor(b)),
                List.of(Optional.of("grant-a"), Optional.empty()), 0);
        assertThat(claims.grantIdFor(a, 1)).contains("grant-a");
        assertThat(claims.grantIdFor(a, 2)).as("still there: its dispatch may wait in line first").contains("grant-a");
        assertThat(claims.grantIdFor(b, 2)).isEmpty();
        claims.claimIdFor(a);
        assertThat(claims.grantIdFor(a, 3)).isEmpty();
    }

    /** Claims that keep failing keep a grant for one grant max age from the first failure, not for ever. */
    @Test
    void aGrantIsAskedForAgainOnlyWithinItsMaxAgeFromWhenItWasFirstKept() {
        InDoubtClaims claims = new InDoubtClaims(MAX_AGE, 100);
        TaskIdentity a = identity("a");
        String claimId = claims.claimIdFor(a);
        claims.failed(List.of(a), List.of(claimId), List.of(Optional.of("g")), 0);
        assertThat(claims.grantIdFor(a, 60)).contains("g");
        // asked again under it, and failed again
        claims.failed(List.of(a), List.of(claims.claimIdFor(a)), List.of(Optional.of("g")), 60);
        assertThat(claims.grantIdFor(a, 100)).contains("g");
        assertThat(claims.grantIdFor(a, 101)).isEmpty();
        assertThat(claims.claimIdFor(a)).as("the claim id stays in doubt").isEqualTo(claimId);
    }

    /**
     * Taken when the dispatches cannot come back: each kept grant once, none whose claim was asked again (it may back
     * a running attempt), and the claim ids stay in doubt.
     */
    @Test
    void keptGrantsAreTakenOnceAndTheirClaimIdsStay() {
        InDoubtClaims claims = new InDoubtClaims(MAX_AGE);
        TaskIdentity a = identity("a");
        TaskIdentity b = identity("b");
        TaskIdentity c = identity("c");
        String claimA = claims.claimIdFor(a);
        claims.failed(List.of(a, b, c), List.of(claimA, claims.claimIdFor(b), claims.claimIdFor(c)),
                List.of(Optional.of("grant-a"), Optional.of("grant-b"), Optional.empty()), 0);
        claims.claimIdFor(b);

        assertThat(claims.takeGrants(runId -> !runId.equals(a.runId()))).as("not asked for").isEmpty();
        assertThat(claims.takeGrants(runId -> true)).isEqualTo(java.util.Map.of(a.runId(), "grant-a"));
        assertThat(claims.takeGrants(runId -> true)).isEmpty();
        assertThat(claims.grantIdFor(a, 1)).isEmpty();
        assertThat(claims.claimIdFor(a)).isEqualTo(claimA);
    }

    @Test
    void anEntryOlderThanItsMaxAgeIsForgotten() {
        InDoubtClaims claims = new InDoubtClaims(MAX_AGE);
        TaskIdentity a = identity("a");
        TaskIdentity b = identity("b");
        String idA = claims.claimIdFor(a);
        claims.failed(List.of(a), List.of(idA), 0);
        claims.failed(List.of(b), List.of(claims.claimIdFor(b)), MAX_AGE + 1);
        assertThat(claims.claimIdFor(a)).isNotEqualTo(idA);
    }

    @Test
    void aRestartedWorkerNumbersItsClaimsApartFromItsPredecessor() {
        TaskIdentity a = identity("a");
        String predecessor = new InDoubtClaims(MAX_AGE).claimIdFor(a);
        String successor = new InDoubtClaims(MAX_AGE).claimIdFor(a);
        assertThat(successor).isNotEqualTo(predecessor);
    }

    private static TaskIdentity identity(String node) {
        return new TaskIdentity("g", Partition.of("20260101"), node, Optional.empty(), "def", 0);
    }
}
