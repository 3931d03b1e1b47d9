package io.swale.api;

import io.swale.record.AdminRequest;
import io.swale.record.RequestOutcome;
import io.swale.record.RequestRecord;
import io.swale.request.Refusals;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * The HTTP answer to a handled request, computed from its record alone: the first answer and every replay
 * with the same Idempotency-Key are the same.
 */
final class RequestAnswers {
    static final String REQUEST_ID_HEADER = "Swale-Request-Id";
    static final String REPLAYED_HEADER = "Idempotent-Replayed";

    private RequestAnswers() {}

    static ResponseEntity<Object> of(RequestRecord r) {
        Object body;
        HttpStatus status = HttpStatus.OK;
        switch (r.outcome()) {
            case RequestOutcome.Started s -> body = map("started", s.partitions().stream().map(p -> p.key()).toList());
            case RequestOutcome.Rerun x -> {
                Map<String, Object> m = map("outcome", "submitted");
                m.put("runId", x.runId());
                body = m;
            }
            case RequestOutcome.Cancelled c -> body = map("cancelled", true);
            case RequestOutcome.Refused f -> {
                ProblemDetail p = refusal(r.request(), f.reason());
                status = HttpStatus.valueOf(p.getStatus());
                body = p;
            }
        }
        if (body instanceof Map<?, ?> m) {
            @SuppressWarnings("unchecked")
            Map<String, Object> mm = (Map<String, Object>) m;
            mm.put("requestId", r.id());
        } else if (body instanceof ProblemDetail p) {
            p.setProperty("requestId", r.id());
        }
        ResponseEntity.BodyBuilder b = ResponseEntity.status(status).header(REQUEST_ID_HEADER, r.id());
        if (r.replayed()) {
            b.header(REPLAYED_HEADER, "true");
        }
        if (body instanceof ProblemDetail) {
            b.contentType(org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON);
        }
        return b.body(body);
    }

    private static ProblemDetail refusal(AdminRequest request, String reason) {
        return switch (Refusals.classify(reason)) {
            case Refusals.Kind.Unknown u -> ApiErrors.problem(HttpStatus.NOT_FOUND, "Not found", reason);
            case Refusals.Kind.Active a -> rerunRefused("active", reason, "runId", a.runId());
            case Refusals.Kind.NotReady n -> rerunRefused("not_ready", reason, "node", n.node());
            case Refusals.Kind.NoRecord n -> rerunRefused("no_record", reason, "node", n.node());
            case Refusals.Kind.NotActive n -> {
                ProblemDetail p = ApiErrors.problem(HttpStatus.CONFLICT, "Run not active", reason);
                p.setProperty("cancelled", false);
                yield p;
            }
            case Refusals.Kind.Other o -> {
                ProblemDetail p = ApiErrors.problem(HttpStatus.CONFLICT, "Refused", reason);
                p.setProperty("outcome", "refused");
                yield p;
            }
        };
    }

    private static ProblemDetail rerunRefused(String outcome, String reason, String key, String value) {
        ProblemDetail p = ApiErrors.problem(HttpStatus.CONFLICT, "Rerun refused", reason);
        p.setProperty("outcome", outcome);
        p.setProperty(key, value);
        return p;
    }

    private static Map<String, Object> map(String key, Object value) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(key, value);
        return m;
    }
}
