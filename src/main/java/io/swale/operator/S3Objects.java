package io.swale.operator;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * {@code s3://bucket/key} objects through the AWS SDK v2: one HEAD per poll. Clients are cached per scheme
 * and host (the bucket) and port; each uses the small URLConnection HTTP client, the configured endpoint
 * and region, path-style addressing, and the default credentials chain. A poll abandons its request when
 * the attempt is cancelled.
 */
final class S3Objects implements AutoCloseable {
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    private final S3Settings settings;
    private final Map<String, S3Client> clients = new ConcurrentHashMap<>();

    S3Objects(S3Settings settings) {
        this.settings = settings;
    }

    ObjectProbe probe(String url, URI uri, Cancellation cancellation) {
        String bucket = uri.getAuthority();
        String path = uri.getPath() == null ? "" : uri.getPath();
        String key = path.startsWith("/") ? path.substring(1) : path;
        if (bucket == null || bucket.isEmpty() || key.isEmpty()) {
            return new ObjectProbe.Error(new OperatorResult.PermanentError("object URL `" + url
                    + "` does not parse: an s3 URL is s3://bucket/key"));
        }
        S3Client client;
        try {
            client = clients.computeIfAbsent(uri.getScheme() + "://" + bucket, k -> build());
        } catch (RuntimeException e) {
            return new ObjectProbe.Error(new OperatorResult.PermanentError("object URL `" + url
                    + "`: the store cannot be opened: " + OperatorJson.describe(e)));
        }
        if (cancellation.isCancelled()) {
            return new ObjectProbe.Error(new OperatorResult.TransientError(cancelled(url, cancellation)));
        }
        CompletableFuture<HeadObjectResponse> head = CompletableFuture.supplyAsync(
                () -> client.headObject(b -> b.bucket(bucket).key(key)), OperatorExecutors.IO);
        CompletableFuture<String> stop = new CompletableFuture<>();
        cancellation.onCancel(() -> stop.complete(cancelled(url, cancellation)));
        try {
            CompletableFuture.anyOf(head, stop).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop.complete("object URL `" + url + "`: the attempt was interrupted");
        } catch (ExecutionException e) {
            // judged below
        }
        if (!head.isDone()) {
            head.cancel(true);
            return new ObjectProbe.Error(new OperatorResult.TransientError(stop.getNow("abandoned")));
        }
        try {
            HeadObjectResponse r = head.join();
            return new ObjectProbe.Exists(r.contentLength() == null ? OptionalLong.empty()
                    : OptionalLong.of(r.contentLength()), Optional.ofNullable(r.lastModified()));
        } catch (CompletionException | CancellationException e) {
            return judge(url, e.getCause() == null ? e : e.getCause());
        }
    }

    /**
     * What a failed HEAD means. Only a 404 is an answer; any other error is transient (spec §8.6), credentials
     * included: the SDK resolves them at the first call, and a chain that failed there (an STS throttle, an
     * instance metadata timeout) names them in its message with no I/O error in its causes.
     */
    static ObjectProbe judge(String url, Throwable error) {
        if (error instanceof NoSuchKeyException || error instanceof S3Exception s3 && s3.statusCode() == 404) {
            return new ObjectProbe.Absent();
        }
        String what = error instanceof SdkException ? OperatorJson.describe(error) : error.toString();
        return new ObjectProbe.Error(new OperatorResult.TransientError("object URL `" + url + "`: " + what));
    }

    private S3Client build() {
        var builder = S3Client.builder()
                .httpClientBuilder(UrlConnectionHttpClient.builder()
                        .connectionTimeout(Duration.ofSeconds(10))
                        .socketTimeout(CALL_TIMEOUT))
                .region(Region.of(settings.region()))
                .credentialsProvider(DefaultCredentialsProvider.builder().build())
                .forcePathStyle(settings.pathStyle())
                .overrideConfiguration(c -> c.apiCallTimeout(CALL_TIMEOUT));
        settings.endpoint().ifPresent(builder::endpointOverride);
        return builder.build();
    }

    private static String cancelled(String url, Cancellation cancellation) {
        String why = cancellation.reason().isEmpty() ? "" : " (" + cancellation.reason() + ")";
        return "the attempt was cancelled" + why + "; abandoned HEAD " + url;
    }

    @Override
    public void close() {
        clients.values().forEach(S3Client::close);
        clients.clear();
    }
}
