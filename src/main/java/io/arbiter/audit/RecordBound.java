package io.arbiter.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.document.Documents;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds the record of a decision whose whole record would take more than {@link DecisionRecord#MAX_BYTES}: a
 * summarised record. Without a bound a request of 130 KB had answers of 21 MB (83,084 firings; issue 44), twenty of which
 * flushed every earlier record out of the default retention, and a deeper one ran the log's writer out of memory.
 *
 * <p>What goes, in this order, until the record fits: the firings (summarised per rule: count, first and last order),
 * the request (kept by its {@code requestDigest}; the record can then not be replayed from the log), then the
 * result's largest fields but its outcome, revisions, then the least fired rules of the
 * summary (counted together). The record says so in {@code summarised}: why, what was dropped and how large it was.
 */
final class RecordBound {

    /** Result fields a reader needs to find the decision's snapshot and outcome: dropped only when larger than this. */
    private static final Set<String> KEPT = Set.of("decisionId", "outcome", "snapshotRevision",
            "policyRevision", "rulesRevision", "catalogRevision", "typeInstancesRevision");
    private static final int KEPT_FIELD_BYTES = 512;

    private RecordBound() {
    }

    /**
     * The summarised record, as a JSON object without a line end, of at most {@link DecisionRecord#MAX_BYTES} - 1
     * bytes.
     *
     * @param envelope   the record's fields but {@code result}, in their order ({@code request} among them); taken
     * @param result     the logged (masked where needed) result
     * @param wholeBytes the line the whole record would have taken
     * @param requestBytes the request body's size
     */
    static byte[] summarise(ObjectNode envelope, JsonNode result, long wholeBytes, int requestBytes) {
        int limit = DecisionRecord.MAX_BYTES - 1; // the line end is the sink's
        ObjectNode record = envelope;
        ObjectNode summary = Documents.jsonMapper().createObjectNode();
        summary.put("why", "the whole record would take " + wholeBytes + " bytes and a record takes at most "
                + DecisionRecord.MAX_BYTES + ": the fields in 'dropped' are left out (see README, Audit)");
        summary.put("wholeBytes", wholeBytes);
        summary.put("maxBytes", DecisionRecord.MAX_BYTES);
        ArrayNode dropped = summary.putArray("dropped");
        record.set("summarised", summary);
        ObjectNode kept = record.putObject("result");
        result.fields().forEachRemaining(field -> kept.set(field.getKey(), field.getValue()));

        // 1. the firings, per rule
        JsonNode fired = kept.remove("firedRules");
        List<RuleCount> byRule = new ArrayList<>();
        long firings = 0;
        if (fired != null && fired.isArray()) {
            firings = fired.size();
            byRule = countPerRule(fired);
            dropped.addObject().put("field", "result.firedRules").put("bytes", encodedSize(fired))
                    .put("keptAs", "summarised.firings: each rule's count and first and last order; facts are not kept");
        }
        ObjectNode firingSummary = summary.putObject("firings");
        firingSummary.put("count", firings);
        writeRules(firingSummary, byRule, byRule.size());
        byte[] line = encode(record);
        if (line.length <= limit) {
            return line;
        }

        // 2. the request, kept by its digest
        if (record.remove("request") != null) {
            dropped.addObject().put("field", "request").put("bytes", requestBytes)
                    .put("keptAs", "requestDigest: the request is not in the log, so this decision cannot be replayed"
                            + " from the log; replay it from the request itself");
            line = encode(record);
            if (line.length <= limit) {
                return line;
            }
        }

        // 3. the result's largest fields, sizes estimated from each field's own encoding, then checked
        Map<String, Long> sizes = new LinkedHashMap<>();
        kept.fields().forEachRemaining(field -> sizes.put(field.getKey(), encodedSize(field.getValue())));
        List<String> largestFirst = new ArrayList<>(sizes.keySet());
        largestFirst.sort(Comparator.comparingLong((String name) -> sizes.get(name)).reversed());
        long estimate = line.length;
        for (String name : largestFirst) {
            if (estimate <= limit) {
                line = encode(record);
                if (line.length <= limit) {
                    break;
                }
                estimate = line.length; // the estimate was short (escapes in a name): go on with the real size
            }
            long bytes = sizes.get(name);
            if (KEPT.contains(name) && bytes <= KEPT_FIELD_BYTES) {
                continue;
            }
            kept.remove(name);
            ObjectNode entry = dropped.addObject().put("field", "result." + name).put("bytes", bytes);
            estimate += encode(entry).length + 1 - bytes - name.length() - 4;
        }
        line = encode(record);

        // 4. the least fired rules, counted together (a rule base of very many rules, or very long rule names)
        int listed = byRule.size();
        while (line.length > limit && listed > 0) {
            listed = listed / 2;
            writeRules(firingSummary, byRule, listed);
            line = encode(record);
        }
        // Left: the envelope's fields but the request, the result's few kept fields (512 bytes each at most) and the
        // summary's own: all of the service's making (ids, digests, revisions, the decision types' few fields), they fit.
        return line;
    }

    /** A rule's firings in one decision: how many, and the order of its first and last. */
    record RuleCount(String rule, long count, long first, long last) {
    }

    private static List<RuleCount> countPerRule(JsonNode fired) {
        Map<String, long[]> counts = new LinkedHashMap<>(); // rule -> count, first, last; in first-firing order
        int index = 0;
        for (JsonNode firing : fired) {
            index++;
            long order = firing.path("order").asLong(index);
            long[] count = counts.computeIfAbsent(firing.path("rule").asText(), rule -> new long[] {0, order, order});
            count[0]++;
            count[1] = Math.min(count[1], order);
            count[2] = Math.max(count[2], order);
        }
        List<RuleCount> rules = new ArrayList<>(counts.size());
        counts.forEach((rule, count) -> rules.add(new RuleCount(rule, count[0], count[1], count[2])));
        return rules;
    }

    /** The {@code listed} most fired rules in first-firing order, the others counted together in {@code otherRules}. */
    private static void writeRules(ObjectNode summary, List<RuleCount> rules, int listed) {
        List<RuleCount> mostFired = new ArrayList<>(rules);
        mostFired.sort(Comparator.comparingLong(RuleCount::count).reversed());
        Set<RuleCount> shown = Set.copyOf(mostFired.subList(0, listed));
        ArrayNode byRule = summary.putArray("byRule");
        long otherFirings = 0;
        int otherRules = 0;
        for (RuleCount rule : rules) {
            if (shown.contains(rule)) {
                byRule.addObject().put("rule", rule.rule()).put("count", rule.count()).put("first", rule.first())
                        .put("last", rule.last());
            } else {
                otherRules++;
                otherFirings += rule.count();
            }
        }
        summary.remove("otherRules");
        if (otherRules > 0) {
            summary.putObject("otherRules").put("rules", otherRules).put("count", otherFirings);
        }
    }

    /** The size of {@code value}'s encoding, counted as it is written: the dropped parts are megabytes, not kept. */
    private static long encodedSize(JsonNode value) {
        long[] count = new long[1];
        OutputStream counter = new OutputStream() {
            @Override
            public void write(int b) {
                count[0]++;
            }

            @Override
            public void write(byte[] b, int off, int len) {
                count[0] += len;
            }
        };
        try {
            Documents.jsonMapper().writeValue(counter, value);
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode a decision record", e);
        }
        return count[0];
    }

    private static byte[] encode(Object value) {
        try {
            return Documents.jsonMapper().writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode a decision record", e);
        }
    }
}
