package io.arbiter.decision.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.document.Documents;
import io.arbiter.model.Ref;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.runtime.Decisions;
import io.arbiter.testing.Fixtures;
import io.arbiter.testing.WorkRequests;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The backend decision, whose pattern rules are joined to the Types' path prefixes by equality (issue 44), against
 * policy-syntax section 6 written out plainly (every pattern tried against every Type): random action policies over
 * a small alphabet of paths and revisions, on top of a global policy of the same kind, decide what the contract says.
 */
class BackendPatternIndexPropertyTest {

    private static final String[] SEGMENTS = {"a", "b", "c"};
    private static final String[] REVISIONS = {null, "0.1.0", "0.2.0"};

    /** One {@code typeInstance.rules} entry: a path (ending {@code .*} for a pattern) and an optional revision. */
    private record Rule(Ref typeRef) {
        boolean pattern() {
            return typeRef.path().endsWith(".*");
        }

        String prefix() {
            return typeRef.path().substring(0, typeRef.path().length() - 1);
        }
    }

    /** The contract's answer for one Type: how it was matched and the rule's typeRef (null for BUILTIN). */
    private record Expected(String matchedBy, Ref ruleTypeRef) {
    }

    @Test
    void decisionsAreTheContractsForRandomPolicies() {
        Random random = new Random(44);
        List<Rule> global = distinctRules(random, 6);
        Decisions decisions = new Decisions(PolicyTypeRegistry.discover(), Fixtures.snapshot(Fixtures.policy(yaml(global))));
        decisions.setDecisionDeadline(Duration.ofMinutes(10));
        for (int round = 0; round < 150; round++) {
            List<Rule> action = distinctRules(random, random.nextInt(8));
            List<Ref> types = new ArrayList<>();
            for (int t = 0; t < 12; t++) {
                types.add(new Ref(path(random, 1 + random.nextInt(4), false), REVISIONS[random.nextInt(REVISIONS.length)]));
            }
            ObjectNode request = Documents.jsonMapper().createObjectNode();
            ArrayNode refs = request.putArray("typeRefs");
            types.forEach(type -> refs.add(refNode(type)));
            if (!action.isEmpty()) {
                ArrayNode rules = request.putObject("actionPolicy").putObject("typeInstance").putArray("rules");
                action.forEach(rule -> rules.addObject().<ObjectNode>set("typeRef", refNode(rule.typeRef()))
                        .putObject("backend").put("id", WorkRequests.HELM_STORAGE));
            }
            JsonNode decided = decisions.decide("backend", Fixtures.json(request), "application/json");
            List<Rule> effective = merge(action, global);
            for (int t = 0; t < types.size(); t++) {
                Expected expected = expected(types.get(t), effective);
                JsonNode backend = decided.path("backends").get(t);
                String what = "round " + round + ", " + types.get(t) + ", action " + action + ", global " + global;
                assertEquals(expected.matchedBy(), backend.path("matchedBy").asText(), what);
                JsonNode ruleTypeRef = backend.path("ruleTypeRef");
                assertEquals(expected.ruleTypeRef(), ruleTypeRef.isObject() ? new Ref(ruleTypeRef.path("path").asText(),
                        ruleTypeRef.path("revision").isTextual() ? ruleTypeRef.path("revision").asText() : null) : null, what);
            }
        }
    }

    /** Section 5: a higher policy's rule for the same typeRef replaces a lower one's (default order: action first). */
    private static List<Rule> merge(List<Rule> action, List<Rule> global) {
        List<Rule> effective = new ArrayList<>(action);
        global.stream().filter(rule -> action.stream().noneMatch(a -> a.typeRef().equals(rule.typeRef())))
                .forEach(effective::add);
        return effective;
    }

    /** Section 6, every rule tried against the Type. */
    private static Expected expected(Ref type, List<Rule> rules) {
        for (Rule rule : rules) {
            if (!rule.pattern() && type.revision() != null && rule.typeRef().equals(type)) {
                return new Expected("EXACT", rule.typeRef());
            }
        }
        for (Rule rule : rules) {
            if (!rule.pattern() && rule.typeRef().path().equals(type.path()) && rule.typeRef().revision() == null) {
                return new Expected("PATH", rule.typeRef());
            }
        }
        Rule best = null;
        for (Rule rule : rules) {
            boolean covers = rule.pattern() && type.path().startsWith(rule.prefix())
                    && (rule.typeRef().revision() == null || rule.typeRef().revision().equals(type.revision()));
            if (covers && (best == null || rule.prefix().length() > best.prefix().length()
                    || rule.prefix().length() == best.prefix().length() && rule.typeRef().revision() != null)) {
                best = rule;
            }
        }
        if (best == null) {
            return new Expected("BUILTIN", null);
        }
        return new Expected(best.typeRef().revision() != null ? "PATTERN_REVISION" : "PATTERN", best.typeRef());
    }

    /** {@code count} rules with distinct typeRefs (one policy never names a typeRef twice here). */
    private static List<Rule> distinctRules(Random random, int count) {
        Map<Ref, Rule> rules = new LinkedHashMap<>();
        while (rules.size() < count) {
            boolean pattern = random.nextBoolean();
            Ref ref = new Ref(path(random, pattern ? random.nextInt(3) : 1 + random.nextInt(3), pattern),
                    REVISIONS[random.nextInt(REVISIONS.length)]);
            rules.putIfAbsent(ref, new Rule(ref));
        }
        return new ArrayList<>(rules.values());
    }

    /** {@code cap.} and {@code depth} segments, then {@code .*} for a pattern: {@code cap.a.b}, {@code cap.a.*}. */
    private static String path(Random random, int depth, boolean pattern) {
        StringBuilder path = new StringBuilder("cap");
        for (int d = 0; d < depth; d++) {
            path.append('.').append(SEGMENTS[random.nextInt(SEGMENTS.length)]);
        }
        return pattern ? path + ".*" : path.toString();
    }

    private static ObjectNode refNode(Ref ref) {
        ObjectNode node = Documents.jsonMapper().createObjectNode().put("path", ref.path());
        if (ref.revision() != null) {
            node.put("revision", ref.revision());
        }
        return node;
    }

    private static String yaml(List<Rule> rules) {
        StringBuilder yaml = new StringBuilder("typeInstance:\n  rules:\n");
        for (Rule rule : rules) {
            yaml.append("    - typeRef: {path: \"").append(rule.typeRef().path()).append('"');
            if (rule.typeRef().revision() != null) {
                yaml.append(", revision: \"").append(rule.typeRef().revision()).append('"');
            }
            yaml.append("}\n      backend: {id: ").append(WorkRequests.HELM_STORAGE).append("}\n");
        }
        return yaml.toString();
    }
}
