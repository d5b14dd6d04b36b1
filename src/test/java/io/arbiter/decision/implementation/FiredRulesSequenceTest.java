package io.arbiter.decision.implementation;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code firedRules} audit of representative decisions on the embedded catalog and store. Every firing carries
 * its order (1..n), its rule's package and the facts it matched. One decision, the embedded default, is pinned whole:
 * the audit contract is that firings follow the phases of {@link ImplementationDecider#PHASES} in order and that a
 * firing follows the firing whose fact it matched; independent firings within a phase are compared in any order
 * (their order is the engine's). The other decisions assert their outcome and the rules that decide it, and that
 * the rules of the outcomes they did not reach stayed silent.
 */
class FiredRulesSequenceTest {

    private static final String MERGE_PACKAGE = "io.arbiter.rules.merge";
    private static final String IMPLEMENTATION_PACKAGE = "io.arbiter.rules.implementation";

    private static final String HELM_STORAGE = "c268d3f5-8834-434b-bea2-b677793611c5";
    private static final String AWS_CREDENTIALS = "517cf827-233c-4bf1-8fc9-48534424dd58";
    private static final String POSTGRES = "cap.interface.database.postgresql.install";
    private static final String POSTGRES_REQUEST =
            "{\"interface\":{\"path\":\"" + POSTGRES + "\",\"revision\":\"0.1.0\"}}";

    // merge-order (rules/policy-merge/ and its table)
    private static final String ROW_GLOBAL = "Global policy";
    private static final String RANK_BY_TABLE = "Merge-order table ranks a policy when no order is configured";
    // merge-items .. merge-index (05-merge.drl)
    private static final String PLACE_ITEM = "A oneOf item is placed by its policy's rank, then its position";
    private static final String SURVIVES = "An item not merged into another stays in the merged list";
    private static final String JOIN_RULE = "Rules for the same Interface key join into one merged rule";
    private static final String ITEM_INDEX = "A surviving item takes its place in the merged oneOf list";
    private static final String ITEM_INJECTS = "A resolved TypeInstance of an item is injected into the merged item";
    private static final String DEFAULT_INJECTS = "A resolved default TypeInstance is injected into every item";
    // rule-key, rule-selection (10-rule-keys.drl and the precedence table)
    private static final String KEY_EXACT = "Rule key names the Interface path and revision";
    private static final String KEY_PATH = "Rule key names the Interface path";
    private static final String KEY_ANY = "Rule key cap.* names every Interface";
    private static final String ROW_EXACT = "Exact path and revision";
    private static final String ROW_PATH = "Path without revision";
    private static final String ROW_ANY = "Catch-all cap.*";
    private static final String APPLICABLE = "Applicable rule is the key match of highest precedence";
    // matching, outcome (20-matching.drl, 30-outcome.drl)
    private static final String TRIAL = "Implementation of the Interface is tried for each oneOf item";
    private static final String ALIAS_SATISFIED = "Aliased requirement is satisfied by an injected TypeInstance";
    private static final String ALIAS_MISSING = "Aliased allOf requirement has no injected TypeInstance";
    private static final String MATCH = "Implementation matches a oneOf item when no reason rejects the trial";
    private static final String FIRST_WINS = "First oneOf item with a match wins";
    private static final String SELECTED = "Outcome SELECTED when a oneOf item won";
    private static final String DENIED = "Outcome DENIED when the applicable rule has an empty oneOf";
    private static final String NO_MATCH = "Outcome NO_MATCH when no oneOf item matched";
    private static final String NO_RULE = "Outcome NO_RULE when no rule key names the Interface";
    // selection .. injection (40-injection.drl)
    private static final String SELECT = "Selected Implementation is the first candidate by path, then highest revision";
    private static final String ITEM_OFFERS = "The winning item offers its TypeInstances and those of the items merged into it";
    private static final String DEFAULT_OFFERS = "Every policy's interface.default offers its TypeInstances";
    private static final String INJECT_ALIAS = "A TypeInstance is injected under the alias of the requirement of its Type";
    private static final String STORAGE_BACKEND = "A Hub storage injected for an aliased requirement is that alias's backend";

    private static final List<String> MERGE_PACKAGE_RULES = List.of(ROW_GLOBAL, RANK_BY_TABLE);

    @Test
    void pathRevisionRuleWinsOverPathAndCatchAll() {
        JsonNode decision = decide("""
                interface:
                  default: {inject: {requiredTypeInstances: [{id: %s}]}}
                  rules:
                    - interface: {path: cap.*}
                      oneOf: [{implementationConstraints: {}}]
                    - interface: {path: %s}
                      oneOf:
                        - implementationConstraints: {path: cap.implementation.aws.rds.postgresql.install}
                          inject: {requiredTypeInstances: [{id: %s}]}
                    - interface: {path: %s, revision: 0.1.0}
                      oneOf:
                        - implementationConstraints: {path: cap.implementation.bitnami.postgresql.install}
                """.formatted(HELM_STORAGE, POSTGRES, AWS_CREDENTIALS, POSTGRES), POSTGRES_REQUEST);

        assertEquals("SELECTED", decision.path("outcome").asText());
        assertEquals("0.1.0", decision.path("rule").path("interface").path("revision").asText());
        assertEquals("cap.implementation.bitnami.postgresql.install", decision.path("selected").path("path").asText());
        List<String> fired = audit(decision);
        assertFired(fired, 3, JOIN_RULE);                                              // three rules, three keys,
        assertFired(fired, 1, KEY_EXACT, KEY_PATH, KEY_ANY);                           //   each naming the Interface
        assertFired(fired, 1, APPLICABLE, MATCH, SELECTED, SELECT);                    // Bitnami for the exact rule's item
        assertFired(fired, 1, DEFAULT_OFFERS, INJECT_ALIAS, STORAGE_BACKEND);          // helm-storage is a Hub storage
        assertFired(fired, 0, ITEM_OFFERS, DENIED, NO_MATCH, NO_RULE);                 // the winning item injects nothing
        assertRanksFollowTheirKeyMatch(fired);
    }

    @Test
    void pathRuleWinsOverCatchAll() {
        JsonNode decision = decide("""
                interface:
                  default: {inject: {requiredTypeInstances: [{id: %s}]}}
                  rules:
                    - interface: {path: cap.*}
                      oneOf: [{implementationConstraints: {path: cap.implementation.bitnami.postgresql.install}}]
                    - interface: {path: %s}
                      oneOf:
                        - implementationConstraints:
                            attributes: [{path: cap.attribute.cloud.provider.aws, revision: 0.1.0}]
                          inject: {requiredTypeInstances: [{id: %s}]}
                """.formatted(HELM_STORAGE, POSTGRES, AWS_CREDENTIALS), POSTGRES_REQUEST);

        assertEquals("SELECTED", decision.path("outcome").asText());
        assertEquals(POSTGRES, decision.path("rule").path("interface").path("path").asText());
        assertTrue(decision.path("rule").path("interface").path("revision").isNull());
        assertEquals("cap.implementation.aws.rds.postgresql.install", decision.path("selected").path("path").asText());
        List<String> fired = audit(decision);
        assertFired(fired, 0, KEY_EXACT, ROW_EXACT);                                   // no path:revision rule
        assertFired(fired, 1, KEY_PATH, KEY_ANY, APPLICABLE, MATCH, SELECTED, SELECT); // AWS, credentials injected
        assertFired(fired, 1, ITEM_INJECTS, ITEM_OFFERS, DEFAULT_OFFERS, INJECT_ALIAS); // AWS credentials, Helm storage
        assertFired(fired, 0, STORAGE_BACKEND, DENIED, NO_MATCH, NO_RULE);             // AWS requires no Helm storage
        assertRanksFollowTheirKeyMatch(fired);
    }

    @Test
    void catchAllRuleAloneDecides() throws Exception {
        // the embedded global policy: cap.* [requires kubernetes, {}], default Helm storage
        String policy = new String(java.nio.file.Files.readAllBytes(Fixtures.EMBEDDED.resolve("policy.yaml")),
                StandardCharsets.UTF_8);
        JsonNode decision = decide(policy, POSTGRES_REQUEST);

        assertEquals("SELECTED", decision.path("outcome").asText());
        assertEquals("cap.*", decision.path("rule").path("interface").path("path").asText());
        assertEquals(0, decision.path("rule").path("oneOfIndex").asInt());
        assertEquals("cap.implementation.bitnami.postgresql.install", decision.path("selected").path("path").asText());
        List<String> fired = audit(decision);
        assertSequence(fired,
                inOrder(ROW_GLOBAL, RANK_BY_TABLE),
                inOrder(times(2, PLACE_ITEM)),
                inOrder(times(2, SURVIVES)),
                anyOrder(JOIN_RULE, ITEM_INDEX, ITEM_INDEX, DEFAULT_INJECTS),
                inOrder(KEY_ANY, ROW_ANY),                                             // the rank needs the key match
                inOrder(APPLICABLE),
                // 4 Implementations tried for 2 items; Bitnami's aliased requirement is satisfied by the default
                // injection for both; the other 3 Implementations' aliased requirements reject them for both items
                anyOrder(concat(times(8, TRIAL), times(2, ALIAS_SATISFIED))),
                inOrder(times(6, ALIAS_MISSING)),
                inOrder(MATCH, MATCH),                                                 // Bitnami, for both items
                inOrder(FIRST_WINS, SELECTED),
                inOrder(SELECT),
                inOrder(DEFAULT_OFFERS),
                inOrder(INJECT_ALIAS, STORAGE_BACKEND));
        // a match names its trial: the Implementation and the item
        assertEquals(List.of("trial cap.implementation.bitnami.postgresql.install:0.1.0 for interface.rules[0].oneOf[0]",
                        "trial cap.implementation.bitnami.postgresql.install:0.1.0 for interface.rules[0].oneOf[1]"),
                factsOf(decision, MATCH).stream().map(facts -> facts.get(0)).sorted().toList());
    }

    @Test
    void oneOfFallsBackToTheSecondItem() {
        // item 0 wants GCP, whose aliased service account nothing injects; item 1 takes Bitnami
        JsonNode decision = decide("""
                interface:
                  default: {inject: {requiredTypeInstances: [{id: %s}]}}
                  rules:
                    - interface: {path: %s}
                      oneOf:
                        - implementationConstraints: {path: cap.implementation.gcp.cloudsql.postgresql.install}
                        - implementationConstraints: {}
                """.formatted(HELM_STORAGE, POSTGRES), POSTGRES_REQUEST);

        assertEquals("SELECTED", decision.path("outcome").asText());
        assertEquals(1, decision.path("rule").path("oneOfIndex").asInt());
        assertEquals("cap.implementation.bitnami.postgresql.install", decision.path("selected").path("path").asText());
        List<String> fired = audit(decision);
        assertFired(fired, 1, MATCH, FIRST_WINS, SELECTED, SELECT);                    // only item 1 matches
        assertTrue(factsOf(decision, MATCH).get(0).get(0).endsWith(" for interface.rules[0].oneOf[1]"),
                () -> "facts " + factsOf(decision, MATCH));
        assertEquals(List.of("winner interface.rules[0].oneOf[1]"), factsOf(decision, SELECTED).get(0));
    }

    @Test
    void emptyOneOfDenies() {
        JsonNode decision = decide("""
                interface:
                  default: {inject: {requiredTypeInstances: [{id: %s}]}}
                  rules:
                    - interface: {path: %s}
                      oneOf: []
                    - interface: {path: cap.*}
                      oneOf: [{implementationConstraints: {}}]
                """.formatted(HELM_STORAGE, POSTGRES), POSTGRES_REQUEST);

        assertEquals("DENIED", decision.path("outcome").asText());
        List<String> fired = audit(decision);
        assertFired(fired, 2, JOIN_RULE);                                              // the empty rule still becomes a rule
        assertFired(fired, 1, PLACE_ITEM, APPLICABLE, DENIED);                         // only the cap.* rule has an item
        assertFired(fired, 0, MATCH, FIRST_WINS, SELECT, DEFAULT_OFFERS, INJECT_ALIAS); // nothing to match, select or inject
        assertRanksFollowTheirKeyMatch(fired);
    }

    @Test
    void noItemMatchesIsNoMatch() {
        JsonNode decision = decide("""
                interface:
                  default: {inject: {requiredTypeInstances: [{id: %s}]}}
                  rules:
                    - interface: {path: %s}
                      oneOf:
                        - implementationConstraints: {path: cap.implementation.gcp.cloudsql.postgresql.install}
                """.formatted(HELM_STORAGE, POSTGRES), POSTGRES_REQUEST);

        assertEquals("NO_MATCH", decision.path("outcome").asText());
        List<String> fired = audit(decision);
        assertFired(fired, 1, KEY_PATH, APPLICABLE, NO_MATCH);
        assertFired(fired, 0, MATCH, FIRST_WINS, SELECTED, SELECT, DEFAULT_OFFERS, INJECT_ALIAS, DENIED);
    }

    @Test
    void noRuleKeyNamesTheInterfaceIsNoRule() {
        JsonNode decision = decide("""
                interface:
                  rules:
                    - interface: {path: %s}
                      oneOf: [{implementationConstraints: {}}]
                """.formatted(POSTGRES),
                "{\"interface\":{\"path\":\"cap.interface.messaging.kafka.install\",\"revision\":\"0.1.0\"}}");

        assertEquals("NO_RULE", decision.path("outcome").asText());
        // the rule for another path is not inserted, so only the policy's rank and the verdict fire
        assertEquals(List.of(ROW_GLOBAL, RANK_BY_TABLE, NO_RULE), audit(decision));
    }

    // ---- helpers ----

    /** The decision, whose {@code firedRules} are every firing that made it. */
    private static JsonNode decide(String policyYaml, String requestJson) {
        var decisions = Fixtures.decisions(Fixtures.snapshot(Fixtures.policy(policyYaml)));
        return decisions.decide("implementation", requestJson.getBytes(StandardCharsets.UTF_8), "application/json");
    }

    private static String nameOf(JsonNode firing) {
        return io.arbiter.testing.RuleTestSupport.name(firing.path("rule").asText());
    }

    /**
     * Checks what every firing must carry ({@code order} 1..n, {@code rule} = package + "." + name with the package
     * of its file, matched facts) and returns the names in firing order.
     */
    private static List<String> audit(JsonNode decision) {
        JsonNode firedRules = decision.path("firedRules");
        assertTrue(firedRules.isArray() && !firedRules.isEmpty(), "firedRules: " + firedRules);
        List<String> names = new ArrayList<>();
        int expectedOrder = 1;
        for (JsonNode firing : firedRules) {
            String name = nameOf(firing);
            String packageName = firing.path("rule").asText().substring(0, firing.path("rule").asText().length() - name.length() - 1);
            assertEquals(expectedOrder++, firing.path("order").asInt(), "order of " + firing);
            assertEquals(MERGE_PACKAGE_RULES.contains(name) ? MERGE_PACKAGE : IMPLEMENTATION_PACKAGE, packageName,
                    "package of " + firing);
            assertTrue(firing.path("facts").isArray() && !firing.path("facts").isEmpty(), "facts of " + firing);
            names.add(name);
        }
        return names;
    }

    /** The facts of every firing of {@code rule}, in firing order. */
    private static List<List<String>> factsOf(JsonNode decision, String rule) {
        List<List<String>> all = new ArrayList<>();
        for (JsonNode firing : decision.path("firedRules")) {
            if (nameOf(firing).equals(rule)) {
                List<String> facts = new ArrayList<>();
                firing.path("facts").forEach(fact -> facts.add(fact.asText()));
                all.add(facts);
            }
        }
        return all;
    }

    /** Each of {@code rules} fired exactly {@code times} times. */
    private static void assertFired(List<String> fired, int times, String... rules) {
        for (String rule : rules) {
            assertEquals(times, Collections.frequency(fired, rule), () -> "firings of '" + rule + "'; fired: " + numbered(fired));
        }
    }

    /** Inside rule-key, a precedence-table row ranks a RuleKeyMatch: it fires after the rule that inserted it. */
    private static void assertRanksFollowTheirKeyMatch(List<String> fired) {
        assertBeforeIfFired(fired, KEY_EXACT, ROW_EXACT);
        assertBeforeIfFired(fired, KEY_PATH, ROW_PATH);
        assertBeforeIfFired(fired, KEY_ANY, ROW_ANY);
    }

    private static void assertBeforeIfFired(List<String> fired, String first, String second) {
        if (fired.contains(second)) {
            assertTrue(fired.indexOf(first) >= 0 && fired.indexOf(first) < fired.indexOf(second),
                    "'" + first + "' should fire before '" + second + "': " + fired);
        } else {
            assertFalse(fired.contains(first), "'" + first + "' fired without '" + second + "': " + fired);
        }
    }

    private record Segment(boolean ordered, List<String> names) {
    }

    private static Segment inOrder(String... names) {
        return new Segment(true, List.of(names));
    }

    private static Segment anyOrder(String... names) {
        return new Segment(false, List.of(names));
    }

    private static String[] concat(String[]... parts) {
        return Arrays.stream(parts).flatMap(Arrays::stream).toArray(String[]::new);
    }

    private static String[] times(int count, String name) {
        return Collections.nCopies(count, name).toArray(String[]::new);
    }

    /** The firings are exactly the segments, one after another; an unordered segment compares as a multiset. */
    private static void assertSequence(List<String> fired, Segment... segments) {
        int expectedSize = Arrays.stream(segments).mapToInt(segment -> segment.names().size()).sum();
        assertEquals(expectedSize, fired.size(), () -> "number of firings; fired: " + numbered(fired));
        int at = 0;
        for (Segment segment : segments) {
            List<String> actual = fired.subList(at, at + segment.names().size());
            List<String> expected = segment.names();
            if (!segment.ordered()) {
                actual = actual.stream().sorted().toList();
                expected = expected.stream().sorted().toList();
            }
            int from = at + 1;
            List<String> finalExpected = expected;
            List<String> finalActual = actual;
            assertEquals(finalExpected, finalActual, () -> "firings " + from + ".." + (from + finalExpected.size() - 1)
                    + (segment.ordered() ? " (in order)" : " (any order)") + "; fired: " + numbered(fired));
            at += segment.names().size();
        }
    }

    private static String numbered(List<String> fired) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < fired.size(); i++) {
            text.append("\n  ").append(i + 1).append(' ').append(fired.get(i));
        }
        return text.toString();
    }
}
