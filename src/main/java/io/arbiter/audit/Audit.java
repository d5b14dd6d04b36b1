package io.arbiter.audit;

import com.fasterxml.jackson.databind.JsonNode;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Every decision, for auditors: appended to the decision log, kept in the recent-decision index, counted in the
 * metrics. Additional parameter values are masked unless parameters may be logged.
 */
public final class Audit {

    private final DecisionLog log;
    private final RecentDecisions recent;
    private final Metrics metrics;
    private final boolean logParameters;

    public Audit(DecisionLog log, RecentDecisions recent, Metrics metrics, boolean logParameters) {
        this.log = log;
        this.recent = recent;
        this.metrics = metrics;
        this.logParameters = logParameters;
        metrics.gauge("arbiter.decision.log.dropped", "Decision records dropped because the log could not keep up", log::dropped);
        metrics.gauge("arbiter.decision.log.written", "Decision records written to the decision log", log::written);
        metrics.gauge("arbiter.decision.log.failed",
                "Decision records that could not be written: unserialisable, a failed write, or not written in time", log::failed);
        metrics.gauge("arbiter.decision.log.writer.alive", "1 while the decision log's writer runs (or there is no log)",
                () -> !log.health().enabled() || log.health().writerAlive() ? 1 : 0);
        metrics.gauge("arbiter.decision.log.writable", "0 from a failed write of the decision log until one succeeds",
                () -> log.health().writable() ? 1 : 0);
        metrics.gauge("arbiter.decision.log.last.error.timestamp.seconds",
                "When a decision record last failed (Unix time; 0: never)", () -> {
                    var at = log.health().lastErrorAt();
                    return at == null ? 0 : at.toEpochMilli() / 1000.0;
                });
    }

    /** No log file; recent decisions and metrics still work. */
    public static Audit inMemory() {
        return new Audit(DecisionLog.OFF, new RecentDecisions(1_000), new Metrics(), false);
    }

    public Metrics metrics() {
        return metrics;
    }

    /**
     * Records one decision. In REQUIRED log mode this returns once the record is written, and throws {@link
     * DecisionLogUnavailableException} when it cannot be: then the decision must not be answered, and it is neither
     * indexed nor counted.
     */
    public void record(String endpoint, byte[] requestBody, JsonNode request, JsonNode result, long nanos) {
        String outcome = result.path("outcome").asText("DECIDED");
        JsonNode loggedRequest = logParameters ? request : Masking.maskParameters(request);
        JsonNode loggedResult = logParameters ? result : Masking.maskParameters(result);
        DecisionRecord record = new DecisionRecord(result.path("decisionId").asText(), Instant.now().toString(), endpoint,
                digest(requestBody), loggedRequest, result.path("policyRevision").asText(null),
                result.path("rulesRevision").asText(null), result.path("catalogRevision").asText(null),
                result.path("typeInstancesRevision").asText(null), outcome, loggedResult, nanos / 1_000);
        List<String> firedRules = firedRules(result);
        long retainedBytes = retainedBytes(requestBody.length, firedRules.size());
        log.append(record, retainedBytes).awaitWritten();
        recent.add(record, retainedBytes);
        metrics.decision(endpoint, outcome, nanos, firedRules);
    }

    /**
     * About how much heap a decision's record keeps while it is queued for the log or kept in the index: what bounds
     * both by memory as well as by count. Measured with the heap after GC: a request's tree takes about 6 times its
     * body (7.3 MB for a 1.2 MB dependency request), a firing with its fact ids about 300 bytes, and the rest of a
     * result grows with the request. The estimate is on the high side: 20 KB for a typical implementation decision
     * (16 KB measured), 13.3 MB for the 500-policy dependency decision of DependenciesBenchmark (12.7 MB measured).
     */
    static long retainedBytes(int requestBytes, int firings) {
        return 8L * requestBytes + 300L * firings + 4_096;
    }

    /** The decision log's state, for readiness and status. */
    public DecisionLog.Health logHealth() {
        return log.health();
    }

    public Optional<DecisionRecord> find(String decisionId) {
        return recent.find(decisionId);
    }

    public void close() {
        log.close();
    }

    private static List<String> firedRules(JsonNode result) {
        List<String> fired = new ArrayList<>();
        result.path("firedRules").forEach(rule -> fired.add(rule.path("rule").asText()));
        return fired;
    }

    private static String digest(byte[] body) {
        try {
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

}
