package io.swale.settings;

import java.time.Duration;

/**
 * Start-up checks of bound properties. Each throws {@link IllegalArgumentException} naming the property in
 * full, so the binding failure Boot reports says which setting to fix.
 */
public final class PropertyChecks {
    private PropertyChecks() {}

    public static int atLeast(String property, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(property + " must be at least " + min + ", got " + value);
        }
        return value;
    }

    /** A period or timeout: zero or less would spin or never wait. */
    public static Duration positive(String property, Duration value) {
        present(property, value);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(property + " must be longer than zero, got " + value);
        }
        return value;
    }

    public static Duration notNegative(String property, Duration value) {
        present(property, value);
        if (value.isNegative()) {
            throw new IllegalArgumentException(property + " must not be negative, got " + value);
        }
        return value;
    }

    public static <T> T present(String property, T value) {
        if (value == null) {
            throw new IllegalArgumentException(property + " must be set");
        }
        return value;
    }
}
