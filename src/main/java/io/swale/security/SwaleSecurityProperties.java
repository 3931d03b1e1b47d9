package io.swale.security;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code swale.security.*}: the bearer token operators send, or an explicit choice to run open. A missing
 * token outside the local profile is reported by {@link SecurityConfiguration}, which knows the profile.
 *
 * @param token Required outside the local profile: mutating endpoints and non-health Actuator endpoints need
 *     it.
 * @param open Run without authentication outside the local profile (not recommended).
 */
@ConfigurationProperties("swale.security")
public record SwaleSecurityProperties(@DefaultValue("") String token, @DefaultValue("false") boolean open) {

    public SwaleSecurityProperties {
        token = token == null ? "" : token;
    }
}
