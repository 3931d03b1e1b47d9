package io.swale.operator;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code object_exists} (§8.6): polls once per step for an object and succeeds once it exists, ends
 * failed once the deadline passes, and continues after {@code interval} otherwise (the next poll is
 * another step, so no worker waits in between). {@code file://}, {@code http(s)://} (HEAD) and
 * {@code s3://} (AWS SDK, any S3-compatible endpoint) are supported.
 */
public final class ObjectExistsOperator implements Operator {
    public static final String NAME = "object_exists";
    static final String DEFAULT_INTERVAL = "60s";
    static final String DEFAULT_TIMEOUT = "1d";
    static final String STATE_DEADLINE = "deadline_ms";
    /** Limit on one HEAD request of an http(s) object. */
    static final long HEAD_TIMEOUT_SECONDS = 30L;

    private static final Set<String> CLOUD_SCHEMES = Set.of("s3a", "gs", "az", "azure", "abfs", "abfss", "adl");
    private static final DateTimeFormatter RFC_3339_SECONDS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

    /**
     * @param url the object URL
     * @param interval the wait between polls
     * @param timeout how long after the first poll the object may take to appear
     */
    record Params(@JsonProperty(required = true) String url, String interval, String timeout) {
        Params {
            if (url == null) {
                throw new IllegalArgumentException("`url` is required: a string");
            }
            interval = interval == null ? DEFAULT_INTERVAL : interval;
            timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
            if (!OperatorJson.isTemplated(interval)) {
                OperatorDurations.parseSeconds(interval);
            }
            if (!OperatorJson.isTemplated(timeout)) {
                OperatorDurations.parseSeconds(timeout);
            }
        }
    }

    private final S3Objects s3;

    public ObjectExistsOperator(S3Settings s3) {
        this.s3 = new S3Objects(s3);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void checkParams(JsonNode params) {
        OperatorJson.readParams(params, Params.class);
    }

    @Override
    public OperatorResult execute(AttemptContext context) {
        Params params;
        long intervalSeconds;
        long timeoutSeconds;
        try {
            params = OperatorJson.readParams(context.params(), Params.class);
            intervalSeconds = OperatorDurations.parseSeconds(params.interval());
            timeoutSeconds = OperatorDurations.parseSeconds(params.timeout());
        } catch (InvalidParamsException | IllegalArgumentException e) {
            return new OperatorResult.PermanentError("rendered params do not fit operator `" + NAME + "`: "
                    + e.getMessage());
        }
        long deadline = deadline(context, timeoutSeconds);
        String url = params.url();

        URI uri;
        try {
            uri = OperatorUrls.parse(url);
        } catch (URISyntaxException e) {
            return new OperatorResult.PermanentError("object URL `" + url + "` does not parse: " + e.getMessage());
        }
        if (uri.getScheme() == null) {
            return new OperatorResult.PermanentError("object URL `" + url + "` does not parse: it has no scheme");
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        ObjectProbe probe = switch (scheme) {
            case "file" -> probeFile(url, uri);
            case "http", "https" -> probeHttp(url, uri, context.cancellation());
            case "s3" -> s3.probe(url, uri, context.cancellation());
            default -> new ObjectProbe.Error(new OperatorResult.PermanentError("object URL `" + url
                    + "`: unsupported scheme `" + scheme + "`" + (CLOUD_SCHEMES.contains(scheme)
                            ? " (not built yet: file, http(s) and s3 objects can be checked so far)"
                            : " (supported: file, http, https, s3)")));
        };
        return switch (probe) {
            case ObjectProbe.Error error -> error.result();
            case ObjectProbe.Exists exists -> {
                ObjectNode output = OperatorJson.NODES.objectNode();
                output.put("url", url);
                if (exists.size().isPresent()) {
                    output.put("size", exists.size().getAsLong());
                } else {
                    output.putNull("size");
                }
                if (exists.lastModified().isPresent()) {
                    output.put("last_modified", RFC_3339_SECONDS.format(exists.lastModified().get()));
                } else {
                    output.putNull("last_modified");
                }
                yield new OperatorResult.Succeeded(output);
            }
            case ObjectProbe.Absent absent -> {
                if (context.nowMs() >= deadline) {
                    yield new OperatorResult.Failed("object `" + url + "` did not appear within the timeout of "
                            + timeoutSeconds + " s");
                }
                ObjectNode state = OperatorJson.NODES.objectNode();
                state.put(STATE_DEADLINE, deadline);
                yield new OperatorResult.Continue(state, Duration.ofSeconds(intervalSeconds));
            }
        };
    }

    /** {@code deadline_ms} from the state, else now + timeout, saturating. */
    static long deadline(AttemptContext context, long timeoutSeconds) {
        Optional<Long> fromState = context.state()
                .map(s -> s.get(STATE_DEADLINE))
                .filter(d -> d.isIntegralNumber() && d.canConvertToLong())
                .map(JsonNode::asLong);
        if (fromState.isPresent()) {
            return fromState.get();
        }
        long timeoutMillis = OperatorDurations.toMillisSaturated(timeoutSeconds);
        long now = context.nowMs();
        return now > Long.MAX_VALUE - timeoutMillis ? Long.MAX_VALUE : now + timeoutMillis;
    }

    private static ObjectProbe probeFile(String url, URI uri) {
        Path path;
        try {
            path = Path.of(uri);
        } catch (IllegalArgumentException | FileSystemNotFoundException e) {
            return new ObjectProbe.Error(new OperatorResult.PermanentError("object URL `" + url
                    + "`: the store cannot be opened: " + OperatorJson.describe(e)));
        }
        try {
            BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
            if (!attributes.isRegularFile()) {
                return new ObjectProbe.Absent();
            }
            return new ObjectProbe.Exists(OptionalLong.of(attributes.size()),
                    Optional.of(attributes.lastModifiedTime().toInstant().truncatedTo(ChronoUnit.SECONDS)));
        } catch (NoSuchFileException e) {
            return new ObjectProbe.Absent();
        } catch (IOException | SecurityException e) {
            return new ObjectProbe.Error(new OperatorResult.TransientError("object URL `" + url + "`: "
                    + OperatorJson.describe(e)));
        }
    }

    private ObjectProbe probeHttp(String url, URI uri, Cancellation cancellation) {
        String what = "HEAD " + url;
        HttpRequest request;
        try {
            request = HttpRequest.newBuilder(uri).method("HEAD", HttpRequest.BodyPublishers.noBody()).build();
        } catch (IllegalArgumentException e) {
            return new ObjectProbe.Error(new OperatorResult.PermanentError("object URL `" + url
                    + "`: the store cannot be opened: " + OperatorJson.describe(e)));
        }
        HttpResponse<Void> response;
        try {
            response = OperatorHttp.sendFollowing(request, HttpResponse.BodyHandlers.discarding(),
                    what, OperatorDurations.toMillisSaturated(HEAD_TIMEOUT_SECONDS), HEAD_TIMEOUT_SECONDS + "s",
                    cancellation, HostGuards.NONE);
        } catch (OperatorHttp.Abort abort) {
            return new ObjectProbe.Error(abort.result());
        }
        int status = response.statusCode();
        if (status == 404) {
            return new ObjectProbe.Absent();
        }
        if (status < 200 || status >= 300) {
            return new ObjectProbe.Error(new OperatorResult.TransientError("object URL `" + url + "`: " + what
                    + " answered HTTP status " + status));
        }
        Optional<Instant> lastModified = response.headers().firstValue("last-modified").flatMap(text -> {
            try {
                return Optional.of(Instant.from(DateTimeFormatter.RFC_1123_DATE_TIME.parse(text)));
            } catch (DateTimeParseException e) {
                return Optional.empty();
            }
        });
        OptionalLong size;
        try {
            size = response.headers().firstValueAsLong("content-length");
        } catch (NumberFormatException e) {
            size = OptionalLong.empty();
        }
        return new ObjectProbe.Exists(size, lastModified);
    }
}
