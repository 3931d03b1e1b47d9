package io.swale.record;

/**
 * A handled request: written once, then every retry with the same id is answered from it.
 *
 * @param replayed true when this answer comes from a record an earlier request wrote
 */
public record RequestRecord(String id, AdminRequest request, long handledAtMs, RequestOutcome outcome,
        boolean replayed) {
    public RequestRecord asReplayed() {
        return new RequestRecord(id, request, handledAtMs, outcome, true);
    }
}
