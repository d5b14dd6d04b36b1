package io.arbiter.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.audit.Audit;
import io.arbiter.audit.DecisionRecord;
import io.arbiter.document.Documents;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.runtime.Decisions;
import io.arbiter.testing.Fixtures;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Where a decision record's bytes go (issue 46 asks for typical records of 3 KB or less), for the four typical
 * decisions of {@link KafkaWireBytes}: the whole record, its response ({@code result}) and that response's
 * {@code firedRules}, {@code ruleSources}, and the rest. Then what a self-contained record must hold however it is
 * laid out, each thing once: the response without its firings, every distinct rule name that fired with where it is
 * written, and every distinct fact id a firing names. That sum is a lower bound for any record format that states
 * each rule and fact once instead of once per firing.
 *
 * <pre>bash bench/run.sh -l &amp;&amp; java -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" io.arbiter.bench.RecordBytes</pre>
 */
public final class RecordBytes {

    public static void main(String[] args) throws Exception {
        Audit audit = Audit.inMemory();
        Decisions decisions = new Decisions(PolicyTypeRegistry.discover(), Fixtures.snapshot(Fixtures.embeddedPolicy()), audit);
        System.out.printf("%-30s %7s %7s %7s %7s %7s %9s %7s %7s %7s%n", "decision", "record", "result", "firings",
                "sources", "rest", "firings#", "rules", "facts", "bound");
        for (Map.Entry<String, String> request : KafkaWireBytes.REQUESTS) {
            decisions.decide(request.getKey(), request.getValue().getBytes(StandardCharsets.UTF_8), "application/json");
            DecisionRecord record = audit.recentDecisions().get(audit.recentDecisions().size() - 1);
            ObjectNode line = (ObjectNode) Documents.jsonMapper().readTree(record.json());
            ObjectNode result = (ObjectNode) line.path("result");
            JsonNode firings = result.path("firedRules");

            Set<String> rules = new LinkedHashSet<>();
            Set<String> facts = new LinkedHashSet<>();
            firings.forEach(firing -> {
                rules.add(firing.path("rule").asText());
                firing.path("facts").forEach(fact -> facts.add(fact.asText()));
            });
            ObjectNode withoutFirings = result.deepCopy();
            withoutFirings.remove("firedRules");
            ArrayNode sources = Documents.jsonMapper().createArrayNode();
            line.path("ruleSources").forEach(sources::add);
            long bound = bytes(withoutFirings) + bytes(Documents.jsonMapper().valueToTree(rules)) + bytes(sources)
                    + bytes(Documents.jsonMapper().valueToTree(facts));

            int recordBytes = record.json().length;
            long resultBytes = bytes(result);
            long sourceBytes = bytes(line.path("ruleSources"));
            System.out.printf("%-30s %7d %7d %7d %7d %7d %9d %7d %7d %7d%n", describe(request), recordBytes, resultBytes,
                    bytes(firings), sourceBytes, recordBytes - resultBytes - sourceBytes, firings.size(),
                    bytes(Documents.jsonMapper().valueToTree(rules)), bytes(Documents.jsonMapper().valueToTree(facts)), bound);
        }
        System.out.println("bytes of compact JSON; rules and facts: the distinct names and ids as JSON lists; bound:"
                + " the response without firings + rules + their sources + facts");
    }

    private static String describe(Map.Entry<String, String> request) {
        return request.getKey() + (request.getValue().contains("actionPolicy") ? ", action policy"
                : request.getKey().equals("implementation") ? ", Interface only" : "");
    }

    private static long bytes(JsonNode node) throws Exception {
        return Documents.jsonMapper().writeValueAsBytes(node).length;
    }
}
