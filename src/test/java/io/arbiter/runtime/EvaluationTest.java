package io.arbiter.runtime;

import io.arbiter.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EvaluationTest {

    private static final byte[] POSTGRES = "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\", \"revision\": \"0.1.0\"}}"
            .getBytes(StandardCharsets.UTF_8);

    @Test
    void aSnapshotDecisionCarriesTheFiringsRecordedWithTheSnapshotAndNoVolatileField() {
        Decisions decisions = Fixtures.decisions(Fixtures.snapshot(Fixtures.embeddedPolicy()));
        Evaluation evaluation = Evaluation.of(decisions, "implementation", POSTGRES);
        assertEquals("SELECTED", evaluation.outcome());
        assertFalse(evaluation.refused());
        assertTrue(evaluation.firedRules().contains("io.arbiter.rules.merge.Global policy"), evaluation.firedRules().toString());
        Evaluation.VOLATILE.forEach(field -> assertFalse(evaluation.result().has(field), field));
        assertEquals(java.util.Map.of(), Evaluation.of(decisions, "implementation", POSTGRES).changesFrom(evaluation),
                "the same decision twice changes nothing");
    }

    @Test
    void aRefusalIsTheContractsErrorBody() {
        Decisions decisions = Fixtures.decisions(Fixtures.snapshot(Fixtures.embeddedPolicy()));
        Evaluation evaluation = Evaluation.of(decisions, "implementation", "{\"interface\": 7}".getBytes(StandardCharsets.UTF_8));
        assertTrue(evaluation.refused());
        assertEquals("INVALID_REQUEST", evaluation.outcome());
        assertEquals("$.interface", evaluation.result().path("error").path("details").path(0).path("path").asText());
    }

    @Test
    void changesNameEachFieldDecidedDifferently() {
        Evaluation before = Evaluation.of(Fixtures.decisions(Fixtures.snapshot(Fixtures.embeddedPolicy())), "implementation", POSTGRES);
        Evaluation after = Evaluation.of(Fixtures.decisions(Fixtures.snapshot(Fixtures.policy("""
                interface:
                  rules:
                    - interface: {path: cap.interface.database.postgresql.install}
                      oneOf: []
                """))), "implementation", POSTGRES);
        var changes = after.changesFrom(before);
        assertEquals("SELECTED", changes.get("outcome").before().asText());
        assertEquals("DENIED", changes.get("outcome").after().asText());
        assertTrue(changes.containsKey("selected"));
        assertFalse(changes.containsKey("interface"), "the Interface asked for did not change");
    }

    @Test
    void changesArePathsToTheValuesThatDiffer() throws Exception {
        var json = io.arbiter.document.Documents.jsonMapper();
        Evaluation before = new Evaluation("backend", (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree("""
                {"backends": [{"typeRef": {"path": "a"}, "matchedBy": "PATH", "backend": {"id": "1"}},
                              {"typeRef": {"path": "b"}, "matchedBy": "BUILTIN", "backend": null}],
                 "list": [1, 2]}"""), java.util.List.of());
        Evaluation after = new Evaluation("backend", (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree("""
                {"backends": [{"typeRef": {"path": "a"}, "matchedBy": "PATTERN", "backend": {"id": "2"}},
                              {"typeRef": {"path": "b"}, "matchedBy": "BUILTIN", "backend": null}],
                 "list": [1, 2, 3], "added": true}"""), java.util.List.of());

        var changes = after.changesFrom(before);

        assertEquals(java.util.List.of("backends[0].matchedBy", "backends[0].backend.id", "list", "added"),
                java.util.List.copyOf(changes.keySet()));
        assertEquals("PATH", changes.get("backends[0].matchedBy").before().asText());
        assertEquals(3, changes.get("list").after().size(), "a list of another length is one change");
        assertTrue(changes.get("added").before().isNull());
    }
}
