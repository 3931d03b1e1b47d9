package io.swale.operator;

import java.util.Arrays;

/**
 * Checks that bytes fed in pieces are one JSON document (RFC 8259, UTF-8), with ASCII whitespace around it as
 * {@link OperatorJson#trimStart} trims, keeping nothing of them: an output too large to hold is still judged
 * JSON or not (§8.3) without being held. It accepts what the operators' strict parser accepts, to the nesting
 * depth {@link #MAX_DEPTH}; unlike that parser it sets no limit on the length of a string or a number.
 */
final class JsonSyntaxCheck {
    /** The verdict once the input has ended. */
    sealed interface Verdict {
        /** One JSON value. */
        record Json() implements Verdict {}

        /** Nothing but whitespace. */
        record Empty() implements Verdict {}

        /** Not JSON, and why. */
        record NotJson(String reason) implements Verdict {}
    }

    /** As deep as the strict parser nests (Jackson's default nesting limit). */
    static final int MAX_DEPTH = tools.jackson.core.StreamReadConstraints.defaults().getMaxNestingDepth();

    private enum Expect { VALUE, VALUE_OR_CLOSE, KEY, KEY_OR_CLOSE, COLON, AFTER_VALUE, STRING, ESCAPE, HEX, NUMBER,
        LITERAL, END }

    // number parts: after '-', a lone leading zero, integer digits, after '.', fraction digits, after 'e',
    // after the exponent's sign, exponent digits
    private static final int MINUS = 0, ZERO = 1, INT = 2, DOT = 3, FRACTION = 4, E = 5, E_SIGN = 6, EXPONENT = 7;

    private Expect expect = Expect.VALUE;
    private byte[] stack = new byte[16];
    private int depth;
    private boolean started;
    private boolean key;
    private int hexLeft;
    private int utf8Left;
    private int numberPart;
    private String literal = "";
    private int literalAt;
    private long offset;
    private String fault = "";

    /** Feeds {@code bytes[from, to)}; after a fault the rest is ignored. */
    void feed(byte[] bytes, int from, int to) {
        for (int i = from; i < to && fault.isEmpty(); i++) {
            step(bytes[i] & 0xFF);
            offset++;
        }
    }

    /** The verdict on everything fed. */
    Verdict end() {
        if (fault.isEmpty() && expect == Expect.NUMBER) {
            endNumber();
        }
        if (!fault.isEmpty()) {
            return new Verdict.NotJson(fault);
        }
        if (!started) {
            return new Verdict.Empty();
        }
        return expect == Expect.END ? new Verdict.Json()
                : new Verdict.NotJson("unexpected end of input after " + offset + " bytes");
    }

    private void step(int b) {
        switch (expect) {
            case STRING -> inString(b);
            case ESCAPE -> escape(b);
            case HEX -> hex(b);
            case NUMBER -> {
                if (!continuesNumber(b)) {
                    endNumber();
                    if (fault.isEmpty()) {
                        step(b);
                    }
                }
            }
            case LITERAL -> {
                if (b != literal.charAt(literalAt)) {
                    fail("`" + literal + "` misspelt", b);
                } else if (++literalAt == literal.length()) {
                    valueDone();
                }
            }
            default -> betweenTokens(b);
        }
    }

    private void betweenTokens(int b) {
        if (b == ' ' || b == '\t' || b == '\n' || b == '\r' || (b == 0x0C && depth == 0)) {
            return;
        }
        switch (expect) {
            case VALUE, VALUE_OR_CLOSE -> {
                if (b == ']' && expect == Expect.VALUE_OR_CLOSE) {
                    close();
                } else {
                    value(b);
                }
            }
            case KEY, KEY_OR_CLOSE -> {
                if (b == '"') {
                    key = true;
                    expect = Expect.STRING;
                } else if (b == '}' && expect == Expect.KEY_OR_CLOSE) {
                    close();
                } else {
                    fail("a key in quotes was expected", b);
                }
            }
            case COLON -> {
                if (b == ':') {
                    expect = Expect.VALUE;
                } else {
                    fail("`:` was expected after a key", b);
                }
            }
            case AFTER_VALUE -> {
                byte container = stack[depth - 1];
                if (b == ',') {
                    expect = container == '[' ? Expect.VALUE : Expect.KEY;
                } else if (b == ']' && container == '[' || b == '}' && container == '{') {
                    close();
                } else {
                    fail(container == '[' ? "`,` or `]` was expected" : "`,` or `}` was expected", b);
                }
            }
            case END -> fail("one JSON value was expected, and more follows it", b);
            default -> throw new IllegalStateException(expect.name());
        }
    }

