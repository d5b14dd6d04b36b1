package io.arbiter.audit;

/**
 * One line of the decision log, encoded once: {@code json} is the whole record as one UTF-8 JSON object without a
 * line end. It says what was asked, under which policy, rule-set, catalog and TypeInstance-store revisions (what
 * reproducing it needs besides the request), what was decided (the response's own bytes, masked where they carry
 * parameter values), which rules fired (inside {@code result.firedRules}) and how long it took. The decision id and
 * policy revision are repeated outside the bytes for sinks that key or report records by them.
 */
public record DecisionRecord(String decisionId, String policyRevision, byte[] json) {

    /** The heap the record keeps while it is queued or indexed (its bytes): what bounds the log's buffer and the index. */
    public long retainedBytes() {
        return json.length;
    }
}
