package io.swale.security;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** {@code swale.security.*}: the bearer token operators send, or an explicit choice to run open. */
@ConfigurationProperties("swale.security")
public class SwaleSecurityProperties {
    /** Required outside the local profile: mutating endpoints and non-health Actuator endpoints need it. */
    private String token = "";
    /** Run without authentication outside the local profile (not recommended). */
    private boolean open = false;

    public String getToken() {
        return token;
    }

    public void setToken(String token) {
        this.token = token;
    }

    public boolean isOpen() {
        return open;
    }

    public void setOpen(boolean open) {
        this.open = open;
    }
}
