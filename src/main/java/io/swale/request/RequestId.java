package io.swale.request;

import java.security.SecureRandom;
import java.util.regex.Pattern;

/** A request id: the client's Idempotency-Key, or a generated ULID (spec §5.5). */
public record RequestId(String value) {
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    private static final char[] CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toCharArray();
    private static final SecureRandom RANDOM = new SecureRandom();

    public RequestId {
        if (!isValid(value)) {
            throw new InvalidRequestIdException(value);
        }
    }

    public static boolean isValid(String value) {
        return value != null && ID.matcher(value).matches();
    }

    /** A ULID: 48 bits of milliseconds then 80 random bits, 26 Crockford base32 characters, sorting by time. */
    public static RequestId generate(long nowMs) {
        char[] out = new char[26];
        long time = nowMs;
        for (int i = 9; i >= 0; i--) {
            out[i] = CROCKFORD[(int) (time & 31)];
            time >>>= 5;
        }
        byte[] random = new byte[10];
        RANDOM.nextBytes(random);
        // 80 bits as 16 groups of 5 bits
        int bit = 0;
        for (int i = 10; i < 26; i++) {
            int v = 0;
            for (int b = 0; b < 5; b++, bit++) {
                v = (v << 1) | ((random[bit / 8] >> (7 - bit % 8)) & 1);
            }
            out[i] = CROCKFORD[v];
        }
        return new RequestId(new String(out));
    }

    @Override
    public String toString() {
        return value;
    }

    /** An id that is not 1–64 characters of [A-Za-z0-9_-]. */
    public static final class InvalidRequestIdException extends IllegalArgumentException {
        public InvalidRequestIdException(String value) {
            super("invalid request id `" + value + "`: a request id is 1 to 64 characters of [A-Za-z0-9_-]");
        }
    }
}
