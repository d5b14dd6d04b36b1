package io.arbiter.decision.backend;

import io.arbiter.decision.backend.BackendFacts.BackendChoice;
import io.arbiter.decision.backend.BackendFacts.BackendRule;
import io.arbiter.decision.backend.BackendFacts.MatchLevel;
import io.arbiter.decision.backend.BackendFacts.TypeQuery;
import io.arbiter.decision.merge.PolicyMergeFacts.PolicySource;
import io.arbiter.decision.merge.PolicyMergeFacts.SourceKind;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.engine.FiredRule;
import io.arbiter.engine.RuleBaseBuilder;
import io.arbiter.model.Ref;
import io.arbiter.testing.RuleTestSupport;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static io.arbiter.engine.CompiledRuleBase.factsOf;
import static io.arbiter.testing.RuleTestSupport.assertFired;
import static io.arbiter.testing.RuleTestSupport.assertFiredBefore;
import static io.arbiter.testing.RuleTestSupport.assertFiredTimes;
import static io.arbiter.testing.RuleTestSupport.assertNotFired;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Backend rules (rules/backend/backend.drl) and the backend priority table
 * (decision-tables/backend/backend-priority.drl.csv): policy-syntax section 6 and the last bullet of section 7.
 */
class BackendRulesTest {

    // rules/backend/backend.drl
    private static final String REPLACES = "A higher policy's backend rule replaces a lower one for the same typeRef";
    private static final String TAKES_PART = "A backend rule no higher policy replaces takes part";
    private static final String EXACT_RULE = "Rule for the exact path and revision";
    private static final String PATH_RULE = "Rule for the exact path without revision";
    private static final String COVERS = "Pattern rule covers the Type";
    private static final String LONGEST_WITH_REVISION = "Longest covering pattern with the Type's revision";
    private static final String LONGEST_WITHOUT_REVISION = "Longest covering pattern without revision";
    private static final String BUILTIN = "No rule covers the Type: the built-in storage";
    // decision-tables/backend/backend-priority.drl.csv, one row per level, in priority order
    private static final String ROW_EXACT = "Exact path and revision";
    private static final String ROW_PATH = "Exact path without revision";
    private static final String ROW_PATTERN_REVISION = "Longest pattern with the revision";
    private static final String ROW_PATTERN = "Longest pattern without revision";
    private static final List<String> ROWS = List.of(ROW_EXACT, ROW_PATH, ROW_PATTERN_REVISION, ROW_PATTERN);

    private static final Path TABLE = RuleTestSupport.TABLES.resolve("backend").resolve("backend-priority.drl.csv");
    private static final String CAPACTIO = "cap.type.capactio.";

    private final CompiledRuleBase ruleBase = RuleTestSupport.ruleBase(BackendDecider.KIND, BackendDecider.PHASES);

    private record Result(List<BackendChoice> choices, List<FiredRule> fired) {
        BackendChoice only() {
            assertEquals(1, choices.size(), () -> "one choice expected: " + choices);
            return choices.get(0);
        }
    }

    /** Facts for one policy ({@code sourceId}); each rule is {@code path} or {@code path:revision}. */
    private static final class Facts {
        private final List<Object> facts = new ArrayList<>();
        private int queries;

        Facts policy(String sourceId, SourceKind kind, String... rules) {
            facts.add(new PolicySource(sourceId, kind, 0, sourceId.equals("global") ? "$" : "$." + sourceId));
            for (int i = 0; i < rules.length; i++) {
                facts.add(rule(sourceId, i, rules[i]));
            }
            return this;
        }

        Facts global(String... rules) {
            return policy("global", SourceKind.GLOBAL, rules);
        }

        Facts query(String typeRef) {
            facts.addAll(BackendFacts.TypeRefPrefix.factsOf(new TypeQuery(queries++, Ref.parse(typeRef))));
            return this;
        }
    }

