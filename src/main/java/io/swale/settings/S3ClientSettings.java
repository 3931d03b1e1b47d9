package io.swale.settings;

import java.util.Optional;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code swale.s3.*}: how object_exists reaches s3:// objects.
 *
 * @param endpoint An S3-compatible endpoint; else AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, else AWS itself.
 * @param region Else AWS_REGION, AWS_DEFAULT_REGION, else us-east-1.
 * @param pathStyle Path-style addressing (bucket in the path, not the host name).
 */
public record S3ClientSettings(String endpoint, String region, @DefaultValue("true") boolean pathStyle) {

    /** The configured endpoint; empty when unset or blank. */
    public Optional<String> endpointValue() {
        return nonBlank(endpoint);
    }

    /** The configured region; empty when unset or blank. */
    public Optional<String> regionValue() {
        return nonBlank(region);
    }

    private static Optional<String> nonBlank(String s) {
        return Optional.ofNullable(s).filter(x -> !x.isBlank());
    }
}
