package io.swale.api;

import io.swale.definition.DefinitionParseException;
import io.swale.definition.Fault;
import io.swale.definition.InvalidDefinitionException;
import io.swale.graph.InvalidPartitionException;
import io.swale.kafka.KafkaInspector;
import io.swale.record.RecordException;
import io.swale.request.Requests;
import io.swale.run.UnloadableDefinitionException;
import io.swale.store.UnavailableReplies;
import io.swale.task.SwaleException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisRedirectionException;
import tools.jackson.core.JacksonException;

/** Every error as application/problem+json, naming what is at fault. */
@RestControllerAdvice(basePackages = "io.swale.api")
public class ApiErrors {

    /** A request that names something Swale does not have, or a value of the wrong form. */
    public static final class BadRequest extends RuntimeException {
        private final String field;

        public BadRequest(String field, String message) {
            super(message);
            this.field = field;
        }

        public String field() {
            return field;
        }
    }

    /** A body over {@code swale.limits.body-size}. */
    public static final class TooLarge extends RuntimeException {
        public TooLarge(String message) {
            super(message);
        }
    }

    @ExceptionHandler(TooLarge.class)
    ProblemDetail tooLarge(TooLarge e) {
        ProblemDetail p = problem(HttpStatus.CONTENT_TOO_LARGE, "Content too large", e.getMessage());
        p.setProperty("field", "body");
        return p;
    }

    /** Infrastructure the request needs did not answer; nothing was changed. */
    public static final class Unavailable extends RuntimeException {
        public Unavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    @ExceptionHandler(Unavailable.class)
    ProblemDetail unavailable(Unavailable e) {
        return tryAgain(e.getMessage());
    }

    /** A dead letter whose instance has been rerun since: the letter is recovered. */
    public static final class AlreadyRerun extends RuntimeException {
        private final String runId;

        public AlreadyRerun(String runId, String message) {
            super(message);
            this.runId = runId;
        }
    }

    @ExceptionHandler(AlreadyRerun.class)
    ProblemDetail alreadyRerun(AlreadyRerun e) {
        ProblemDetail p = problem(HttpStatus.CONFLICT, "Already rerun", e.getMessage());
        p.setProperty("outcome", "already_rerun");
        p.setProperty("runId", e.runId);
        return p;
    }

    public static final class NotFound extends RuntimeException {
        public NotFound(String message) {
            super(message);
        }
    }

    @ExceptionHandler(InvalidDefinitionException.class)
    ProblemDetail invalid(InvalidDefinitionException e) {
        ProblemDetail p = problem(HttpStatus.UNPROCESSABLE_CONTENT, "Invalid definition",
                e.faults().size() + " fault(s) in the definition");
        p.setProperty("problems", e.faults().stream().map(ApiErrors::problem).toList());
        return p;
    }

    @ExceptionHandler(DefinitionParseException.class)
    ProblemDetail unparseable(DefinitionParseException e) {
        ProblemDetail p = problem(HttpStatus.UNPROCESSABLE_CONTENT, "Invalid definition", e.getMessage());
        p.setProperty("problems", List.of(Map.of("kind", "ParseError", "message", e.getMessage())));
        return p;
    }

    @ExceptionHandler(SwaleException.AssetConflict.class)
    ProblemDetail conflict(SwaleException.AssetConflict e) {
        ProblemDetail p = problem(HttpStatus.CONFLICT, "Asset conflict", e.getMessage());
        p.setProperty("asset", e.asset());
        p.setProperty("graph", e.otherGraph());
        return p;
    }

    @ExceptionHandler({SwaleException.UnknownGraph.class, SwaleException.UnknownGraphRun.class,
            SwaleException.UnknownNode.class, NotFound.class})
    ProblemDetail notFound(RuntimeException e) {
        return problem(HttpStatus.NOT_FOUND, "Not found", e.getMessage());
    }

    @ExceptionHandler(InvalidPartitionException.class)
    ProblemDetail badPartition(InvalidPartitionException e) {
        ProblemDetail p = problem(HttpStatus.BAD_REQUEST, "Invalid partition key", e.getMessage());
        p.setProperty("field", "partition");
        return p;
    }

    @ExceptionHandler(BadRequest.class)
    ProblemDetail badRequest(BadRequest e) {
        ProblemDetail p = problem(HttpStatus.BAD_REQUEST, "Bad request", e.getMessage());
        p.setProperty("field", e.field());
        return p;
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ProblemDetail unreadable(HttpMessageNotReadableException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof RequestLimitsFilter.BodyTooLarge tooLarge) {
                return tooLarge(new TooLarge(tooLarge.getMessage()));
            }
        }
        Throwable cause = e.getMostSpecificCause();
        String detail = cause instanceof JacksonException je
                ? je.getOriginalMessage().replace(ApiJson.COERCION_HINT, "") : cause.getMessage();
        ProblemDetail p = problem(HttpStatus.BAD_REQUEST, "Malformed body", detail == null ? "the body is not readable" : detail);
        p.setProperty("field", cause instanceof JacksonException je ? jsonPath(je) : "body");
        return p;
    }