    /** As BackendDecider makes it: a pattern {@code cap.type.aws.*} has the prefix {@code cap.type.aws.}. */
    static BackendRule rule(String sourceId, int index, String typeRef) {
        Ref ref = Ref.parse(typeRef);
        boolean pattern = ref.path().endsWith(".*");
        String location = (sourceId.equals("global") ? "" : "$." + sourceId + ".") + "typeInstance.rules[" + index + "]";
        return new BackendRule(location, sourceId, ref, pattern,
                pattern ? ref.path().substring(0, ref.path().length() - 1) : ref.path(),
                backendId(sourceId, typeRef), sourceId + " backend for " + typeRef);
    }

    /** A distinct, recognisable backend id per policy and rule. */
    static String backendId(String sourceId, String typeRef) {
        return java.util.UUID.nameUUIDFromBytes((sourceId + " " + typeRef).getBytes()).toString();
    }

    private static Result decide(CompiledRuleBase ruleBase, Facts facts) {
        var run = ruleBase.run(facts.facts, BackendDecider.PHASES, session -> {
            List<BackendChoice> choices = factsOf(session, BackendChoice.class);
            choices.sort(Comparator.comparingInt(choice -> choice.query().index()));
            return choices;
        });
        return new Result(run.result(), run.firedRules());
    }

    private Result decide(Facts facts) {
        return decide(ruleBase, facts);
    }

    private static void assertChoice(BackendChoice choice, String typeRef, MatchLevel level, String ruleTypeRef) {
        assertEquals(Ref.parse(typeRef), choice.query().typeRef());
        assertEquals(level, choice.level(), () -> "level of " + typeRef);
        if (ruleTypeRef == null) {
            assertNull(choice.rule(), () -> "no rule for " + typeRef);
        } else {
            assertEquals(Ref.parse(ruleTypeRef), choice.rule().typeRef(), () -> "rule chosen for " + typeRef);
        }
    }

    /** Only the table row of {@code row} chooses (once per Type), no other row, and no built-in fallback. */
    private static void assertOnlyRow(List<FiredRule> fired, String row, int times) {
        assertFiredTimes(fired, row, times);
        ROWS.stream().filter(other -> !other.equals(row)).forEach(other -> assertNotFired(fired, other));
        assertNotFired(fired, BUILTIN);
    }

    /** The rules that fired for one Type of a batch: their matched facts name it. */
    private static List<String> firedFor(List<FiredRule> fired, String typeRef) {
        return fired.stream().filter(f -> f.facts().stream().anyMatch(fact -> fact.endsWith(" " + typeRef)
                        || fact.endsWith("for " + typeRef) || fact.endsWith("covers " + typeRef)))
                .map(io.arbiter.testing.RuleTestSupport::name).toList();
    }

    // ---- one test per level of the priority table ------------------------------------------------------------

    @Test
    void exactPathAndRevisionBeatsEveryOtherLevel() {
        Result result = decide(new Facts()
                .global("cap.type.aws.*", "cap.type.aws.*:0.1.0", "cap.type.aws.auth.credentials",
                        "cap.type.aws.auth.credentials:0.1.0")
                .query("cap.type.aws.auth.credentials:0.1.0"));

        assertChoice(result.only(), "cap.type.aws.auth.credentials:0.1.0", MatchLevel.EXACT, "cap.type.aws.auth.credentials:0.1.0");
        assertEquals(backendId("global", "cap.type.aws.auth.credentials:0.1.0"), result.only().rule().backendId());
        assertFired(result.fired(), EXACT_RULE);
        assertFired(result.fired(), PATH_RULE);
        assertFired(result.fired(), LONGEST_WITH_REVISION);
        assertFired(result.fired(), LONGEST_WITHOUT_REVISION);
        assertOnlyRow(result.fired(), ROW_EXACT, 1);
        assertFiredTimes(result.fired(), TAKES_PART, 4);
        assertNotFired(result.fired(), REPLACES);
        assertFiredBefore(result.fired(), EXACT_RULE, ROW_EXACT);
    }

