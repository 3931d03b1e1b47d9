package io.swale.definition;

import java.math.BigInteger;
import java.time.Duration;

/** Durations as definitions write them (§1.5): ASCII digits then one unit letter, e.g. {@code 7d}. */
public final class Durations {
    private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    private static final BigInteger DURATION_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private Durations() {}

    public static Duration parse(String text) {
        if (text == null) {
            throw new InvalidDurationException("", "no text");
        }
        int digits = 0;
        while (digits < text.length() && text.charAt(digits) >= '0' && text.charAt(digits) <= '9') {
            digits++;
        }
        if (digits == 0) {
            throw new InvalidDurationException(text, "it does not start with a digit");
        }
        long unitSeconds = switch (text.substring(digits)) {
            case "s" -> 1;
            case "m" -> 60;
            case "h" -> 3_600;
            case "d" -> 86_400;
            case "" -> throw new InvalidDurationException(text, "the unit is missing");
            default -> throw new InvalidDurationException(text,
                    "`" + text.substring(digits) + "` after the digits is not a unit");
        };
        BigInteger seconds = new BigInteger(text.substring(0, digits)).multiply(BigInteger.valueOf(unitSeconds));
        if (seconds.compareTo(U64_MAX) > 0) {
            throw new InvalidDurationException(text, "the number of seconds overflows an unsigned 64-bit integer");
        }
        // java.time.Duration holds at most Long.MAX_VALUE seconds, half the u64 range: the valid rest saturates, and
        // means the same (a catch-up window no clock can apply leaves its graph unscheduled, spec §4.3; a retention
        // that long expires nothing)
        return Duration.ofSeconds(seconds.min(DURATION_MAX).longValueExact());
    }
}
