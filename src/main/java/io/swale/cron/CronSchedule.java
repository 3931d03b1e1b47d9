package io.swale.cron;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * A schedule in the 5-field UTC cron dialect (spec §4.1), with its next and previous occurrences.
 *
 * <p>The fields are parsed here, strictly (steps only after a range or {@code *}, names normalised to
 * numbers, a {@code +} prefix on day of week). Occurrences are computed by cron-utils (UNIX definition) on
 * a canonical form of the fields: a field that matches every value is written {@code *}, any other as the
 * list of its values. A day field counts as <em>restricted</em> when it leaves out some value; when both
 * day fields are restricted a day matches if either matches, or, with {@code +}, if both match (cron-utils
 * has no AND, so the day of week is then checked here, a day at a time). An expression that can never
 * match (30 February) is valid and has no occurrence.
 */
public final class CronSchedule {
    private static final CronParser UNIX = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
    /** Days skipped while looking for a day that also matches the day of week (the AND rule). */
    private static final int MAX_DAY_SKIPS = 50_000;
    private static final int[] MONTH_DAYS = {0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

    private final String text;
    private final List<CronField> fields;
    private final boolean dayAnd;
    private final boolean satisfiable;
    private final boolean checkDayOfWeek;
    private final ExecutionTime engine;

    private CronSchedule(String text, List<CronField> fields, boolean dayAnd) {
        this.text = text;
        this.fields = List.copyOf(fields);
        this.dayAnd = dayAnd;
        CronField dom = fields.get(2);
        CronField dow = fields.get(4);
        boolean either = dom.restricted() && dow.restricted() && !dayAnd;
        this.satisfiable = either || someDateExists(dom, fields.get(3));
        this.checkDayOfWeek = dayAnd && dom.restricted() && dow.restricted();
        this.engine = satisfiable ? ExecutionTime.forCron(UNIX.parse(canonical())) : null;
    }

    /**
     * Parses {@code text}: exactly five whitespace-separated fields, minute hour day-of-month month
     * day-of-week, always in UTC.
     *
     * @throws InvalidCronException naming the field and what is wrong with it
     */
    public static CronSchedule parse(String text) {
        Objects.requireNonNull(text, "text");
        String trimmed = text.strip();
        String[] parts = trimmed.isEmpty() ? new String[0] : trimmed.split("\\s+");
        if (parts.length != 5) {
            throw new InvalidCronException("expected 5 fields (minute hour day-of-month month day-of-week), found "
                    + parts.length + (parts.length == 6 ? ": a seconds or year field is not supported" : ""));
        }
        boolean and = parts[4].startsWith("+");
        if (and) {
            parts[4] = parts[4].substring(1);
        }
        List<CronField> fields = new ArrayList<>();
        CronFieldKind[] kinds = CronFieldKind.values();
        for (int i = 0; i < 5; i++) {
            fields.add(CronField.parse(kinds[i], parts[i]));
        }
        return new CronSchedule(text, fields, and);
    }

    /** The expression as written. */
    public String text() {
        return text;
    }

    /** The expression with single spaces and names replaced by numbers: {@code 0 9 * * mon-fri} → {@code 0 9 * * 1-5}. */
    public String normalized() {
        StringJoiner j = new StringJoiner(" ");
        for (int i = 0; i < 5; i++) {
            j.add((i == 4 && dayAnd ? "+" : "") + fields.get(i).text());
        }
        return j.toString();
    }

    public CronField field(CronFieldKind kind) {
        return fields.get(kind.ordinal());
    }

    /** False when no instant can ever match, e.g. {@code 0 0 30 2 *}. */
    public boolean satisfiable() {
        return satisfiable;
    }

    /** The first occurrence strictly after {@code after}; empty when there is none. */
    public Optional<Instant> next(Instant after) {
        if (!satisfiable) {
            return Optional.empty();
        }
        try {
            Optional<ZonedDateTime> c = engine.nextExecution(utc(after.truncatedTo(ChronoUnit.MINUTES)));
            for (int skips = 0; c.isPresent() && !dayOfWeekMatches(c.get()); skips++) {
                if (skips >= MAX_DAY_SKIPS) {
                    return Optional.empty();
                }
                c = engine.nextExecution(c.get().with(LocalTime.of(23, 59)));
            }
            return c.map(ZonedDateTime::toInstant);
        } catch (DateTimeException | ArithmeticException e) {
            return Optional.empty();
        }
    }

    /** The last occurrence strictly before {@code before}; empty when there is none. */
    public Optional<Instant> previous(Instant before) {
        if (!satisfiable) {
            return Optional.empty();
        }
        try {
            Instant floor = before.truncatedTo(ChronoUnit.MINUTES);
            Instant bound = floor.equals(before) ? floor : floor.plus(1, ChronoUnit.MINUTES);
            Optional<ZonedDateTime> c = engine.lastExecution(utc(bound));
            for (int skips = 0; c.isPresent() && !dayOfWeekMatches(c.get()); skips++) {
                if (skips >= MAX_DAY_SKIPS) {
                    return Optional.empty();
                }
                c = engine.lastExecution(c.get().truncatedTo(ChronoUnit.DAYS));
            }
            return c.map(ZonedDateTime::toInstant);
        } catch (DateTimeException | ArithmeticException e) {
            return Optional.empty();
        }
    }

    /** The firing at {@code occurrence}, carrying the occurrence before it (spec §4.2). */
    public Firing firing(Instant occurrence) {
        return new Firing(occurrence.toEpochMilli(), previous(occurrence).map(Instant::toEpochMilli));
    }

    /** Whether the instant, to the minute, is an occurrence. */
    public boolean matches(Instant t) {
        ZonedDateTime z = utc(t);
        boolean domMatch = field(CronFieldKind.DAY_OF_MONTH).matches(z.getDayOfMonth());
        boolean dowMatch = field(CronFieldKind.DAY_OF_WEEK).matches(z.getDayOfWeek().getValue() % 7);
        boolean bothRestricted = field(CronFieldKind.DAY_OF_MONTH).restricted()
                && field(CronFieldKind.DAY_OF_WEEK).restricted();
        boolean day = bothRestricted && !dayAnd ? domMatch || dowMatch : domMatch && dowMatch;
        return day && field(CronFieldKind.MINUTE).matches(z.getMinute()) && field(CronFieldKind.HOUR).matches(z.getHour())
                && field(CronFieldKind.MONTH).matches(z.getMonthValue());
    }

    private boolean dayOfWeekMatches(ZonedDateTime t) {
        return !checkDayOfWeek || field(CronFieldKind.DAY_OF_WEEK).matches(t.getDayOfWeek().getValue() % 7);
    }

    /** The expression cron-utils evaluates: {@code *} or a plain list per field. */
    private String canonical() {
        StringJoiner j = new StringJoiner(" ");
        for (CronField f : fields) {
            boolean all = !f.restricted() || (checkDayOfWeek && f.kind() == CronFieldKind.DAY_OF_WEEK);
            j.add(all ? "*" : values(f));
        }
        return j.toString();
    }

    private static String values(CronField f) {
        StringJoiner j = new StringJoiner(",");
        for (int v = f.kind().min(); v <= f.kind().max(); v++) {
            if (f.matches(v)) {
                j.add(Integer.toString(v));
            }
        }
        return j.toString();
    }

    /** Whether some month of the field has some day of the field (29 February counts: leap years exist). */
    private static boolean someDateExists(CronField dom, CronField month) {
        for (int m = 1; m <= 12; m++) {
            for (int d = 1; d <= MONTH_DAYS[m]; d++) {
                if (month.matches(m) && dom.matches(d)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static ZonedDateTime utc(Instant t) {
        return t.atZone(ZoneOffset.UTC);
    }

    @Override
    public String toString() {
        return normalized();
    }
}