    @Test
    void exactPathWithoutRevisionWhenNoRuleHasTheRevision() {
        Result result = decide(new Facts()
                .global("cap.type.aws.*:0.2.0", "cap.type.aws.auth.credentials:0.1.0", "cap.type.aws.auth.credentials")
                .query("cap.type.aws.auth.credentials:0.2.0"));

        assertChoice(result.only(), "cap.type.aws.auth.credentials:0.2.0", MatchLevel.PATH, "cap.type.aws.auth.credentials");
        assertNotFired(result.fired(), EXACT_RULE);
        assertFired(result.fired(), PATH_RULE);
        assertFired(result.fired(), LONGEST_WITH_REVISION);
        assertOnlyRow(result.fired(), ROW_PATH, 1);
    }

    @Test
    void pathRuleAppliesToATypeAskedWithoutRevision() {
        Result result = decide(new Facts()
                .global("cap.type.aws.auth.credentials:0.1.0", "cap.type.aws.auth.credentials")
                .query("cap.type.aws.auth.credentials"));

        assertChoice(result.only(), "cap.type.aws.auth.credentials", MatchLevel.PATH, "cap.type.aws.auth.credentials");
        assertNotFired(result.fired(), EXACT_RULE);
        assertOnlyRow(result.fired(), ROW_PATH, 1);
    }

    @Test
    void patternWithTheRevisionBeatsThePatternWithoutAtTheSamePrefix() {
        Result result = decide(new Facts()
                .global("cap.type.aws.*", "cap.type.aws.*:0.1.0", "cap.type.aws.auth.credentials:0.2.0")
                .query("cap.type.aws.auth.credentials:0.1.0"));

        assertChoice(result.only(), "cap.type.aws.auth.credentials:0.1.0", MatchLevel.PATTERN_REVISION, "cap.type.aws.*:0.1.0");
        assertNotFired(result.fired(), EXACT_RULE);
        assertNotFired(result.fired(), PATH_RULE);
        assertFiredTimes(result.fired(), COVERS, 2);
        assertFired(result.fired(), LONGEST_WITH_REVISION);
        assertFired(result.fired(), LONGEST_WITHOUT_REVISION);
        assertOnlyRow(result.fired(), ROW_PATTERN_REVISION, 1);
    }

    @Test
    void patternWithoutRevisionWhenNoPatternHasTheRevision() {
        Result result = decide(new Facts()
                .global("cap.type.aws.*", "cap.type.aws.*:0.1.0")
                .query("cap.type.aws.auth.credentials:0.2.0"));

        assertChoice(result.only(), "cap.type.aws.auth.credentials:0.2.0", MatchLevel.PATTERN, "cap.type.aws.*");
        assertFiredTimes(result.fired(), COVERS, 1);
        assertNotFired(result.fired(), LONGEST_WITH_REVISION);
        assertOnlyRow(result.fired(), ROW_PATTERN, 1);
    }

    @Test
    void noCoveringRuleIsTheBuiltInStorage() {
        Result result = decide(new Facts()
                .global("cap.type.aws.*", "cap.type.aws.*:0.1.0", "cap.type.gcp.auth.service-account:0.1.0")
                .query("cap.nothing.matches:0.1.0"));

        assertChoice(result.only(), "cap.nothing.matches:0.1.0", MatchLevel.BUILTIN, null);
        assertFired(result.fired(), BUILTIN);
        assertNotFired(result.fired(), EXACT_RULE);
        assertNotFired(result.fired(), PATH_RULE);
        assertNotFired(result.fired(), COVERS);
        ROWS.forEach(row -> assertNotFired(result.fired(), row));
    }

    @Test
    void anyPathIsLookedUpEvenOutsideCap() {
        Result result = decide(new Facts().global("cap.*", "cap.*:0.1.0").query("x.y").query("x.y:0.1.0"));

        assertEquals(2, result.choices().size());
        assertChoice(result.choices().get(0), "x.y", MatchLevel.BUILTIN, null);
        assertChoice(result.choices().get(1), "x.y:0.1.0", MatchLevel.BUILTIN, null);
        assertFiredTimes(result.fired(), BUILTIN, 2);
        assertNotFired(result.fired(), COVERS);
    }

