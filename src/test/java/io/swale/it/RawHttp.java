package io.swale.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * HTTP/1.1 over a bare socket: requests no client library would send (raw bytes, `%00`, over-long lines),
 * so the container's own refusals are seen as a caller sees them.
 */
final class RawHttp {
    /** What came back; status -1 when the server closed without answering. */
    record Answer(int status, String contentType, String body, long millis) {}

    private RawHttp() {}

    static byte[] request(String method, String target, String contentType, byte[] body) {
        StringBuilder head = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                .append("Connection: close\r\n");
        if (contentType != null) {
            head.append("Content-Type: ").append(contentType).append("\r\n");
        }
        head.append("Content-Length: ").append(body.length).append("\r\n\r\n");
        byte[] h = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = new byte[h.length + body.length];
        System.arraycopy(h, 0, all, 0, h.length);
        System.arraycopy(body, 0, all, h.length, body.length);
        return all;
    }

    static Answer send(int port, byte[] request, int timeoutMillis) {
        long start = System.nanoTime();
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), timeoutMillis);
            s.setSoTimeout(timeoutMillis);
            try {
                s.getOutputStream().write(request);
                s.getOutputStream().flush();
                s.shutdownOutput();
            } catch (IOException closedEarly) {
                // the server may answer and close before reading everything: read what it said
            }
            byte[] raw = readAll(s.getInputStream());
            return parse(new String(raw, StandardCharsets.ISO_8859_1), (System.nanoTime() - start) / 1_000_000);
        } catch (SocketTimeoutException e) {
            return new Answer(-2, "", "timed out", (System.nanoTime() - start) / 1_000_000);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        try {
            for (int n; (n = in.read(buf)) >= 0; ) {
                out.write(buf, 0, n);
            }
        } catch (java.net.SocketException reset) {
            // a reset after the answer: keep what arrived
        }
        return out.toByteArray();
    }

    private static Answer parse(String text, long millis) {
        if (!text.startsWith("HTTP/1.1 ")) {
            return new Answer(-1, "", text, millis);
        }
        int status = Integer.parseInt(text.substring(9, 12));
        int end = text.indexOf("\r\n\r\n");
        String head = end < 0 ? text : text.substring(0, end);
        String contentType = "";
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-type:")) {
                contentType = line.substring(13).strip();
            }
        }
        return new Answer(status, contentType, end < 0 ? "" : text.substring(end + 4), millis);
    }
}
