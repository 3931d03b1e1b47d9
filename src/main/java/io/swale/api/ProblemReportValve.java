package io.swale.api;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Optional;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * Tomcat's own error answers — a request it refuses before any servlet sees it (a bad {@code %2F} or
 * {@code %00}, raw bytes, an over-long request line) — as problem+json instead of an HTML page.
 */
public class ProblemReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        // the container's reason says what was wrong with the request; an exception's text stays in the log
        String reason = status < 500 && response.getMessage() != null && !response.getMessage().isBlank()
                ? response.getMessage() : ProblemResponses.title(status);
        byte[] body = ProblemResponses.body(status, ProblemResponses.title(status), reason, Optional.empty());
        try {
            response.resetBuffer();
            response.setContentType(ProblemResponses.PROBLEM_JSON);
            response.setCharacterEncoding("utf-8");
            response.setContentLength(body.length);
            OutputStream out = response.getOutputStream();
            out.write(body);
            response.finishResponse();
        } catch (IOException | IllegalStateException e) {
            // the client is gone or the answer already started: nothing more to say
        }
    }
}
