package io.swale.operator;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * A program's stdout: held whole up to a limit; beyond it, only judged JSON or not as it streams past, so a program
 * that writes gigabytes costs the worker no more memory than the limit, and its success is recorded with its output
 * omitted (§5.4) rather than refused.
 */
sealed interface ProgramStdout {
    /** All of it. */
    record Held(byte[] bytes) implements ProgramStdout {}

    /** Too much to hold: its length and whether it was one JSON document. */
    record Unheld(long length, JsonSyntaxCheck.Verdict verdict) implements ProgramStdout {}

    /** Reads {@code in} to its end, holding at most {@code limit} bytes. */
    static ProgramStdout read(InputStream in, int limit) {
        try (in) {
            ByteArrayOutputStream held = new ByteArrayOutputStream();
            byte[] chunk = new byte[8192];
            int n;
            while ((n = in.read(chunk)) != -1) {
                if (held.size() + n <= limit) {
                    held.write(chunk, 0, n);
                    continue;
                }
                JsonSyntaxCheck check = new JsonSyntaxCheck();
                long length = held.size() + (long) n;
                held.writeTo(new OutputStream() {
                    @Override
                    public void write(int b) {
                        check.feed(new byte[] {(byte) b}, 0, 1);
                    }

                    @Override
                    public void write(byte[] b, int off, int len) {
                        check.feed(b, off, off + len);
                    }
                });
                held = null;
                check.feed(chunk, 0, n);
                // read to the end all the same: a program blocked on a full pipe would never exit
                while ((n = in.read(chunk)) != -1) {
                    check.feed(chunk, 0, n);
                    length += n;
                }
                return new Unheld(length, check.end());
            }
            return new Held(held.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