    /** {@code partitions[0]}, {@code mode}, or {@code body} when the error is not at a field. */
    private static String jsonPath(JacksonException e) {
        StringBuilder s = new StringBuilder();
        for (JacksonException.Reference r : e.getPath()) {
            if (r.getPropertyName() != null) {
                s.append(s.isEmpty() ? "" : ".").append(r.getPropertyName());
            } else if (r.getIndex() >= 0) {
                s.append('[').append(r.getIndex()).append(']');
            }
        }
        return s.isEmpty() ? "body" : s.toString();
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ProblemDetail mismatch(MethodArgumentTypeMismatchException e) {
        ProblemDetail p = problem(HttpStatus.BAD_REQUEST, "Bad request",
                "`" + e.getValue() + "` is not a valid value for `" + e.getName() + "`");
        p.setProperty("field", e.getName());
        return p;
    }

    @ExceptionHandler(MissingServletRequestParameterException.class)
    ProblemDetail missing(MissingServletRequestParameterException e) {
        ProblemDetail p = problem(HttpStatus.BAD_REQUEST, "Bad request", "`" + e.getParameterName() + "` is required");
        p.setProperty("field", e.getParameterName());
        return p;
    }

    @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
    ProblemDetail mediaType(HttpMediaTypeNotSupportedException e) {
        ProblemDetail p = problem(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Unsupported media type",
                "Content-Type `" + e.getContentType() + "` is not accepted here");
        p.setProperty("field", "Content-Type");
        return p;
    }

    @ExceptionHandler(Requests.KeyReused.class)
    ProblemDetail keyReused(Requests.KeyReused e) {
        ProblemDetail p = problem(HttpStatus.UNPROCESSABLE_CONTENT, "Idempotency-Key reused", e.getMessage());
        p.setProperty("field", Paths.IDEMPOTENCY_KEY);
        return p;
    }

    /** As the Idempotency-Key draft asks of a retry that arrives while its first try is still handled. */
    @ExceptionHandler(Requests.InProgress.class)
    ProblemDetail inProgress(Requests.InProgress e) {
        ProblemDetail p = problem(HttpStatus.CONFLICT, "Request in progress", e.getMessage());
        p.setProperty("field", Paths.IDEMPOTENCY_KEY);
        // beside the rerun's other 409 outcomes (active, not_ready, no_record)
        p.setProperty("outcome", "in_progress");
        return p;
    }

    @ExceptionHandler({KafkaInspector.KafkaQueryException.class, JedisException.class})
    ProblemDetail infrastructure(RuntimeException e) {
        if (e instanceof JedisDataException && !(e instanceof JedisRedirectionException)
                && !UnavailableReplies.matches(e.getMessage())) {
            // an error reply that is not Redis being unavailable (WRONGTYPE on a key something else wrote, a
            // script's error): the same request meets it again, so a retry cannot help
            return problem(HttpStatus.INTERNAL_SERVER_ERROR, "Redis refused the command", e.getMessage());
        }
        return tryAgain(e.getMessage());
    }

    /** A run's or graph's stored definition that no longer loads here: not the caller's definition, so not a 422. */
    @ExceptionHandler(UnloadableDefinitionException.class)
    ProblemDetail unloadable(UnloadableDefinitionException e) {
        ProblemDetail p = problem(HttpStatus.INTERNAL_SERVER_ERROR, "Stored definition does not load", e.getMessage());
        p.setProperty("definition", e.hash());
        return p;
    }

    /**
     * A definition that a graph or run record names, missing from the store. A record is written after its
     * definition, so the store lost it: a retry cannot help (the scheduler, which may read a record another
     * replica is still writing, retries it; an answer to a caller does not).
     */
    @ExceptionHandler(SwaleException.UnknownDefinition.class)
    ProblemDetail missingDefinition(SwaleException.UnknownDefinition e) {
        ProblemDetail p = problem(HttpStatus.INTERNAL_SERVER_ERROR, "Stored definition missing", e.getMessage());
        p.setProperty("definition", e.hash());
        return p;
    }

    /** A stored record that does not parse: the server's fault, named so an operator can find and mend it. */
    @ExceptionHandler(RecordException.class)
    ProblemDetail malformedRecord(RecordException e) {
        return problem(HttpStatus.INTERNAL_SERVER_ERROR, "Malformed record", e.getMessage());
    }

    @ExceptionHandler(SwaleException.class)
    ProblemDetail swale(SwaleException e) {
        return switch (e) {
            case SwaleException.Permanent p -> problem(HttpStatus.CONFLICT, "Refused", p.getMessage());
            case SwaleException.Transient t -> tryAgain(t.getMessage());
        };
    }

    private static Map<String, Object> problem(Fault f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", f.kind().wireName());
        f.node().ifPresent(n -> m.put("node", n));
        m.put("message", f.message());
        return m;
    }

    /**
     * 503 "Try again", with {@code Retry-After: 1} on the response: Redis or Kafka not answering is mostly over
     * within seconds (a failover, a restart), and a client that honours the header neither hammers nor gives up.
     */
    static ProblemDetail tryAgain(String detail) {
        if (RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes
                && attributes.getResponse() != null) {
            attributes.getResponse().setHeader(HttpHeaders.RETRY_AFTER, "1");
        }
        return problem(HttpStatus.SERVICE_UNAVAILABLE, "Try again", detail);
    }

    static ProblemDetail problem(HttpStatus status, String title, String detail) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(status, detail);
        p.setTitle(title);
        p.setType(URI.create("about:blank"));
        return p;
    }
}
