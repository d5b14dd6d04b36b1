package io.arbiter.decision.rollout;

import java.time.LocalDate;

/**
 * A fast path for the RFC 3339 times Kubernetes writes ({@code 2026-01-01T00:10:00Z}, optionally with a fraction
 * or a {@code ±hh:mm} offset): a rollout of thousands of clusters carries one per record, and {@code java.time}'s
 * general parser costs microseconds each. Returns null for anything else, which the caller hands to
 * {@link java.time.OffsetDateTime#parse}: that one decides what is valid and says what is wrong.
 */
final class Rfc3339 {

    private Rfc3339() {
    }

    static Long micros(String text) {
        int length = text.length();
        if (length < 20 || text.charAt(4) != '-' || text.charAt(7) != '-' || text.charAt(10) != 'T'
                || text.charAt(13) != ':' || text.charAt(16) != ':') {
            return null;
        }
        int year = digits(text, 0, 4);
        int month = digits(text, 5, 7);
        int day = digits(text, 8, 10);
        int hour = digits(text, 11, 13);
        int minute = digits(text, 14, 16);
        int second = digits(text, 17, 19);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > 28 || hour > 23 || minute > 59 || second > 59) {
            return null;
        }
        int at = 19;
        long fractionMicros = 0;
        if (text.charAt(at) == '.') {
            int start = ++at;
            while (at < length && Character.isDigit(text.charAt(at))) {
                at++;
            }
            if (at == start || at - start > 9) {
                return null;
            }
            String fraction = (text.substring(start, at) + "000000").substring(0, 6);
            fractionMicros = Long.parseLong(fraction);
        }
        int offsetSeconds;
        if (at == length - 1 && (text.charAt(at) == 'Z' || text.charAt(at) == 'z')) {
            offsetSeconds = 0;
        } else if (at == length - 6 && (text.charAt(at) == '+' || text.charAt(at) == '-') && text.charAt(at + 3) == ':') {
            int offsetHours = digits(text, at + 1, at + 3);
            int offsetMinutes = digits(text, at + 4, at + 6);
            if (offsetHours < 0 || offsetHours > 17 || offsetMinutes < 0 || offsetMinutes > 59) {
                return null;
            }
            offsetSeconds = (offsetHours * 3600 + offsetMinutes * 60) * (text.charAt(at) == '-' ? -1 : 1);
        } else {
            return null;
        }
        long epochSecond = LocalDate.of(year, month, day).toEpochDay() * 86_400L + hour * 3600L + minute * 60L + second
                - offsetSeconds;
        return epochSecond * 1_000_000L + fractionMicros;
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
}