    @Test
    void withoutAnyPolicyRuleEveryTypeIsBuiltIn() {
        Result result = decide(new Facts().global().query("cap.type.aws.auth.credentials:0.1.0"));

        assertChoice(result.only(), "cap.type.aws.auth.credentials:0.1.0", MatchLevel.BUILTIN, null);
        assertNotFired(result.fired(), TAKES_PART);
    }

    // ---- policy-syntax section 6, the example ----------------------------------------------------------------

    private static Facts sectionSixExample() {
        return new Facts().global(CAPACTIO + "examples.*", CAPACTIO + "examples.*:0.2.0", "cap.*", "cap.*:0.1.0");
    }

    @Test
    void exampleOtherAtRevisionOneTakesExamplesPattern() {
        Result result = decide(sectionSixExample().query(CAPACTIO + "examples.other:0.1.0"));

        assertChoice(result.only(), CAPACTIO + "examples.other:0.1.0", MatchLevel.PATTERN, CAPACTIO + "examples.*");
        // cap.*:0.1.0 covers it too, but at a shorter prefix: no PATTERN_REVISION candidate
        assertFiredTimes(result.fired(), COVERS, 3);
        assertNotFired(result.fired(), LONGEST_WITH_REVISION);
        assertOnlyRow(result.fired(), ROW_PATTERN, 1);
    }

    @Test
    void exampleOtherAtRevisionTwoTakesExamplesPatternWithRevision() {
        Result result = decide(sectionSixExample().query(CAPACTIO + "examples.other:0.2.0"));

        assertChoice(result.only(), CAPACTIO + "examples.other:0.2.0", MatchLevel.PATTERN_REVISION, CAPACTIO + "examples.*:0.2.0");
        assertFired(result.fired(), LONGEST_WITHOUT_REVISION);
        assertOnlyRow(result.fired(), ROW_PATTERN_REVISION, 1);
    }

    @Test
    void exampleAwsAtRevisionOneTakesCapStarWithRevision() {
        Result result = decide(sectionSixExample().query("cap.type.aws.x:0.1.0"));

        assertChoice(result.only(), "cap.type.aws.x:0.1.0", MatchLevel.PATTERN_REVISION, "cap.*:0.1.0");
        assertFiredTimes(result.fired(), COVERS, 2);
        assertOnlyRow(result.fired(), ROW_PATTERN_REVISION, 1);
    }

    @Test
    void exampleAwsAtRevisionTwoTakesCapStar() {
        Result result = decide(sectionSixExample().query("cap.type.aws.x:0.2.0"));

        assertChoice(result.only(), "cap.type.aws.x:0.2.0", MatchLevel.PATTERN, "cap.*");
        assertFiredTimes(result.fired(), COVERS, 1);
        assertNotFired(result.fired(), LONGEST_WITH_REVISION);
        assertOnlyRow(result.fired(), ROW_PATTERN, 1);
    }

    @Test
    void longestPrefixBeatsARevisionAtAShorterPrefix() {
        Result result = decide(new Facts().global("cap.*:0.1.0", "cap.type.aws.*").query("cap.type.aws.x:0.1.0"));

        assertChoice(result.only(), "cap.type.aws.x:0.1.0", MatchLevel.PATTERN, "cap.type.aws.*");
        assertFiredTimes(result.fired(), COVERS, 2);
        assertNotFired(result.fired(), LONGEST_WITH_REVISION);
        assertOnlyRow(result.fired(), ROW_PATTERN, 1);
    }

    // ---- batches and merging ---------------------------------------------------------------------------------

