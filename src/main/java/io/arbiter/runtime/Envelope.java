package io.arbiter.runtime;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.arbiter.engine.FiredRule;

import java.util.List;

/**
 * The one envelope the runtime writes around every decision of every policy type, serialised once for the response
 * and the decision record. The type's result is written inline, its fields beside these (the wire contract fixes
 * fields such as {@code interface} and {@code backends} at top level); a result may not name one of them.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record Envelope(String target, String type, String version, String outcome,
                       @JsonUnwrapped Object result, List<FiredRule> firedRules, List<PhaseStart> phases,
                       String policyRevision, String rulesRevision, String catalogRevision, String typeInstancesRevision,
                       String snapshotRevision, List<String> warnings) {

    /** The envelope's own fields: a result may not name one of them (EnvelopeTest checks every target). */
    public static final List<String> FIELDS = List.of("decisionId", "target", "type", "version", "outcome", "firedRules", "phases",
            "policyRevision", "rulesRevision", "catalogRevision", "typeInstancesRevision", "snapshotRevision", "warnings");

    /**
     * Where a phase (ruleflow group) starts in {@code firedRules}: the order of its first firing. The firings from
     * {@code from} up to the next start are that phase's, so that a reader of the record alone (arbiter audit --id)
     * groups them by phase.
     */
    public record PhaseStart(String phase, int from) {
    }

    /**
     * This envelope encoded but for its decision id, which every decision gets afresh: a memoised decision is answered
     * with the bytes it was first answered with and its own id ({@link DecisionMemo}).
     */
    Encoded encoded() {
        try {
            byte[] json = io.arbiter.document.Documents.jsonMapper().writeValueAsBytes(this);
            return new Encoded(java.util.Arrays.copyOfRange(json, 1, json.length));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot encode a decision", e);
        }
    }

    /** An envelope's JSON object after its opening brace: {@code "target":…}. */
    record Encoded(byte[] rest) {
        /** The envelope's JSON, {@code decisionId} first; the id is a UUID, so nothing in it needs escaping. */
        byte[] withId(String decisionId) {
            byte[] head = ("{\"decisionId\":\"" + decisionId + "\",").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            byte[] json = java.util.Arrays.copyOf(head, head.length + rest.length);
            System.arraycopy(rest, 0, json, head.length, rest.length);
            return json;
        }

        int length() {
            return rest.length;
        }
    }

    /** The phase starts of {@code firings}, each rule's phase looked up in {@code phaseOfRule}, named {@code prefix}phase. */
    static List<PhaseStart> phases(List<FiredRule> firings, java.util.Map<String, String> phaseOfRule, String prefix) {
        List<PhaseStart> starts = new java.util.ArrayList<>();
        String current = null;
        for (FiredRule firing : firings) {
            String phase = phaseOfRule.getOrDefault(firing.rule(), "(no phase)");
            if (!phase.equals(current)) {
                starts.add(new PhaseStart(prefix + phase, firing.order()));
                current = phase;
            }
        }
        return starts;
    }
}
