package io.swale.security;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code swale.security.*}: the bearer token operators send, or an explicit choice to run open. A missing
 * token outside the local profile is reported by {@link SecurityConfiguration}, which knows the profile.
 *
 * @param token Required outside the local profile: mutating endpoints and non-health Actuator endpoints need
 *     it. Whitespace around it is dropped (a token read from a file ends with a newline, which no header can
 *     carry); a control character within it stops the start.
 * @param open Run without authentication outside the local profile (not recommended).
 * @param anonymousReads Outside the local profile, let reads of the admin API and the dashboard's data go
 *     without the token (read-only viewing); false makes every read need the token too, and the dashboard
 *     asks for it before it shows anything.
 */
@ConfigurationProperties("swale.security")
public record SwaleSecurityProperties(@DefaultValue("") String token, @DefaultValue("false") boolean open,
        @DefaultValue("true") boolean anonymousReads) {

    public SwaleSecurityProperties {
        token = token == null ? "" : token.strip();
        int control = firstControl(token);
        if (control >= 0) {
            throw new IllegalArgumentException("swale.security.token holds a control character (at index " + control
                    + "), which no Authorization header can carry: no request could match it");
        }
    }

    private static int firstControl(String token) {
        for (int i = 0; i < token.length(); i++) {
            if (Character.isISOControl(token.charAt(i))) {
                return i;
            }
        }
        return -1;
    }
}