    @Test
    void batchMixesLevelsInOneSession() {
        Result result = decide(sectionSixExample()
                .policy("more", SourceKind.GLOBAL) // no rules: a second source changes nothing
                .query(CAPACTIO + "examples.other:0.1.0")
                .query(CAPACTIO + "examples.other:0.2.0")
                .query("cap.type.aws.x:0.1.0")
                .query("cap.type.aws.x:0.2.0")
                .query("x.y"));

        assertEquals(5, result.choices().size());
        assertChoice(result.choices().get(0), CAPACTIO + "examples.other:0.1.0", MatchLevel.PATTERN, CAPACTIO + "examples.*");
        assertChoice(result.choices().get(1), CAPACTIO + "examples.other:0.2.0", MatchLevel.PATTERN_REVISION, CAPACTIO + "examples.*:0.2.0");
        assertChoice(result.choices().get(2), "cap.type.aws.x:0.1.0", MatchLevel.PATTERN_REVISION, "cap.*:0.1.0");
        assertChoice(result.choices().get(3), "cap.type.aws.x:0.2.0", MatchLevel.PATTERN, "cap.*");
        assertChoice(result.choices().get(4), "x.y", MatchLevel.BUILTIN, null);
        assertFiredTimes(result.fired(), ROW_PATTERN, 2);
        assertFiredTimes(result.fired(), ROW_PATTERN_REVISION, 2);
        assertFiredTimes(result.fired(), BUILTIN, 1);

        List<String> forOther = firedFor(result.fired(), CAPACTIO + "examples.other:0.1.0");
        assertTrue(forOther.contains(ROW_PATTERN), forOther::toString);
        assertTrue(!forOther.contains(ROW_PATTERN_REVISION) && !forOther.contains(BUILTIN), forOther::toString);
        List<String> forXy = firedFor(result.fired(), "x.y");
        assertEquals(List.of(BUILTIN), forXy);
    }

    @Test
    void batchWithEveryLevel() {
        Result result = decide(new Facts()
                .global("cap.type.aws.auth.credentials:0.1.0", "cap.type.gcp.auth.service-account",
                        "cap.type.helm.*:0.1.0", "cap.type.helm.*")
                .query("cap.type.aws.auth.credentials:0.1.0")
                .query("cap.type.gcp.auth.service-account:0.1.0")
                .query("cap.type.helm.release.storage:0.1.0")
                .query("cap.type.helm.template.storage:0.2.0")
                .query("cap.type.database.postgresql.config:0.1.0"));

        assertEquals(List.of(MatchLevel.EXACT, MatchLevel.PATH, MatchLevel.PATTERN_REVISION, MatchLevel.PATTERN, MatchLevel.BUILTIN),
                result.choices().stream().map(BackendChoice::level).toList());
        assertEquals(List.of(0, 1, 2, 3, 4), result.choices().stream().map(c -> c.query().index()).toList());
        ROWS.forEach(row -> assertFiredTimes(result.fired(), row, 1));
        assertFiredTimes(result.fired(), BUILTIN, 1);
        // the helm release storage has a candidate at both pattern levels; only the revision row chose for it
        List<String> forRelease = firedFor(result.fired(), "cap.type.helm.release.storage:0.1.0");
        assertTrue(forRelease.contains(ROW_PATTERN_REVISION) && !forRelease.contains(ROW_PATTERN), forRelease::toString);
    }

    @Test
    void actionPolicyRuleReplacesTheGlobalRuleForTheSameTypeRef() {
        Result result = decide(new Facts()
                .policy("actionPolicy", SourceKind.ACTION, "cap.type.aws.auth.credentials:0.1.0")
                .global("cap.type.aws.auth.credentials:0.1.0", "cap.type.aws.*")
                .query("cap.type.aws.auth.credentials:0.1.0"));

        assertChoice(result.only(), "cap.type.aws.auth.credentials:0.1.0", MatchLevel.EXACT, "cap.type.aws.auth.credentials:0.1.0");
        assertEquals("actionPolicy", result.only().rule().sourceId());
        assertEquals(backendId("actionPolicy", "cap.type.aws.auth.credentials:0.1.0"), result.only().rule().backendId());
        assertFiredTimes(result.fired(), REPLACES, 1);
        FiredRule replaced = result.fired().stream().filter(f -> io.arbiter.testing.RuleTestSupport.name(f).equals(REPLACES)).findFirst().orElseThrow();
        assertTrue(replaced.facts().contains("typeInstance.rules[0]"), replaced.facts()::toString);
        assertTrue(replaced.facts().contains("$.actionPolicy.typeInstance.rules[0]"), replaced.facts()::toString);
        // the global rule for the same typeRef is out; the global pattern and the action rule take part
        assertFiredTimes(result.fired(), TAKES_PART, 2);
        assertFiredTimes(result.fired(), EXACT_RULE, 1);
        assertOnlyRow(result.fired(), ROW_EXACT, 1);
    }

