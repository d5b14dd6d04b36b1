package io.arbiter.decision.rollout;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as Go's {@code time.ParseDuration} reads them ({@code 90s}, {@code 1h30m}, {@code 1.5h}, {@code 500ms},
 * {@code -2m}, {@code 0}), in microseconds. Kubernetes writes {@code metav1.Duration} fields this way.
 */
final class GoDuration {

    private static final Pattern WHOLE = Pattern.compile("[-+]?(?:(?:\\d+\\.?\\d*|\\.\\d+)(?:ns|us|µs|μs|ms|s|m|h))+");
    private static final Pattern PART = Pattern.compile("(\\d+\\.?\\d*|\\.\\d+)(ns|us|µs|μs|ms|s|m|h)");
    private static final Map<String, BigDecimal> NANOS_PER_UNIT = Map.of(
            "ns", BigDecimal.ONE, "us", BigDecimal.valueOf(1_000), "µs", BigDecimal.valueOf(1_000),
            "μs", BigDecimal.valueOf(1_000), "ms", BigDecimal.valueOf(1_000_000), "s", BigDecimal.valueOf(1_000_000_000L),
            "m", BigDecimal.valueOf(60_000_000_000L), "h", BigDecimal.valueOf(3_600_000_000_000L));
    /** Go's limit: a duration is an int64 of nanoseconds. */
    private static final BigDecimal MAX_NANOS = BigDecimal.valueOf(Long.MAX_VALUE);

    private GoDuration() {
    }

    /** Microseconds; throws {@link IllegalArgumentException} with Go's wording for what it refuses. */
    static long parseMicros(String text) {
        if (text.equals("0") || text.equals("+0") || text.equals("-0")) {
            return 0;
        }
        if (!WHOLE.matcher(text).matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration (e.g. 90s, 1h30m, 500ms)");
        }
        BigDecimal nanos = BigDecimal.ZERO;
        Matcher part = PART.matcher(text);
        while (part.find()) {
            nanos = nanos.add(new BigDecimal(part.group(1).endsWith(".") ? part.group(1) + "0" : part.group(1))
                    .multiply(NANOS_PER_UNIT.get(part.group(2))));
        }
        if (nanos.compareTo(MAX_NANOS) > 0) {
            throw new IllegalArgumentException("'" + text + "' is longer than a duration can be (about 292 years)");
        }
        long micros = nanos.divide(BigDecimal.valueOf(1_000), 0, RoundingMode.DOWN).longValueExact();
        return text.startsWith("-") ? -micros : micros;
    }
}
