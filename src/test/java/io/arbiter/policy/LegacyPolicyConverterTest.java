package io.arbiter.policy;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.document.DocumentException;
import io.arbiter.document.Documents;
import io.arbiter.document.Problem;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LegacyPolicyConverterTest {

    private static JsonNode yaml(String text) {
        return Documents.parseYaml(text.getBytes(StandardCharsets.UTF_8)).tree();
    }

    private static JsonNode resource(String name) throws IOException {
        try (InputStream in = LegacyPolicyConverterTest.class.getResourceAsStream("/legacy/" + name)) {
            assertNotNull(in, "missing test resource /legacy/" + name);
            return Documents.parseYaml(in.readAllBytes()).tree();
        }
    }

    private static List<Problem> problems(String legacy) {
        return assertThrows(DocumentException.class, () -> LegacyPolicyConverter.convert(yaml(legacy))).problems();
    }

    private static void assertOneProblem(String legacy, String path, String containing) {
        List<Problem> problems = problems(legacy);
        assertEquals(1, problems.size(), problems.toString());
        assertEquals(path, problems.get(0).path(), problems.toString());
        assertTrue(problems.get(0).problem().contains(containing), problems.toString());
    }

    private static JsonNode convertedRule(String legacy, int index) {
        JsonNode converted = LegacyPolicyConverter.convert(yaml(legacy));
        assertEquals(List.of(), PolicyParser.validate(converted));
        return converted.path("interface").path("rules").get(index);
    }

    @Test
    void convertsSeed000ExampleToTheExpectedCurrentTree() throws IOException {
        JsonNode legacy = resource("seed-000-example.yaml");
        JsonNode before = legacy.deepCopy();
        assertTrue(LegacyPolicyConverter.isLegacy(legacy));

        JsonNode converted = LegacyPolicyConverter.convert(legacy);

        assertEquals(resource("seed-000-expected.yaml"), converted);
        assertEquals(List.of(), PolicyParser.validate(converted));
        assertFalse(converted.has("apiVersion"));
        assertFalse(LegacyPolicyConverter.isLegacy(converted));
        assertEquals(before, legacy, "the input tree is not modified");
    }

    @Test
    void recognisesTheLegacySyntax() {
        assertTrue(LegacyPolicyConverter.isLegacy(yaml("apiVersion: 0.1.0")));
        assertTrue(LegacyPolicyConverter.isLegacy(yaml("apiVersion: 0.1.0\ninterface: {rules: []}")));
        assertTrue(LegacyPolicyConverter.isLegacy(yaml("rules: {cap.*: {oneOf: []}}")));
        assertTrue(LegacyPolicyConverter.isLegacy(yaml("rules: {}")));

        assertFalse(LegacyPolicyConverter.isLegacy(yaml("interface: {rules: [{interface: {path: cap.*}, oneOf: []}]}")));
        assertFalse(LegacyPolicyConverter.isLegacy(yaml("apiVersion: 0.2.0\ninterface: {rules: []}")));
        assertFalse(LegacyPolicyConverter.isLegacy(yaml("rules: {cap.*: {oneOf: []}}\ninterface: {rules: []}")));
        assertFalse(LegacyPolicyConverter.isLegacy(yaml("rules: []")));
        assertFalse(LegacyPolicyConverter.isLegacy(yaml("{}")));
        assertFalse(LegacyPolicyConverter.isLegacy(yaml("[]")));
        assertFalse(LegacyPolicyConverter.isLegacy(yaml("apiVersion: 0.1.0").get("apiVersion")));
    }

    @Test
    void mapsEveryKeyFormInMapOrder() {
        JsonNode converted = LegacyPolicyConverter.convert(yaml("""
                rules:
                  cap.interface.b.install:1.2.3: {oneOf: []}
                  cap.interface.a.install: {oneOf: []}
                  cap.*: {oneOf: []}
                """));
        assertEquals(yaml("""
                interface:
                  rules:
                    - {interface: {path: cap.interface.b.install, revision: 1.2.3}, oneOf: []}
                    - {interface: {path: cap.interface.a.install}, oneOf: []}
                    - {interface: {path: cap.*}, oneOf: []}
                """), converted);
        assertEquals(List.of(), PolicyParser.validate(converted));
    }

    @Test
    void anEmptyOneOfStaysEmpty() {
        JsonNode rule = convertedRule("apiVersion: 0.1.0\nrules: {cap.interface.x: {oneOf: []}}", 0);
        assertTrue(rule.path("oneOf").isArray());
        assertEquals(0, rule.path("oneOf").size());
    }

    @Test
    void anEmptyRulesMapIsAnEmptyRuleList() {
        JsonNode converted = LegacyPolicyConverter.convert(yaml("apiVersion: 0.1.0\nrules: {}"));
        assertEquals(yaml("interface: {rules: []}"), converted);
        assertEquals(List.of(), PolicyParser.validate(converted));
    }

    @Test
    void injectTypeInstancesBecomeRequiredTypeInstances() {
        JsonNode rule = convertedRule("""
                rules:
                  cap.interface.x:0.1.0:
                    oneOf:
                      - implementationConstraints: {requires: [{path: cap.type.a}]}
                        injectTypeInstances:
                          - id: ti-1
                            typeRef: {path: cap.type.a, revision: 0.1.0}
                          - id: ti-2
                            typeRef: {path: cap.type.b, revision: 0.2.0}
                            description: My own words
                          - id: ti-3
                            typeRef: {path: cap.type.c}
                          - id: ti-4
                      - injectTypeInstances: []
                """, 0);
        assertEquals(yaml("""
                - implementationConstraints: {requires: [{path: cap.type.a}]}
                  inject:
                    requiredTypeInstances:
                      - {id: ti-1, description: "cap.type.a:0.1.0"}
                      - {id: ti-2, description: My own words}
                      - {id: ti-3, description: cap.type.c}
                      - {id: ti-4}
                - inject: {requiredTypeInstances: []}
                """), rule.path("oneOf"));
    }

    @Test
    void implementationConstraintsAreCopiedUnchanged() {
        JsonNode rule = convertedRule("""
                rules:
                  cap.interface.x:
                    oneOf:
                      - implementationConstraints:
                          path: cap.implementation.x.install
                          attributes: [{path: cap.attribute.a, revision: 0.1.0}, {path: cap.attribute.b}]
                          requires: [{path: cap.type.a}]
                      - implementationConstraints: {}
                      - {}
                """, 0);
        assertEquals(yaml("""
                - implementationConstraints:
                    path: cap.implementation.x.install
                    attributes: [{path: cap.attribute.a, revision: 0.1.0}, {path: cap.attribute.b}]
                    requires: [{path: cap.type.a}]
                - implementationConstraints: {}
                - {}
                """), rule.path("oneOf"));
    }

    @Test
    void semanticProblemsAreLeftToThePolicyParser() {
        JsonNode converted = LegacyPolicyConverter.convert(yaml("rules: {cap.interface.x:1.0: {oneOf: []}}"));
        List<Problem> problems = PolicyParser.validate(converted);
        assertEquals(1, problems.size(), problems.toString());
        assertEquals("$.interface.rules[0].interface.revision", problems.get(0).path());
    }

    @Test
    void rulesMustBeAnObject() {
        assertOneProblem("apiVersion: 0.1.0\nrules: [{oneOf: []}]", "$.rules", "must be an object");
        assertOneProblem("apiVersion: 0.1.0\nrules: cap.*", "$.rules", "must be an object");
        assertOneProblem("apiVersion: 0.1.0", "$.rules", "missing 'rules'");
    }

    @Test
    void aPolicyMustBeAnObject() {
        assertEquals("$", assertThrows(DocumentException.class,
                () -> LegacyPolicyConverter.convert(yaml("[]"))).problems().get(0).path());
    }

    @Test
    void aRuleMustBeAnObjectWithAOneOfArray() {
        assertOneProblem("rules: {cap.*: [{implementationConstraints: {}}]}", "$.rules['cap.*']", "must be an object");
        assertOneProblem("rules: {cap.*: }", "$.rules['cap.*']", "must be an object");
        assertOneProblem("rules: {cap.*: {}}", "$.rules['cap.*']", "missing 'oneOf'");
        assertOneProblem("rules: {cap.*: {oneOf: {implementationConstraints: {}}}}", "$.rules['cap.*'].oneOf",
                "must be an array");
        assertOneProblem("rules: {cap.*: {oneOf: [3]}}", "$.rules['cap.*'].oneOf[0]", "must be an object");
    }

    @Test
    void unknownFieldsAreReportedAtEveryLevel() {
        assertOneProblem("apiVersion: 0.1.0\nkind: Policy\nrules: {}", "$.kind", "unknown field 'kind'");
        assertOneProblem("rules: {cap.*: {oneOf: [], anyOf: []}}", "$.rules['cap.*'].anyOf", "unknown field 'anyOf'");
        assertOneProblem("rules: {cap.*: {oneOf: [{inject: {}}]}}", "$.rules['cap.*'].oneOf[0].inject",
                "unknown field 'inject'");
        assertOneProblem("rules: {cap.*: {oneOf: [{injectTypeInstances: [{id: a, name: b}]}]}}",
                "$.rules['cap.*'].oneOf[0].injectTypeInstances[0].name", "unknown field 'name'");
        assertOneProblem("rules: {cap.*: {oneOf: [{injectTypeInstances: [{id: a, typeRef: {path: cap.type.a, rev: 1}}]}]}}",
                "$.rules['cap.*'].oneOf[0].injectTypeInstances[0].typeRef.rev", "unknown field 'rev'");
    }

    @Test
    void anInjectedTypeInstanceNeedsAStringId() {
        String at = "$.rules['cap.interface.x:0.1.0'].oneOf[0].injectTypeInstances[0].id";
        assertOneProblem("rules: {cap.interface.x:0.1.0: {oneOf: [{injectTypeInstances: [{typeRef: {path: cap.type.a}}]}]}}",
                at, "missing 'id'");
        assertOneProblem("rules: {cap.interface.x:0.1.0: {oneOf: [{injectTypeInstances: [{id: 42}]}]}}",
                at, "must be a non-empty string");
        assertOneProblem("rules: {cap.interface.x:0.1.0: {oneOf: [{injectTypeInstances: [{id: [a]}]}]}}",
                at, "must be a non-empty string");
        assertOneProblem("rules: {cap.interface.x:0.1.0: {oneOf: [{injectTypeInstances: [{id: ''}]}]}}",
                at, "must be a non-empty string");
    }

    @Test
    void malformedInjectionEntriesAreReported() {
        String at = "$.rules['cap.*'].oneOf[0].injectTypeInstances";
        assertOneProblem("rules: {cap.*: {oneOf: [{injectTypeInstances: {id: a}}]}}", at, "must be an array");
        assertOneProblem("rules: {cap.*: {oneOf: [{injectTypeInstances: [a]}]}}", at + "[0]", "must be an object");
        assertOneProblem("rules: {cap.*: {oneOf: [{injectTypeInstances: [{id: a, typeRef: cap.type.a}]}]}}",
                at + "[0].typeRef", "must be an object");
        assertOneProblem("rules: {cap.*: {oneOf: [{injectTypeInstances: [{id: a, typeRef: {revision: 0.1.0}}]}]}}",
                at + "[0].typeRef.path", "missing 'path'");
        assertOneProblem("rules: {cap.*: {oneOf: [{injectTypeInstances: [{id: a, description: 7}]}]}}",
                at + "[0].description", "must be a string");
    }

    @Test
    void keysMustBeNonEmptyWithAtMostOneColon() throws IOException {
        // a map key names an Interface: an empty one is refused, wherever the tree comes from
        List<Problem> empty = assertThrows(DocumentException.class, () -> LegacyPolicyConverter.convert(
                Documents.jsonMapper().readTree("{\"rules\": {\"\": {\"oneOf\": []}, \"cap.*\": {\"oneOf\": [], \"\": 1}}}")))
                .problems();
        assertEquals(List.of("$.rules['']", "$.rules['cap.*']['']"), empty.stream().map(Problem::path).toList());
        assertTrue(empty.get(0).problem().contains("empty key"), empty.toString());
        assertOneProblem("rules: {'cap.interface.x:0.1.0:1': {oneOf: []}}", "$.rules['cap.interface.x:0.1.0:1']",
                "more than one ':'");
        assertOneProblem("rules: {'cap.interface.x:': {oneOf: []}}", "$.rules['cap.interface.x:']", "empty revision");
        assertOneProblem("rules: {':0.1.0': {oneOf: []}}", "$.rules[':0.1.0']", "empty path");
    }

    @Test
    void apiVersionMustBeTheLegacyOneWhenPresent() {
        assertOneProblem("apiVersion: 0.2.0\nrules: {}", "$.apiVersion", "must be '0.1.0'");
        assertOneProblem("apiVersion: 1\nrules: {}", "$.apiVersion", "must be '0.1.0'");
        assertEquals(yaml("interface: {rules: []}"), LegacyPolicyConverter.convert(yaml("rules: {}")));
    }

    @Test
    void reportsEveryProblemWithItsPath() {
        List<Problem> problems = problems("""
                apiVersion: 0.2.0
                rules:
                  cap.interface.x:0.1.0:
                    oneOf:
                      - implementationConstraints: {}
                        injectTypeInstances:
                          - id: ti-1
                            typeRef: {path: cap.type.a, revision: 0.1.0}
                          - typeRef: {path: cap.type.b, revision: 0.1.0}
                  cap.interface.y:
                    oneOf: []
                    priority: 1
                """);
        assertEquals(List.of(
                "$.apiVersion",
                "$.rules['cap.interface.x:0.1.0'].oneOf[0].injectTypeInstances[1].id",
                "$.rules['cap.interface.y'].priority"), problems.stream().map(Problem::path).toList());
    }
}
