package io.arbiter.decision.rollout;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** RFC 3339 date-times in microseconds since the epoch. */
class Rfc3339Test {

    private static long expected(String text) {
        Instant instant = OffsetDateTime.parse(text).toInstant();
        return instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1_000;
    }

    @Test
    void readsWhatKubernetesWrites() {
        for (String text : new String[]{"2026-01-01T00:10:00Z", "2026-01-01T00:10:00.5Z", "2024-02-29T23:59:59.123456789+05:30",
                "1970-01-01T00:00:00-00:01", "1969-07-20T20:17:40.000001Z"}) {
            assertEquals(expected(text), Rfc3339.micros(text), text);
        }
        assertEquals(Rfc3339.micros("2026-01-01T00:10:00Z"), Rfc3339.micros("2026-01-01t00:10:00z"));
        assertEquals(Rfc3339.micros("2026-12-30T12:01:00Z"), Rfc3339.micros("2026-12-31T12:00:00+23:59")); // java.time stops at 18:00
        assertEquals(Rfc3339.micros("2026-01-01T00:10:00.123456Z"), Rfc3339.micros("2026-01-01T00:10:00.1234567891234Z"));
    }

    /** Past 2262 a long of nanoseconds overflows: a long of microseconds holds every year RFC 3339 can write. */
    @Test
    void readsEveryYearFrom0000To9999() {
        assertEquals(expected("9999-12-31T23:59:59.999999Z"), Rfc3339.micros("9999-12-31T23:59:59.999999Z"));
        assertEquals(expected("0000-01-01T00:00:00Z"), Rfc3339.micros("0000-01-01T00:00:00Z"));
        assertEquals(ChronoUnit.DAYS.between(Instant.EPOCH, Instant.parse("2263-01-01T00:00:00Z")) * 86_400_000_000L,
                Rfc3339.micros("2263-01-01T00:00:00Z"));
    }

    @Test
    void refusesWhatRfc3339DoesNotAllow() {
        for (String text : new String[]{"2026-01-01T00:00:00.Z", "2026-01-01T00:00:00.+01:00", "2026-01-01T00:00:00",
                "2026-01-01T00:00Z", "2026-01-01 00:00:00Z", "2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z",
                "2026-01-00T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T00:60:00Z", "2026-01-01T00:00:60Z",
                "2026-01-01T00:00:00+24:00", "2026-01-01T00:00:00+01", "2026-01-01T00:00:00+0100", "+12026-01-01T00:00:00Z",
                "2026-01-01T00:00:00ZZ", "2026-01-01T00:00:00.5", "２026-01-01T00:00:00Z", ""}) {
            assertThrows(IllegalArgumentException.class, () -> Rfc3339.micros(text), text);
        }
    }
}
