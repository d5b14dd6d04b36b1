package io.arbiter.decision.rollout;

import java.time.DateTimeException;
import java.time.LocalDate;

/**
 * RFC 3339 date-times ({@code 2026-01-01T00:10:00Z}, {@code 2026-01-01T00:10:00.5+02:00}) in microseconds since
 * the epoch. Written out rather than left to {@code java.time}: its ISO parser also takes what RFC 3339 does not (an
 * empty fraction {@code 00:00:00.Z}, no seconds, years beyond 9999), and a rollout of thousands of clusters carries
 * one time per record, which the general parser costs microseconds each to read.
 *
 * <p>Every year RFC 3339 can write, 0000 to 9999, fits: microseconds since the epoch stay within a long. Second 60
 * (a leap second) is refused, as Go (and so Kubernetes) refuses it.
 */
final class Rfc3339 {

    private static final int DATE_TIME_LENGTH = 19; // 2026-01-01T00:10:00

    private Rfc3339() {
    }

    /** Microseconds since the epoch; throws {@link IllegalArgumentException} saying what is wrong. */
    static long micros(String text) {
        int length = text.length();
        if (length < DATE_TIME_LENGTH + 1 || text.charAt(4) != '-' || text.charAt(7) != '-'
                || (text.charAt(10) != 'T' && text.charAt(10) != 't') || text.charAt(13) != ':' || text.charAt(16) != ':') {
            throw invalid("expected YYYY-MM-DDTHH:MM:SS, an optional fraction, then Z or ±HH:MM");
        }
        int year = digits(text, 0, 4);
        int month = digits(text, 5, 7);
        int day = digits(text, 8, 10);
        int hour = digits(text, 11, 13);
        int minute = digits(text, 14, 16);
        int second = digits(text, 17, 19);
        if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) {
            throw invalid("the date and the time are digits: YYYY-MM-DDTHH:MM:SS");
        }
        if (hour > 23 || minute > 59 || second > 59) {
            throw invalid("the time of day is out of range (00:00:00 to 23:59:59)");
        }
        long epochDay;
        try {
            epochDay = LocalDate.of(year, month, day).toEpochDay();
        } catch (DateTimeException e) {
            throw invalid("there is no day " + text.substring(0, 10));
        }
        int at = DATE_TIME_LENGTH;
        long fractionMicros = 0;
        if (text.charAt(at) == '.') {
            int start = ++at;
            while (at < length && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
                at++;
            }
            if (at == start) {
                throw invalid("a fraction of a second needs at least one digit after the '.'");
            }
            for (int i = start; i < start + 6; i++) {
                fractionMicros = fractionMicros * 10 + (i < at ? text.charAt(i) - '0' : 0);
            }
        }
        long offsetSeconds = offsetSeconds(text, at);
        long epochSecond = epochDay * 86_400L + hour * 3600L + minute * 60L + second - offsetSeconds;
        return epochSecond * 1_000_000L + fractionMicros;
    }

    /** {@code Z} (or {@code z}) is 0; {@code ±HH:MM} is its seconds east of UTC. It must end the text. */
    private static long offsetSeconds(String text, int at) {
        int length = text.length();
        if (at == length - 1 && (text.charAt(at) == 'Z' || text.charAt(at) == 'z')) {
            return 0;
        }
        if (at == length - 6 && (text.charAt(at) == '+' || text.charAt(at) == '-') && text.charAt(at + 3) == ':') {
            int hours = digits(text, at + 1, at + 3);
            int minutes = digits(text, at + 4, at + 6);
            if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) {
                throw invalid("the offset is out of range (-23:59 to +23:59)");
            }
            return (hours * 3600L + minutes * 60L) * (text.charAt(at) == '-' ? -1 : 1);
        }
        throw invalid("the time must end in Z or an offset ±HH:MM");
    }

    /** The decimal number in {@code text[from, to)}, or -1 if it is not all digits. */
    private static int digits(String text, int from, int to) {
        int value = 0;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static IllegalArgumentException invalid(String why) {
        return new IllegalArgumentException(why);
    }
}
