package io.swale.cron;

import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * One parsed field: the set of values it matches (bit {@code v} of {@code mask}) and its normalised text,
 * where names are replaced by numbers.
 *
 * <p>Grammar: {@code item(,item)*}; an item is {@code *}, a value, or a range {@code a-b}, and only
 * {@code *} and a range may take a step {@code /n}. Values are numbers or, for month and day of week,
 * three-letter names. Day of week also accepts 7 for Sunday.
 */
public record CronField(CronFieldKind kind, long mask, String text) {

    /** Whether the field leaves out some value of its range. */
    public boolean restricted() {
        return mask != kind.fullMask();
    }

    public boolean matches(int value) {
        return value >= 0 && value < 64 && (mask & (1L << value)) != 0;
    }

    static CronField parse(CronFieldKind kind, String text) {
        if (text.isEmpty()) {
            throw problem(kind, text, "it is empty");
        }
        long mask = 0;
        StringJoiner normal = new StringJoiner(",");
        for (String item : splitItems(kind, text)) {
            Item parsed = item(kind, text, item);
            mask |= parsed.mask();
            normal.add(parsed.text());
        }
        return new CronField(kind, mask, normal.toString());
    }

    private record Item(long mask, String text) {}

    private static List<String> splitItems(CronFieldKind kind, String text) {
        List<String> items = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= text.length(); i++) {
            if (i == text.length() || text.charAt(i) == ',') {
                if (i == start) {
                    throw problem(kind, text, "a list has an empty element");
                }
                items.add(text.substring(start, i));
                start = i + 1;
            }
        }
        return items;
    }

    private static Item item(CronFieldKind kind, String field, String item) {
        int slash = item.indexOf('/');
        String base = slash < 0 ? item : item.substring(0, slash);
        int from;
        int to;
        String baseText;
        boolean single = false;
        if (base.equals("*")) {
            from = kind.min();
            to = kind.max();
            baseText = "*";
        } else {
            int dash = base.indexOf('-', 1);
            if (dash < 0) {
                from = value(kind, field, base);
                to = from;
                single = true;
                baseText = Integer.toString(from);
            } else {
                from = value(kind, field, base.substring(0, dash));
                to = value(kind, field, base.substring(dash + 1));
                // `sat-sun` ends on Sunday as `6-7` does: a named Sunday closing a range is 7
                if (kind == CronFieldKind.DAY_OF_WEEK && to == 0 && from > 0
                        && Character.isLetter(base.charAt(dash + 1))) {
                    to = 7;
                }
                if (from > to) {
                    throw problem(kind, field, "the range `" + base + "` runs backwards");
                }
                baseText = from + "-" + to;
            }
        }
        int step = 1;
        String stepText = "";
        if (slash >= 0) {
            if (single) {
                throw problem(kind, field, "a step needs a range or `*` before it, as in `*/5` or `5-59/5`, not `" + item + "`");
            }
            String s = item.substring(slash + 1);
            step = number(kind, field, s, "step");
            if (step < 1) {
                throw problem(kind, field, "the step of `" + item + "` must be at least 1");
            }
            stepText = "/" + step;
        }
        long mask = 0;
        for (int v = from; v <= to; v += step) {
            mask |= 1L << (kind == CronFieldKind.DAY_OF_WEEK && v == 7 ? 0 : v);
        }
        return new Item(mask, baseText + stepText);
    }

    private static int value(CronFieldKind kind, String field, String token) {
        if (!token.isEmpty() && Character.isLetter(token.charAt(0))) {
            return kind.named(token).orElseThrow(() -> problem(kind, field, "`" + token + "` is not a "
                    + kind.label() + (kind.hasNames() ? " name" : " value (only month and day of week take names)")));
        }
        int v = number(kind, field, token, "value");
        if (v < kind.min() || v > kind.maxWritten()) {
            throw problem(kind, field, "value " + v + " is outside " + kind.min() + "-" + kind.maxWritten());
        }
        return v;
    }

    private static int number(CronFieldKind kind, String field, String token, String what) {
        if (token.isEmpty() || token.length() > 4 || !token.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw problem(kind, field, "`" + token + "` is not a " + what);
        }
        return Integer.parseInt(token);
    }

    private static InvalidCronException problem(CronFieldKind kind, String field, String why) {
        return new InvalidCronException(kind.label() + " field `" + field + "`: " + why);
    }
}
