package io.swale.api;

import io.swale.definition.DefinitionParseException;
import io.swale.definition.Fault;
import io.swale.definition.InvalidDefinitionException;
import io.swale.graph.InvalidPartitionException;
import io.swale.scheduler.SwaleException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

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
        ProblemDetail p = problem(HttpStatus.BAD_REQUEST, "Malformed body",
                e.getMostSpecificCause().getMessage() == null ? "the body is not readable" : e.getMostSpecificCause().getMessage());
        p.setProperty("field", "body");
        return p;
    }

    @ExceptionHandler(SwaleException.class)
    ProblemDetail swale(SwaleException e) {
        return e.permanent() ? problem(HttpStatus.CONFLICT, "Refused", e.getMessage())
                : problem(HttpStatus.SERVICE_UNAVAILABLE, "Try again", e.getMessage());
    }

    private static Map<String, Object> problem(Fault f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", f.kind().wireName());
        f.node().ifPresent(n -> m.put("node", n));
        m.put("message", f.message());
        return m;
    }

    static ProblemDetail problem(HttpStatus status, String title, String detail) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(status, detail);
        p.setTitle(title);
        p.setType(URI.create("about:blank"));
        return p;
    }
}
