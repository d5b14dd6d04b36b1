package io.arbiter.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Why a logged decision came out as it did, from its record alone ({@code arbiter audit --id}): what was asked,
 * under which revisions, what was decided, and every rule that fired, phase by phase, with the facts it matched (a
 * rejection's rule names its reason and its facts the trial it rejects).
 */
public final class DecisionExplanation {

    /** The envelope's fields, printed on their own lines rather than with the result. */
    private static final Set<String> ENVELOPE = Set.of("decisionId", "target", "type", "version", "outcome", "firedRules",
            "phases", "policyRevision", "rulesRevision", "catalogRevision", "typeInstancesRevision", "snapshotRevision",
            "warnings");

    private DecisionExplanation() {
    }

    public static void print(JsonNode record, PrintWriter out) {
        JsonNode result = record.path("result");
        out.println("decision " + record.path("decisionId").asText() + " (" + record.path("endpoint").asText()
                + ", " + result.path("type").asText("?") + " " + result.path("version").asText("?") + ") at "
                + record.path("timestamp").asText() + ": " + record.path("outcome").asText());
        out.println("asked: " + (record.path("request").isObject() ? record.path("request").toString()
                : "(the request was left out of the record; its digest is " + record.path("requestDigest").asText() + ")"));
        out.println("under: snapshot " + result.path("snapshotRevision").asText("?") + " (policy "
                + result.path("policyRevision").asText("?") + ", rules " + result.path("rulesRevision").asText("?")
                + ", catalog " + result.path("catalogRevision").asText("?") + ", TypeInstances "
                + result.path("typeInstancesRevision").asText("?") + ")");
        ObjectNode decided = result.isObject() ? ((ObjectNode) result).deepCopy() : null;
        if (decided != null) {
            decided.remove(ENVELOPE);
            out.println("decided: " + decided);
        }
        result.path("warnings").forEach(warning -> out.println("warning: " + warning.asText()));
        JsonNode firings = result.path("firedRules");
        JsonNode summarised = record.path("summarised").path("firings");
        if (!firings.isArray() && summarised.isObject()) {
            out.println("why: the record was summarised; its " + summarised.path("count").asLong()
                    + " firings are counted per rule (first and last order):");
            summarised.path("byRule").forEach(rule -> out.println("  " + rule.path("count").asLong() + " x "
                    + rule.path("rule").asText() + " (#" + rule.path("first").asLong() + " to #" + rule.path("last").asLong() + ")"));
            return;
        }
        out.println("why: " + firings.size() + " rules fired, phase by phase:");
        List<int[]> bounds = new ArrayList<>();
        List<String> names = new ArrayList<>();
        JsonNode phases = result.path("phases");
        for (int i = 0; i < phases.size(); i++) {
            int from = phases.get(i).path("from").asInt();
            int to = i + 1 < phases.size() ? phases.get(i + 1).path("from").asInt() - 1 : Integer.MAX_VALUE;
            bounds.add(new int[]{from, to});
            names.add(phases.get(i).path("phase").asText());
        }
        int phase = -1;
        for (JsonNode firing : firings) {
            int order = firing.path("order").asInt();
            while (phase + 1 < bounds.size() && order >= bounds.get(phase + 1)[0]) {
                phase++;
                int to = Math.min(bounds.get(phase)[1], firings.size());
                out.println("  " + names.get(phase) + " (" + (to - bounds.get(phase)[0] + 1) + ")");
            }
            List<String> facts = new ArrayList<>();
            firing.path("facts").forEach(fact -> facts.add(fact.asText()));
            JsonNode source = record.path("ruleSources").path(firing.path("rule").asText());
            out.println("    #" + order + " " + firing.path("rule").asText() + (source.isTextual() ? " (" + source.asText() + ")" : "")
                    + (facts.isEmpty() ? "" : "  " + facts));
        }
    }
}