    @Test
    void rulesForDifferentTypeRefsOfTwoPoliciesAreNotReplaced() {
        Result result = decide(new Facts()
                .policy("actionPolicy", SourceKind.ACTION, "cap.type.aws.*")
                .global("cap.type.aws.auth.credentials:0.1.0", "cap.type.aws.*:0.1.0")
                .query("cap.type.aws.auth.credentials:0.1.0"));

        assertChoice(result.only(), "cap.type.aws.auth.credentials:0.1.0", MatchLevel.EXACT, "cap.type.aws.auth.credentials:0.1.0");
        assertEquals("global", result.only().rule().sourceId());
        assertNotFired(result.fired(), REPLACES);
        assertFiredTimes(result.fired(), TAKES_PART, 3);
    }

    // ---- the table's row order is the priority ---------------------------------------------------------------

    /** The backend rule files with the priority table's content replaced. */
    private static List<RuleBaseBuilder.RuleFile> withTable(String content) {
        List<RuleBaseBuilder.RuleFile> files = RuleTestSupport.files(BackendDecider.KIND);
        assertTrue(files.stream().anyMatch(file -> file.name().endsWith("backend-priority.drl.csv")), files::toString);
        return files.stream()
                .map(file -> file.name().endsWith("backend-priority.drl.csv")
                        ? new RuleBaseBuilder.RuleFile(file.name(), content.getBytes(), file.type()) : file)
                .toList();
    }

    private static String swapRows(String table, String first, String second) {
        String firstRow = table.lines().filter(line -> line.startsWith(first + ",")).findFirst().orElseThrow();
        String secondRow = table.lines().filter(line -> line.startsWith(second + ",")).findFirst().orElseThrow();
        String swapped = table.replace(firstRow, "\u0000").replace(secondRow, firstRow).replace("\u0000", secondRow);
        assertNotEquals(table, swapped);
        return swapped;
    }

    @Test
    void changingTheRowOrderOfTheBackendTableChangesTheDecision() throws IOException {
        String table = Files.readString(TABLE);
        CompiledRuleBase pathFirst = RuleBaseBuilder.build(BackendDecider.KIND,
                withTable(swapRows(table, ROW_EXACT, ROW_PATH)), BackendDecider.PHASES);
        CompiledRuleBase patternFirst = RuleBaseBuilder.build(BackendDecider.KIND,
                withTable(swapRows(table, ROW_PATTERN_REVISION, ROW_PATTERN)), BackendDecider.PHASES);
        assertNotEquals(ruleBase.revision(), pathFirst.revision());

        Facts exactAndPath = new Facts()
                .global("cap.type.aws.auth.credentials:0.1.0", "cap.type.aws.auth.credentials")
                .query("cap.type.aws.auth.credentials:0.1.0");
        Result standard = decide(exactAndPath);
        Result swapped = decide(pathFirst, exactAndPath);
        assertChoice(standard.only(), "cap.type.aws.auth.credentials:0.1.0", MatchLevel.EXACT, "cap.type.aws.auth.credentials:0.1.0");
        assertChoice(swapped.only(), "cap.type.aws.auth.credentials:0.1.0", MatchLevel.PATH, "cap.type.aws.auth.credentials");
        assertOnlyRow(swapped.fired(), ROW_PATH, 1);

        Facts bothPatterns = new Facts().global("cap.type.aws.*:0.1.0", "cap.type.aws.*").query("cap.type.aws.x:0.1.0");
        assertChoice(decide(bothPatterns).only(), "cap.type.aws.x:0.1.0", MatchLevel.PATTERN_REVISION, "cap.type.aws.*:0.1.0");
        Result patternSwapped = decide(patternFirst, bothPatterns);
        assertChoice(patternSwapped.only(), "cap.type.aws.x:0.1.0", MatchLevel.PATTERN, "cap.type.aws.*");
        assertOnlyRow(patternSwapped.fired(), ROW_PATTERN, 1);
    }
}
