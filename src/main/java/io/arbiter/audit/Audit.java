package io.arbiter.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.arbiter.document.Documents;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
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
     * Records one decision whose response was encoded once as {@code response}: the log record embeds those bytes
     * (or, where the result carries parameter values that are not logged, a masked copy). In REQUIRED log mode this
     * returns once the record is written, and throws {@link DecisionLogUnavailableException} when it cannot be: then
     * the decision must not be answered, and it is neither indexed nor counted. A record that would take more than
     * {@link DecisionRecord#MAX_BYTES} is summarised ({@link RecordBound}): its firings counted per rule, its request
     * kept by digest, and what else it takes to fit left out, each named in the record.
     */
    public void record(String endpoint, byte[] requestBody, JsonNode request, JsonNode result, byte[] response, long nanos) {
        String outcome = result.path("outcome").asText("DECIDED");
        JsonNode loggedRequest = logParameters ? request : Masking.maskParameters(request);
        byte[] loggedResult = logParameters || !Masking.hasParameterValues(result) ? response
                : encode(Masking.maskParameters(result));
        String decisionId = result.path("decisionId").asText();
        String policyRevision = result.path("policyRevision").asText(null);
        Envelope envelope = new Envelope(decisionId, Instant.now().toString(), endpoint, digest(requestBody),
                loggedRequest, outcome, nanos / 1_000);
        byte[] head = encode(envelope);
        // the head without its closing brace, the result field, the closing brace and the line end
        long wholeBytes = head.length - 1L + RESULT_FIELD.length + loggedResult.length + 1 + 1;
        byte[] json;
        if (wholeBytes <= DecisionRecord.MAX_BYTES) {
            json = line(head, loggedResult);
        } else {
            json = RecordBound.summarise(Documents.jsonMapper().valueToTree(envelope),
                    logParameters ? result : Masking.maskParameters(result), wholeBytes, requestBody.length);
            summarised.incrementAndGet();
        }
        DecisionRecord record = new DecisionRecord(decisionId, policyRevision, json);
        log.append(record).awaitWritten();
        recent.add(record);
        metrics.decision(endpoint, outcome, nanos, firedRules(result));
    }

    /**
     * A record's fields but its result, in the order they are written. The revisions the decision was made with are
     * its result's own fields, not repeated here.
     */
    private record Envelope(String decisionId, String timestamp, String endpoint, String requestDigest, JsonNode request,
                            String outcome, long durationMicros) {
    }

    private static final byte[] RESULT_FIELD = ",\"result\":".getBytes(StandardCharsets.US_ASCII);

    /** The envelope (encoded as {@code head}) as a JSON object whose last field is {@code result}, the already encoded bytes. */
    private static byte[] line(byte[] head, byte[] result) {
        ByteArrayOutputStream line = new ByteArrayOutputStream(head.length + RESULT_FIELD.length + result.length);
        line.write(head, 0, head.length - 1);
        line.writeBytes(RESULT_FIELD);
        line.writeBytes(result);
        line.write('}');
        return line.toByteArray();
    }

    private static byte[] encode(Object value) {
        try {
            return Documents.jsonMapper().writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode a decision record", e);
        }
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