    private void value(int b) {
        started = true;
        switch (b) {
            case '{', '[' -> {
                if (depth == MAX_DEPTH) {
                    fail("nested deeper than " + MAX_DEPTH, b);
                    return;
                }
                if (depth == stack.length) {
                    stack = Arrays.copyOf(stack, depth * 2);
                }
                stack[depth++] = (byte) b;
                expect = b == '{' ? Expect.KEY_OR_CLOSE : Expect.VALUE_OR_CLOSE;
            }
            case '"' -> {
                key = false;
                expect = Expect.STRING;
            }
            case 't' -> literal("true");
            case 'f' -> literal("false");
            case 'n' -> literal("null");
            case '-' -> startNumber(MINUS);
            case '0' -> startNumber(ZERO);
            default -> {
                if (b >= '1' && b <= '9') {
                    startNumber(INT);
                } else {
                    fail("a value was expected", b);
                }
            }
        }
    }

    private void literal(String word) {
        literal = word;
        literalAt = 1;
        expect = Expect.LITERAL;
    }

    private void startNumber(int part) {
        numberPart = part;
        expect = Expect.NUMBER;
    }

    /** Takes {@code b} into the number when it continues it. */
    private boolean continuesNumber(int b) {
        boolean digit = b >= '0' && b <= '9';
        switch (numberPart) {
            case MINUS -> {
                if (!digit) {
                    return false;
                }
                numberPart = b == '0' ? ZERO : INT;
            }
            case ZERO, INT -> {
                if (digit && numberPart == INT) {
                    return true;
                }
                if (digit) {
                    fail("a number does not start with 0 followed by digits", b);
                    return true;
                }
                if (b == '.') {
                    numberPart = DOT;
                } else if (b == 'e' || b == 'E') {
                    numberPart = E;
                } else {
                    return false;
                }
            }
            case DOT, FRACTION -> {
                if (digit) {
                    numberPart = FRACTION;
                } else if (numberPart == FRACTION && (b == 'e' || b == 'E')) {
                    numberPart = E;
                } else {
                    return false;
                }
            }
            case E, E_SIGN -> {
                if (digit) {
                    numberPart = EXPONENT;
                } else if (numberPart == E && (b == '+' || b == '-')) {
                    numberPart = E_SIGN;
                } else {
                    return false;
                }
            }
            default -> {
                return digit;
            }
        }
        return true;
    }

    private void endNumber() {
        if (numberPart == ZERO || numberPart == INT || numberPart == FRACTION || numberPart == EXPONENT) {
            valueDone();
        } else {
            fault = "a number ends unfinished at byte " + offset;
        }
    }

    private void inString(int b) {
        if (utf8Left > 0) {
            if ((b & 0xC0) != 0x80) {
                fail("invalid UTF-8", b);
            }
            utf8Left--;
        } else if (b == '"') {
            if (key) {
                expect = Expect.COLON;
            } else {
                valueDone();
            }
        } else if (b == '\\') {
            expect = Expect.ESCAPE;
        } else if (b < 0x20) {
            fail("a control character must be escaped in a string", b);
        } else if (b >= 0x80) {
            // the lead byte's count as the strict parser reads it, overlong forms included
            utf8Left = (b & 0xE0) == 0xC0 ? 1 : (b & 0xF0) == 0xE0 ? 2 : (b & 0xF8) == 0xF0 ? 3 : -1;
            if (utf8Left < 0) {
                fail("invalid UTF-8", b);
            }
        }
    }

    private void escape(int b) {
        if (b == 'u') {
            hexLeft = 4;
            expect = Expect.HEX;
        } else if ("\"\\/bfnrt".indexOf(b) >= 0) {
            expect = Expect.STRING;
        } else {
            fail("an invalid escape in a string", b);
        }
    }

    private void hex(int b) {
        if (!(b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F')) {
            fail("`\\u` takes four hex digits", b);
        } else if (--hexLeft == 0) {
            expect = Expect.STRING;
        }
    }

    private void close() {
        depth--;
        valueDone();
    }

    private void valueDone() {
        expect = depth == 0 ? Expect.END : Expect.AFTER_VALUE;
    }

    private void fail(String why, int b) {
        fault = why + " at byte " + offset + (b >= 0x20 && b < 0x7F ? " (`" + (char) b + "`)" : " (0x"
                + Integer.toHexString(b) + ")");
    }
}
