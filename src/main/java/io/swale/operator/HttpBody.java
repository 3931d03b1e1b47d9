package io.swale.operator;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.Flow;

/**
 * A response body as the {@code http} operator reads it: held whole up to a limit; beyond it, only its length and
 * its last bytes (for an error's body tail), so a response of gigabytes costs the worker no more memory than the
 * limit, and a 2xx is recorded with its output omitted (§5.4).
 *
 * @param held the whole body, or empty when it was longer than the limit
 * @param whole whether {@code held} is the whole body
 * @param length the body's length in bytes
 * @param tail its last bytes when it was not held whole; empty otherwise
 */
record HttpBody(byte[] held, boolean whole, long length, byte[] tail) {
    /** Kept of a body too long to hold: the error's tail needs 512 bytes of text, in any charset. */
    static final int TAIL_KEEP = 4096;

    /** The bytes an error's body tail is taken from. */
    byte[] end() {
        return whole ? held : tail;
    }

    /** Reads bodies, holding at most {@code limit} bytes of each. */
    static HttpResponse.BodyHandler<HttpBody> handler(int limit) {
        return info -> HttpResponse.BodySubscribers.fromSubscriber(new Reader(limit), Reader::body);
    }

    private static final class Reader implements Flow.Subscriber<List<ByteBuffer>> {
        private final int limit;
        private ByteArrayOutputStream held = new ByteArrayOutputStream();
        private final byte[] ring = new byte[TAIL_KEEP];
        private long length;

        Reader(int limit) {
            this.limit = limit;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            for (ByteBuffer buffer : buffers) {
                byte[] bytes = new byte[buffer.remaining()];
                buffer.get(bytes);
                if (held != null && held.size() + (long) bytes.length > limit) {
                    keep(held.toByteArray(), 0);
                    held = null;
                }
                if (held != null) {
                    held.write(bytes, 0, bytes.length);
                } else {
                    keep(bytes, length);
                }
                length += bytes.length;
            }
        }

        /** Puts the last of {@code bytes}, which start at byte {@code at} of the body, in the ring. */
        private void keep(byte[] bytes, long at) {
            for (int i = Math.max(0, bytes.length - TAIL_KEEP); i < bytes.length; i++) {
                ring[(int) ((at + i) % TAIL_KEEP)] = bytes[i];
            }
        }

        @Override
        public void onError(Throwable throwable) {
            // the exchange fails with it; nothing is returned
        }

        @Override
        public void onComplete() {
        }

        HttpBody body() {
            if (held != null) {
                return new HttpBody(held.toByteArray(), true, length, new byte[0]);
            }
            int kept = (int) Math.min(length, TAIL_KEEP);
            byte[] tail = new byte[kept];
            for (int i = 0; i < kept; i++) {
                tail[i] = ring[(int) ((length - kept + i) % TAIL_KEEP)];
            }
            return new HttpBody(new byte[0], false, length, tail);
        }
    }
}
