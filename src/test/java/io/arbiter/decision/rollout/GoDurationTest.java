package io.arbiter.decision.rollout;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Go's time.ParseDuration, in microseconds. */
class GoDurationTest {

    @Test
    void readsWhatGoReads() {
        assertEquals(90_000_000L, GoDuration.parseMicros("90s"));
        assertEquals(5_400_000_000L, GoDuration.parseMicros("1h30m"));
        assertEquals(5_400_000_000L, GoDuration.parseMicros("1.5h"));
        assertEquals(500_000L, GoDuration.parseMicros("500ms"));
        assertEquals(-120_000_000L, GoDuration.parseMicros("-2m"));
        assertEquals(1_000_000L, GoDuration.parseMicros("+1s"));
        assertEquals(1_000_000L, GoDuration.parseMicros("1.s"));
        assertEquals(500_000L, GoDuration.parseMicros(".5s"));
        assertEquals(3L, GoDuration.parseMicros("3us") + GoDuration.parseMicros("999ns"));
        assertEquals(2L, GoDuration.parseMicros("1µs1μs"));
        assertEquals(1_000_000L, GoDuration.parseMicros("0000000000000000000000001s"));
        assertEquals(0, GoDuration.parseMicros("0"));
        assertEquals(0, GoDuration.parseMicros("-0"));
    }

    @Test
    void refusesWhatGoRefuses() {
        for (String text : new String[]{"", "-", "1", "00", "1x", "1.5", ".s", "s", "1h 30m", "1e3s", "--1s", "1s-1s"}) {
            assertThrows(IllegalArgumentException.class, () -> GoDuration.parseMicros(text), text);
        }
    }

    /** "1s" a thousand times overflowed the stack of the regular expression that read it. */
    @Test
    void aLongDurationIsReadPartByPart() {
        assertEquals(1_000_000_000L, GoDuration.parseMicros("1s".repeat(1000)));
        assertEquals(100_000_000_000L, GoDuration.parseMicros("1s".repeat(100_000)));
    }

    @Test
    void aDurationOverGosInt64OfNanosecondsIsRefused() {
        assertEquals(Long.MAX_VALUE / 1000, GoDuration.parseMicros("9223372036854775807ns"));
        IllegalArgumentException overflow = assertThrows(IllegalArgumentException.class,
                () -> GoDuration.parseMicros("9223372036854775808ns"));
        assertTrue(overflow.getMessage().contains("longer than a duration can be"), overflow.getMessage());
        assertThrows(IllegalArgumentException.class, () -> GoDuration.parseMicros("2562048h"));
        assertThrows(IllegalArgumentException.class, () -> GoDuration.parseMicros("1000000h".repeat(10)));
        assertThrows(IllegalArgumentException.class, () -> GoDuration.parseMicros("9".repeat(100_000) + "s"));
    }

    @Test
    void aRefusedDurationIsQuotedShort() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> GoDuration.parseMicros("1x".repeat(10_000)));
        assertTrue(refused.getMessage().length() < 120, refused.getMessage());
    }
}
