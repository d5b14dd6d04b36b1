package io.arbiter.archive;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.policytype.Masks;
import io.arbiter.decision.Snapshot;
import io.arbiter.document.Documents;
import io.arbiter.engine.FiredRule;
import io.arbiter.policytype.PolicyType;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.runtime.Decisions;
import io.arbiter.runtime.Evaluation;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decides one logged decision again under the archived snapshot it was decided with, and compares: the outcome,
 * what was decided, and every firing (those inline in the logged result and those its snapshot recorded).
 */
public final class Replay {

    private Replay() {
    }

    /**
     * What a replay found. {@code snapshot} is null when no archived snapshot matches {@code lookedFor}; then
     * {@code before} and {@code after} are null too.
     *
     * @param notes what may make the replay differ for a reason of its own (masked parameters, a changed part)
     */
    public record Report(String decisionId, String target, String decidedAt, Map<String, String> lookedFor,
                         ArchiveManifest snapshot, List<String> notes, Evaluation before, Evaluation after) {

        public boolean found() {
            return snapshot != null;
        }

        /** Same outcome, same result and the same firings in the same order, with the same facts. */
        public boolean identical() {
            return found() && changes().isEmpty() && before.firings().equals(after.firings());
        }

        /** The top-level fields decided differently, before (logged) and after (replayed). */
        public Map<String, Evaluation.Change> changes() {
            return after.changesFrom(before);
        }

        /** Rules that fired more often in the logged decision than in the replay, with how many times more. */
        public Map<String, Integer> firedOnlyBefore() {
            return before.firedMoreOftenThan(after);
        }

        /** Rules that fired more often in the replay than in the logged decision, with how many times more. */
        public Map<String, Integer> firedOnlyAfter() {
            return after.firedMoreOftenThan(before);
        }
    }

    /** Replays {@code record} (a decision-log record) with the snapshot {@code archive} holds for it. */
    public static Report replay(JsonNode record, SnapshotArchive archive, PolicyTypeRegistry registry) throws IOException {
        String decisionId = record.path("decisionId").asText();
        String target = record.path("endpoint").asText();
        JsonNode result = record.path("result");
        JsonNode request = record.path("request");
        JsonNode summarised = record.path("summarised");
        if (summarised.isObject()) {
            unreplayable(decisionId, summarised, request, record.path("requestDigest").asText("?"));
        }
        if (!result.isObject() || !request.isObject() || target.isEmpty()) {
            throw new ArchiveException("the record of decision " + decisionId
                    + " is not a decision record: it needs an endpoint, a request object and a result object");
        }
        Optional<io.arbiter.policytype.Chain> chain = registry.chain(target);
        PolicyType type = chain.isPresent() ? null : registry.typeOfTarget(target).orElseThrow(() ->
                new ArchiveException("decision " + decisionId + " was made for '" + target
                        + "', which this Arbiter does not decide"));
        // a chain's record names each of its types' rules revisions, joined with '+'
        String policyType = chain.map(found -> String.join("+", found.types())).orElseGet(() -> type.name());
        Masks masks = chain.map(found -> io.arbiter.runtime.Decisions.masks(registry, found)).orElseGet(() -> type.masks());
        Map<String, String> lookedFor = ArchiveManifest.revisionsOf(result);
        if (lookedFor.isEmpty()) {
            throw new ArchiveException("the result of decision " + decisionId + " names no revision to look for");
        }
        Optional<ArchiveManifest> manifest = archive.find(lookedFor, policyType);
        if (manifest.isEmpty()) {
            return new Report(decisionId, target, decidedAt(record), lookedFor, null, List.of(), null, null);
        }
        SnapshotArchive.Restored restored = archive.restore(manifest.get(), registry);
        List<String> notes = new ArrayList<>();
        restored.changed().forEach(part -> notes.add("the archived part " + part
                + " was changed after it was archived: the replay does not run under the snapshot the decision was made with"));
        boolean masked = masks.requestWasMasked(request);
        if (masked) {
            notes.add("the request was logged with masked parameter values (serve without --log-parameters): the replay"
                    + " decides with " + Masks.MASK + " in their place, so what depends on them may differ");
        }
        ObjectNode replayed = request.deepCopy();
        if (target.equals("rollout") && !replayed.has("now") && record.path("timestamp").isTextual()) {
            // a rollout decided without "now" used the clock: replay it at the time it was logged
            replayed.put("now", record.path("timestamp").asText());
            notes.add("the rollout request names no 'now': it is replayed at the time the decision was logged, "
                    + record.path("timestamp").asText());
        }
        Evaluation before = logged(target, result, restored.snapshot(), notes);
        Evaluation after = Evaluation.of(new Decisions(registry, restored.snapshot()), target, encode(replayed));
        if (summarised.isObject()) {
            // the log kept each rule's count, not each firing: compare the replay's the same way
            before = new Evaluation(target, before.result(), perRule(summarisedFirings(before.firings(), summarised)));
            after = new Evaluation(target, after.result(), perRule(after.firings()));
            notes.add("the record was summarised (its whole record took " + summarised.path("wholeBytes").asLong()
                    + " bytes): its firings are compared by how often each rule fired, not one by one with their facts");
        }
        if (masked && !after.refused()) {
            // the log masks the values the response repeats: compare masked with masked
            after = new Evaluation(target, (ObjectNode) masks.maskResponse(after.result()), after.firings());
        }
        return new Report(decisionId, target, decidedAt(record), lookedFor, manifest.get(), List.copyOf(notes), before, after);
    }

