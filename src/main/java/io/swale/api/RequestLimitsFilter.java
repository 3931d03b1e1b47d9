package io.swale.api;

import io.swale.settings.SwaleProperties;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.server.RequestPath;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses what would cost work before any is done, ahead of authentication and of Spring MVC: a body over
 * {@code swale.limits.body-size} (413, by its Content-Length or while it is read), a path Spring cannot
 * decode (400), a request line without an HTTP version (HTTP/0.9, 400) and a Content-Type that names no single media type (415; Spring cannot represent a
 * wildcard one and answered 500).
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
public class RequestLimitsFilter extends OncePerRequestFilter {
    private final long maxBody;

    public RequestLimitsFilter(SwaleProperties props) {
        this.maxBody = props.limits().bodySize().toBytes();
    }

    /** Thrown while reading a body that turns out longer than the limit (chunked, or lying about its length). */
    public static final class BodyTooLarge extends IOException {
        BodyTooLarge(long max) {
            super("the body is larger than " + max + " bytes (swale.limits.body-size)");
        }
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String protocol = request.getProtocol();
        if (protocol == null || protocol.isEmpty() || "HTTP/0.9".equals(protocol)) {
            // a request line without a version, as a stray CR LF leaves it (Tomcat then reports no protocol and
            // answers as HTTP/0.9): HTTP/0.9 has no status line, so
            // the refusal is the problem body alone, and nothing behind the line is served
            response.setHeader("Connection", "close");
            ProblemResponses.write(response, 400, "Bad request", "the request line has no HTTP version; "
                    + "HTTP/0.9 is not served", Optional.of("request-line"));
            return;
        }
        if (request.getContentLengthLong() > maxBody) {
            // the connection is closed after this answer: the rest of the body is never read
            response.setHeader("Connection", "close");
            ProblemResponses.write(response, 413, "Content too large", "the body has " + request.getContentLengthLong()
                    + " bytes, more than " + maxBody + " (swale.limits.body-size)", Optional.of("body"));
            return;
        }
        // definitions take any content type (TOML unless it names YAML): only the JSON endpoints parse it
        try {
            // Spring MVC parses the path once more, with its `;` parameters: a bad escape there answered 500
            RequestPath.parse(request.getRequestURI(), request.getContextPath());
        } catch (IllegalArgumentException e) {
            ProblemResponses.write(response, 400, "Bad request", "the path cannot be decoded: " + e.getMessage(),
                    Optional.of("path"));
            return;
        }
        Optional<String> badType = request.getRequestURI().startsWith("/api/v1/definitions")
                ? Optional.empty() : badContentType(request.getContentType());
        if (badType.isPresent()) {
            ProblemResponses.write(response, 415, "Unsupported media type", badType.get(), Optional.of("Content-Type"));
            return;
        }
        chain.doFilter(new Limited(request, maxBody), response);
    }

    private static Optional<String> badContentType(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return Optional.empty();
        }
        try {
            MediaType type = MediaType.parseMediaType(contentType);
            if (type.isWildcardType() || type.isWildcardSubtype()) {
                return Optional.of("Content-Type `" + contentType + "` is a wildcard; name the body's type, "
                        + "e.g. application/json");
            }
            return Optional.empty();
        } catch (InvalidMediaTypeException e) {
            return Optional.of("Content-Type `" + contentType + "` is not a media type: " + e.getMessage());
        }
    }

    /** The request with a body stream that stops at the limit. */
    private static final class Limited extends HttpServletRequestWrapper {
        private final long max;
        private ServletInputStream stream;

        Limited(HttpServletRequest request, long max) {
            super(request);
            this.max = max;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                stream = new Counting(super.getInputStream(), max);
            }
            return stream;
        }
    }

    private static final class Counting extends ServletInputStream {
        private final ServletInputStream in;
        private final long max;
        private long read;

        Counting(ServletInputStream in, long max) {
            this.in = in;
            this.max = max;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
            int n = in.read(buf, off, len);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(int n) throws BodyTooLarge {
            read += n;
            if (read > max) {
                throw new BodyTooLarge(max);
            }
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}
