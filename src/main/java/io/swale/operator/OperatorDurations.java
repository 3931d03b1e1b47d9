package io.swale.operator;

import java.math.BigInteger;
import java.time.Duration;

/**
 * The duration syntax of operator params (§1.5): one or more ASCII digits, then exactly one unit
 * letter {@code s}, {@code m}, {@code h} or {@code d}. Kept local to this package so operators do not
 * depend on the definition loader.
 */
public final class OperatorDurations {
    /** Seconds up to this bound are valid (an unsigned 64-bit integer). */
    private static final BigInteger MAX_SECONDS = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private OperatorDurations() {}

    /**
     * The number of seconds {@code text} stands for, saturated at {@link Long#MAX_VALUE} (valid values
     * between 2^63 and 2^64 − 1 are longer than anything can wait anyway).
     *
     * @throws IllegalArgumentException naming the text and the accepted form
     */
    public static long parseSeconds(String text) {
        if (text == null) {
            throw new IllegalArgumentException("a duration is required, such as `30s`, `5m`, `6h` or `7d`");
        }
        int digitsEnd = 0;
        while (digitsEnd < text.length() && isAsciiDigit(text.charAt(digitsEnd))) {
            digitsEnd++;
        }
        String digits = text.substring(0, digitsEnd);
        String unit = text.substring(digitsEnd);
        long factor = switch (unit) {
            case "s" -> 1L;
            case "m" -> 60L;
            case "h" -> 3_600L;
            case "d" -> 86_400L;
            default -> 0L;
        };
        if (digits.isEmpty() || factor == 0L) {
            throw invalid(text);
        }
        BigInteger seconds = new BigInteger(digits).multiply(BigInteger.valueOf(factor));
        if (seconds.compareTo(MAX_SECONDS) > 0) {
            throw invalid(text);
        }
        return seconds.bitLength() < 64 ? seconds.longValueExact() : Long.MAX_VALUE;
    }

    /** {@link #parseSeconds} as a {@link Duration}. */
    public static Duration parse(String text) {
        return Duration.ofSeconds(parseSeconds(text));
    }

    /** Whether {@code text} is a valid duration. */
    public static boolean isValid(String text) {
        try {
            parseSeconds(text);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Seconds as milliseconds, saturated at {@link Long#MAX_VALUE}. */
    public static long toMillisSaturated(long seconds) {
        return seconds > Long.MAX_VALUE / 1_000L ? Long.MAX_VALUE : seconds * 1_000L;
    }

    private static boolean isAsciiDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static IllegalArgumentException invalid(String text) {
        return new IllegalArgumentException("invalid duration `" + text
                + "`: expected digits then one unit s, m, h or d, such as `30s`, `5m`, `6h` or `7d`");
    }
}
