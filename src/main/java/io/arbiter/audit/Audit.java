package io.arbiter.audit;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import io.arbiter.engine.FiredRule;
import io.arbiter.policytype.Masks;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.arbiter.document.Documents;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Every decision, for auditors: appended to the decision log, kept in the recent-decision index, counted in the
 * metrics. What a policy type's {@link Masks} name is masked unless parameters may be logged.
 */
public final class Audit {

    private final DecisionLog log;
    private final RecentDecisions recent;
    private final Metrics metrics;
    private final boolean logParameters;
    /** Records summarised to fit {@link DecisionRecord#MAX_BYTES}: many say requests are larger than the log was sized for. */
    private final java.util.concurrent.atomic.AtomicLong summarised = new java.util.concurrent.atomic.AtomicLong();

    public Audit(DecisionLog log, RecentDecisions recent, Metrics metrics, boolean logParameters) {
        this.log = log;
        this.recent = recent;
        this.metrics = metrics;
        this.logParameters = logParameters;
        metrics.gauge("arbiter.decision.log.dropped", "Decision records dropped because the log could not keep up", log::dropped);
        metrics.gauge("arbiter.decision.log.summarised",
                "Decision records summarised because the whole record would pass the bound of 16 KiB", summarised::get);
        metrics.gauge("arbiter.decision.log.written", "Decision records written to the decision log", log::written);
        metrics.gauge("arbiter.decision.log.failed",
                "Decision records that could not be written: a failed write, or not written in time", log::failed);
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
     * One decision as the runtime hands it over: the envelope's values, typed, what its record logs of the request
     * and result ({@link #logged}) and the response's bytes, encoded once; {@code masks} says where the response (of
     * which the result's fields are part) carries values the log masks unless parameters may be logged.
     */
    public record Decided(String decisionId, String endpoint, String outcome, String policyRevision,
                          List<FiredRule> firedRules, Logged logged, byte[] responseJson, Masks masks) {
    }

    /**
     * What a decision's record logs of its request, and whether its response must be masked: the same for every
     * decision of one request under one snapshot, so a memoised decision works it out once.
     */
    public record Logged(String requestDigest, int requestBytes, byte[] request, boolean responseMasked,
                         byte[] ruleSources) {
    }

    /**
     * What the record of a decision of {@code body} (parsed: {@code request}) with {@code result} logs;
     * {@code ruleSources} says where each rule that fired is written ({@code file:line}), so that the record
     * explains itself without the rule base.
     */
    public Logged logged(byte[] body, JsonNode request, Object result, Masks masks, java.util.Map<String, String> ruleSources) {
        // the response's masked paths are the result's own fields: only a result with values there is masked
        JsonNode resultTree = logParameters || masks.response().isEmpty() ? null : Documents.jsonMapper().valueToTree(result);
        return new Logged(digest(body), body.length, encode(logParameters ? request : masks.maskRequest(request)),
                resultTree != null && masks.maskResponse(resultTree) != resultTree, encode(ruleSources));
    }

    /**
     * Whether the record of a decision that logs {@code logged} embeds its response of {@code responseBytes} as it was
     * encoded, whole: neither masked nor summarised to fit {@link DecisionRecord#MAX_BYTES}, both of which read the
     * response back. A kilobyte is left for the record's own values.
     */
    public boolean recordsAsEncoded(Logged logged, int responseBytes) {
        return !logged.responseMasked()
                && responseBytes + logged.request().length + logged.ruleSources().length < DecisionRecord.MAX_BYTES - 1024;
    }

    /**
     * Records one decision: the log record embeds the response's own bytes (or, where the response carries values
     * the type masks and parameters are not logged, a masked copy). In REQUIRED log mode this returns once the record
     * is written, and throws {@link DecisionLogUnavailableException} when it cannot be: then the decision must not be
     * answered, and it is neither indexed nor counted. A record that would take more than
     * {@link DecisionRecord#MAX_BYTES} is summarised ({@link RecordBound}): its firings counted per rule, its request
     * kept by digest, and what else it takes to fit left out, each named in the record.
     */
    public void record(Decided decided, long nanos) {
        byte[] loggedResult = decided.logged().responseMasked()
                ? encode(decided.masks().maskResponse(tree(decided.responseJson()))) : decided.responseJson();
        Line line = new Line(decided.decisionId(), Instant.now().toString(), decided.endpoint(),
                decided.logged().requestDigest(), raw(decided.logged().request()), decided.outcome(), nanos / 1_000,
                raw(loggedResult), raw(decided.logged().ruleSources()));
        byte[] json = encode(line);
        if (json.length + 1L > DecisionRecord.MAX_BYTES) {
            ObjectNode head = (ObjectNode) tree(encode(line.withoutResult()));
            json = RecordBound.summarise(head, tree(loggedResult), json.length + 1L, decided.logged().requestBytes());
            summarised.incrementAndGet();
        }
        DecisionRecord record = new DecisionRecord(decided.decisionId(), decided.policyRevision(), json);
        log.append(record).awaitWritten();
        recent.add(record);
        metrics.decision(decided.endpoint(), decided.outcome(), nanos, decided.firedRules().stream().map(FiredRule::rule).toList());
    }

    private static RawValue raw(byte[] json) {
        return new RawValue(new Encoded(json));
    }

    /**
     * A record's line, in the order its fields are written: the decision's own values, then {@code result}, the
     * response as it was encoded (its revisions are its own fields, not repeated here), then {@code ruleSources},
     * where each rule that fired is written.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private record Line(String decisionId, String timestamp, String endpoint, String requestDigest, RawValue request,
                        String outcome, long durationMicros, RawValue result, RawValue ruleSources) {
        Line withoutResult() {
            return new Line(decisionId, timestamp, endpoint, requestDigest, request, outcome, durationMicros, null, ruleSources);
        }
    }

    /**
     * JSON already encoded, written as it is into the record that embeds it: a generator writes a raw value's UTF-8
     * bytes, which a {@link SerializedString} keeps once encoded; these are given, not encoded from a text.
     */
    private static final class Encoded extends SerializedString {
        Encoded(byte[] json) {
            super("");
            _unquotedUTF8Ref = json;
        }
    }

    private static JsonNode tree(byte[] json) {
        try {
            return Documents.jsonMapper().readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot read back an encoded decision", e);
        }
    }

    private static byte[] encode(Object value) {
        try {
            return Documents.jsonMapper().writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode a decision record", e);
        }
    }

    /** Whether recording a decision waits for its record to be written (a REQUIRED decision log). */
    public boolean waitsForLog() {
        return log.waitsForWrites();
    }

    /** The decision log's state, for readiness and status. */
    public DecisionLog.Health logHealth() {
        return log.health();
    }

    public Optional<DecisionRecord> find(String decisionId) {
        return recent.find(decisionId);
    }

    /** The decisions of the recent-decision index, oldest first, as they were logged. */
    public List<DecisionRecord> recentDecisions() {
        return recent.records();
    }

    public void close() {
        log.close();
    }

    private static String digest(byte[] body) {
        try {
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

}
