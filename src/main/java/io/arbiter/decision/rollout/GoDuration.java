package io.arbiter.decision.rollout;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;

/**
 * Durations as Go's {@code time.ParseDuration} reads them ({@code 90s}, {@code 1h30m}, {@code 1.5h}, {@code 500ms},
 * {@code -2m}, {@code 0}), in microseconds. Kubernetes writes {@code metav1.Duration} fields this way.
 *
 * <p>Read part by part in one loop, as Go does: a regular expression over repeated parts recurses once per part,
 * and a long enough duration overflowed the stack.
 */
final class GoDuration {

    private static final Map<String, Long> NANOS_PER_UNIT = Map.of(
            "ns", 1L, "us", 1_000L, "µs", 1_000L, "μs", 1_000L, "ms", 1_000_000L, "s", 1_000_000_000L,
            "m", 60_000_000_000L, "h", 3_600_000_000_000L);

    /** A long has 19 digits. */
    private static final int MAX_WHOLE_DIGITS = 19;
    private static final int MAX_FRACTION_DIGITS = 30;

    private GoDuration() {
    }

    /** Microseconds; throws {@link IllegalArgumentException} for what Go refuses, and for what overflows Go's int64 of nanoseconds. */
    static long parseMicros(String text) {
        int at = 0;
        boolean negative = false;
        if (!text.isEmpty() && (text.charAt(0) == '-' || text.charAt(0) == '+')) {
            negative = text.charAt(0) == '-';
            at = 1;
        }
        if (text.substring(at).equals("0")) {
            return 0;
        }
        if (at == text.length()) {
            throw notADuration(text);
        }
        long nanos = 0;
        while (at < text.length()) {
            int start = at;
            at = skipDigits(text, at);
            String whole = text.substring(start, at);
            String fraction = "";
            if (at < text.length() && text.charAt(at) == '.') {
                int fractionStart = ++at;
                at = skipDigits(text, at);
                fraction = text.substring(fractionStart, at);
            }
            if (whole.isEmpty() && fraction.isEmpty()) {
                throw notADuration(text);
            }
            int unitStart = at;
            while (at < text.length() && text.charAt(at) != '.' && (text.charAt(at) < '0' || text.charAt(at) > '9')) {
                at++;
            }
            Long unit = NANOS_PER_UNIT.get(text.substring(unitStart, at));
            if (unit == null) {
                throw notADuration(text);
            }
            try {
                nanos = Math.addExact(nanos, partNanos(whole, fraction, unit));
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException(RolloutRequest.quote(text) + " is longer than a duration can be (about 292 years)");
            }
        }
        long micros = nanos / 1_000;
        return negative ? -micros : micros;
    }

    /**
     * {@code whole.fraction} units in nanoseconds, rounded down; {@link ArithmeticException} when over a long. Only
     * so many digits are read, so that a megabyte of digits costs no quadratic big-number arithmetic: a whole part
     * longer than a long overflows anyway, and fraction digits that far down are far below a nanosecond (Go reads
     * fewer).
     */
    private static long partNanos(String whole, String fraction, long unit) {
        String significant = whole.replaceFirst("^0+", "");
        if (significant.length() > MAX_WHOLE_DIGITS) {
            throw new ArithmeticException("overflow");
        }
        String read = fraction.length() > MAX_FRACTION_DIGITS ? fraction.substring(0, MAX_FRACTION_DIGITS) : fraction;
        BigDecimal value = new BigDecimal((significant.isEmpty() ? "0" : significant) + (read.isEmpty() ? "" : "." + read));
        return value.multiply(BigDecimal.valueOf(unit)).setScale(0, RoundingMode.DOWN).longValueExact();
    }

    private static int skipDigits(String text, int at) {
        while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
            at++;
        }
        return at;
    }

    private static IllegalArgumentException notADuration(String text) {
        return new IllegalArgumentException(RolloutRequest.quote(text) + " is not a duration (e.g. 90s, 1h30m, 500ms)");
    }
}
