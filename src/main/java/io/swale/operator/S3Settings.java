package io.swale.operator;

import java.net.URI;
import java.util.Map;
import java.util.Optional;

/**
 * How s3:// objects are reached: an optional endpoint (an S3-compatible store such as MinIO or a test
 * server), the region, and path-style addressing. Credentials always come from the SDK's default provider
 * chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, system properties, profiles, container and instance
 * roles).
 */
public record S3Settings(Optional<URI> endpoint, String region, boolean pathStyle) {
    public static final S3Settings DEFAULT = new S3Settings(Optional.empty(), "us-east-1", true);

    /**
     * Explicit values first, then the environment: {@code AWS_ENDPOINT_URL_S3}, {@code AWS_ENDPOINT_URL},
     * {@code AWS_REGION}, {@code AWS_DEFAULT_REGION}; region {@code us-east-1} when none is set.
     */
    public static S3Settings resolve(Optional<String> endpoint, Optional<String> region, boolean pathStyle,
            Map<String, String> env) {
        Optional<String> e = nonBlank(endpoint).or(() -> nonBlank(Optional.ofNullable(env.get("AWS_ENDPOINT_URL_S3"))))
                .or(() -> nonBlank(Optional.ofNullable(env.get("AWS_ENDPOINT_URL"))));
        String r = nonBlank(region).or(() -> nonBlank(Optional.ofNullable(env.get("AWS_REGION"))))
                .or(() -> nonBlank(Optional.ofNullable(env.get("AWS_DEFAULT_REGION")))).orElse("us-east-1");
        return new S3Settings(e.map(URI::create), r, pathStyle);
    }

    private static Optional<String> nonBlank(Optional<String> s) {
        return s.map(String::strip).filter(x -> !x.isEmpty());
    }
}
