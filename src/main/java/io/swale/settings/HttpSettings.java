package io.swale.settings;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code swale.http.*}: the http operator.
 *
 * @param guards A resilience4j circuit breaker and rate limiter per target host (config name swale-http; without it, the breaker counts no call as slow).
 */
public record HttpSettings(@DefaultValue("true") boolean guards) {}
