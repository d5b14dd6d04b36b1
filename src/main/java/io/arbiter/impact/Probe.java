package io.arbiter.impact;

import java.nio.charset.StandardCharsets;

/**
 * One request that impact analysis decides under the baseline and under the candidate snapshot: where it came
 * from, the decision target, what it is about (an Interface, a Type, a logged decision's id, a test), its body.
 */
public record Probe(Source source, String target, String subject, byte[] body) {

    /** Where a probe came from. */
    public enum Source {
        /** Every Interface revision and every Type revision of the catalog. */
        SWEEP,
        /** A logged decision (decision-log files, or the recent-decision index). */
        REPLAY,
        /** A test of a test suite. */
        TEST
    }

    /** Two probes with the same key are decided alike: the request is decided once and counted for each. */
    String key() {
        return target + '\0' + new String(body, StandardCharsets.UTF_8);
    }
}
