package io.arbiter.suite;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.document.Documents;
import io.arbiter.engine.FiredRule;
import io.arbiter.runtime.Evaluation;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The subset semantics of {@code expect}, as docs/testing.md states them. */
class ExpectationsTest {

    private static final JsonNode ACTUAL = yaml("""
            outcome: SELECTED
            selected: {path: cap.a, revision: 0.1.0}
            candidates: [{path: cap.a, revision: 0.1.0}, {path: cap.b, revision: null}]
            score: 1.50
            rule: null
            """);

    private static JsonNode yaml(String text) {
        return Documents.parseYaml(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)).tree();
    }

    private static List<String> subset(String expect) {
        List<String> mismatches = new ArrayList<>();
        Expectations.compare("$", yaml(expect), ACTUAL, false, mismatches);
        return mismatches;
    }

    private static List<String> exact(String expect) {
        List<String> mismatches = new ArrayList<>();
        Expectations.compare("$.candidates", yaml(expect), ACTUAL.path("candidates"), true, mismatches);
        return mismatches;
    }

    @Test
    void objectsMatchWhenEveryExpectedKeyMatches() {
        assertEquals(List.of(), subset("selected: {path: cap.a}"));
        assertEquals(List.of(), subset("{outcome: SELECTED, candidates: [{path: cap.a}, {path: cap.b}]}"));
        assertEquals(List.of("$.selected.path: expected \"cap.b\", actual \"cap.a\""), subset("selected: {path: cap.b}"));
        assertEquals(List.of("$.missing: expected \"x\", actual absent"), subset("missing: x"));
    }

    @Test
    void arraysMatchElementByElementWithTheSameLength() {
        assertEquals(1, subset("candidates: [{path: cap.a}]").size(), "one element fewer");
        assertEquals(List.of("$.candidates[0].path: expected \"cap.b\", actual \"cap.a\"",
                "$.candidates[1].path: expected \"cap.a\", actual \"cap.b\""), subset("candidates: [{path: cap.b}, {path: cap.a}]"));
        assertEquals(1, subset("selected: [cap.a]").size(), "a list does not match an object");
    }

    @Test
    void nullMatchesAbsentOrNullOnly() {
        assertEquals(List.of(), subset("{rule: null, nowhere: null, candidates: [{}, {revision: null}]}"));
        assertEquals(List.of("$.outcome: expected null, actual \"SELECTED\""), subset("outcome: null"));
    }

    @Test
    void numbersMatchByValueAndNotAsText() {
        assertEquals(List.of(), subset("score: 1.5"));
        assertEquals(List.of(), subset("score: 15e-1"));
        assertEquals(1, subset("score: '1.5'").size());
        assertEquals(1, subset("score: 1.51").size());
    }

    @Test
    void exactModeRefusesKeysThatAreNotExpectedButIgnoresNullOnes() {
        assertEquals(List.of(), exact("[{path: cap.a, revision: 0.1.0}, {path: cap.b}]"));
        assertEquals(List.of("$.candidates[0].revision: not expected, actual \"0.1.0\""),
                exact("[{path: cap.a}, {path: cap.b}]"));
    }

    private static final RuleNames RULES = new RuleNames(java.util.Map.of("io.arbiter.rules.x.Won by rank", "Won by rank",
            "io.arbiter.rules.x.Lost", "Lost"));

    @Test
    void aRuleNameNoRuleHasIsAMismatchElseNotFiredRulesCouldNeverFail() {
        Evaluation evaluation = new Evaluation("implementation", (com.fasterxml.jackson.databind.node.ObjectNode) ACTUAL, List.of());
        assertEquals(List.of("firedRules: no rule is named 'Won'", "notFiredRules: no rule is named 'Typo'"),
                Expectations.mismatches(yaml("{firedRules: [Won], notFiredRules: [Typo, Lost]}"), evaluation, RULES, false));
    }

    @Test
    void firedRulesAreMatchedByQualifiedOrShortName() {
        Evaluation evaluation = new Evaluation("implementation", (com.fasterxml.jackson.databind.node.ObjectNode) ACTUAL,
                List.of(new FiredRule("io.arbiter.rules.x.Won by rank", 1, List.of())));
        assertEquals(List.of(), Expectations.mismatches(yaml("firedRules: [Won by rank, io.arbiter.rules.x.Won by rank]"),
                evaluation, RULES, false));
        List<String> mismatches = Expectations.mismatches(yaml("{firedRules: [Lost], notFiredRules: [Won by rank]}"),
                evaluation, RULES, false);
        assertEquals(2, mismatches.size(), mismatches.toString());
        assertEquals("firedRules: expected 'Lost' to fire; fired [Won by rank]", mismatches.get(0));
        assertEquals("notFiredRules: expected 'Won by rank' not to fire, but it fired", mismatches.get(1));
    }

    @Test
    void aHugeActualValueIsShownCutShort() {
        String big = "x".repeat(100_000);
        List<String> mismatches = new ArrayList<>();
        Expectations.compare("$", yaml("a: b"), Documents.jsonMapper().createObjectNode().put("a", big), false, mismatches);
        assertTrue(mismatches.get(0).length() < 400, mismatches.get(0).length() + " chars");
        assertTrue(mismatches.get(0).endsWith("(100002 chars)"), mismatches.get(0));
    }
}
