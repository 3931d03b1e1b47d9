package io.swale.operator;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;

/**
 * URLs as the {@code http} and {@code object_exists} operators read them. A template puts values into a URL as they
 * are, so a rendered URL may hold a space, {@code |}, {@code {}} or a lone {@code %}, which {@link URI} refuses but
 * a browser, and swale's own URL parser, percent-encode (the WHATWG URL standard). Such characters after the
 * authority are encoded the same way; a URL whose authority is wrong still does not parse. As that standard does,
 * controls and spaces around the URL and every tab and newline in it are removed first: a value read from a file
 * or an environment variable often ends in a newline, which was sent as {@code %0A} or refused.
 */
final class OperatorUrls {
    /** Characters {@link URI} refuses in a path, query or fragment, beside controls, spaces and non-ASCII. */
    private static final String ENCODED = "\"<>\\^`{|}[]";

    private OperatorUrls() {}

    /** The URL as a {@link URI}, percent-encoding what only a lenient parser takes; the strict error otherwise. */
    static URI parse(String written) throws URISyntaxException {
        String url = withoutStrayWhitespace(written);
        try {
            return new URI(url);
        } catch (URISyntaxException strict) {
            String encoded = encodeAfterAuthority(url);
            if (encoded.equals(url)) {
                throw strict;
            }
            try {
                return new URI(encoded);
            } catch (URISyntaxException again) {
                throw strict;
            }
        }
    }

    /** Leading and trailing C0 controls and spaces, and every tab, LF and CR, dropped (WHATWG URL, basic parser). */
    static String withoutStrayWhitespace(String url) {
        int from = 0;
        int to = url.length();
        while (from < to && url.charAt(from) <= 0x20) {
            from++;
        }
        while (to > from && url.charAt(to - 1) <= 0x20) {
            to--;
        }
        StringBuilder out = new StringBuilder(to - from);
        for (int i = from; i < to; i++) {
            char c = url.charAt(i);
            if (c != '\t' && c != '\n' && c != '\r') {
                out.append(c);
            }
        }
        return out.toString();
    }

    static String encodeAfterAuthority(String url) {
        int from = 0;
        int schemeEnd = url.indexOf("://");
        if (schemeEnd > 0) {
            from = schemeEnd + 3;
            while (from < url.length() && "/?#".indexOf(url.charAt(from)) < 0) {
                from++;
            }
        }
        StringBuilder out = new StringBuilder(url.length() + 16).append(url, 0, from);
        boolean inFragment = false;
        for (int i = from; i < url.length(); ) {
            int c = url.codePointAt(i);
            if (c == '%') {
                boolean escape = i + 2 < url.length() && isHex(url.charAt(i + 1)) && isHex(url.charAt(i + 2));
                out.append(escape ? "%" : "%25");
            } else if (c == '#') {
                out.append(inFragment ? "%23" : "#");
                inFragment = true;
            } else if (c <= 0x20 || c >= 0x7f || ENCODED.indexOf(c) >= 0) {
                for (byte b : new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8)) {
                    out.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xf, 16)))
                            .append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
                }
            } else {
                out.appendCodePoint(c);
            }
            i += Character.charCount(c);
        }
        return out.toString();
    }

    private static boolean isHex(char c) {
        return Character.digit(c, 16) >= 0;
    }
}
