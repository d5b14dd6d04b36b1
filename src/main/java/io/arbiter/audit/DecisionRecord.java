package io.arbiter.audit;

/**
 * One line of the decision log, encoded once: {@code json} is the whole record as one UTF-8 JSON object without a
 * line end. It says what was asked, under which policy, rule-set, catalog and TypeInstance-store revisions (what
 * reproducing it needs besides the request), what was decided (the response's own bytes, masked where they carry
 * parameter values; a record over {@link #MAX_BYTES} is summarised instead), which rules fired (inside {@code result.firedRules}) and how long it took. The decision id and
 * policy revision are repeated outside the bytes for sinks that key or report records by them.
 */
public record DecisionRecord(String decisionId, String policyRevision, byte[] json) {

    /**
     * The most a record's line takes, its line end included, in every sink: a larger record is summarised
     * ({@code summarised} in it says what was left out). 16 KiB keeps the usual records whole (an implementation
     * decision at request time is 5 to 13 KB) and makes the default file retention hold 20,480 decisions at worst
     * (5 rotated files of 64 MiB, 4,096 records each), whatever the requests; it is also far under a Kafka message's
     * default limit (1 MB).
     */
    public static final int MAX_BYTES = 16 * 1024;

    /** The heap the record keeps while it is queued or indexed (its bytes): what bounds the log's buffer and the index. */
    public long retainedBytes() {
        return json.length;
    }
}