    /** When the record was logged (RFC 3339), or null when it says no time one can read. */
    private static String decidedAt(JsonNode record) {
        try {
            return java.time.Instant.parse(record.path("timestamp").asText()).toString();
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    /**
     * The logged decision as an {@link Evaluation}: its result without the volatile fields, and its firings.
     */
    static Evaluation logged(String target, JsonNode result, Snapshot snapshot, List<String> notes) {
        List<FiredRule> firings = new ArrayList<>();
        for (JsonNode firing : result.path("firedRules")) {
            List<String> facts = new ArrayList<>();
            firing.path("facts").forEach(fact -> facts.add(fact.asText()));
            firings.add(new FiredRule(firing.path("rule").asText(), firings.size() + 1, facts));
        }
        ObjectNode stripped = result.deepCopy();
        stripped.remove(Evaluation.VOLATILE);
        return new Evaluation(target, stripped, firings);
    }

    /**
     * Refuses a summarised record that lacks what a replay needs: its request (kept by digest only) or part of its
     * result; the log itself then cannot reproduce the decision.
     */
    private static void unreplayable(String decisionId, JsonNode summarised, JsonNode request, String requestDigest) {
        List<String> missing = new ArrayList<>();
        for (JsonNode dropped : summarised.path("dropped")) {
            String field = dropped.path("field").asText();
            if (field.equals("request") || (field.startsWith("result.") && !field.equals("result.firedRules"))) {
                missing.add(field + " (" + dropped.path("bytes").asLong() + " bytes)");
            }
        }
        if (!missing.isEmpty() || !request.isObject()) {
            throw new ArchiveException("the record of decision " + decisionId + " was summarised to fit the decision"
                    + " log's bound (its whole record took " + summarised.path("wholeBytes").asLong() + " bytes): "
                    + (missing.isEmpty() ? "its request" : String.join(", ", missing)) + " is not in the log, so the"
                    + " decision cannot be replayed from the log itself (the request's digest is " + requestDigest + ")");
        }
        if (summarised.path("firings").path("otherRules").isObject()) {
            throw new ArchiveException("the record of decision " + decisionId + " was summarised to fit the decision"
                    + " log's bound and counts some of its firings without naming their rules: they cannot be compared");
        }
    }

    /** The logged firings: those the restored snapshot recorded, then those the summary counts per rule. */
    private static List<FiredRule> summarisedFirings(List<FiredRule> fromSnapshot, JsonNode summarised) {
        List<FiredRule> firings = new ArrayList<>(fromSnapshot);
        for (JsonNode rule : summarised.path("firings").path("byRule")) {
            for (long i = 0; i < rule.path("count").asLong(); i++) {
                firings.add(new FiredRule(rule.path("rule").asText(), firings.size() + 1, List.of()));
            }
        }
        return firings;
    }

    /** Firings as counts per rule: sorted by rule name, without their facts, so that equal counts compare equal. */
    static List<FiredRule> perRule(List<FiredRule> firings) {
        List<FiredRule> sorted = new ArrayList<>(firings.size());
        firings.stream().map(FiredRule::rule).sorted()
                .forEach(rule -> sorted.add(new FiredRule(rule, sorted.size() + 1, List.of())));
        return sorted;
    }

    private static byte[] encode(JsonNode request) {
        try {
            return Documents.jsonMapper().writeValueAsBytes(request);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode a logged request", e);
        }
    }
}
