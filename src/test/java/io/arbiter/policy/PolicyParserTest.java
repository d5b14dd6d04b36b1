package io.arbiter.policy;

import io.arbiter.document.DocumentException;
import io.arbiter.document.Problem;
import io.arbiter.model.Ref;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PolicyParserTest {

    private static PolicyDocument yaml(String text) {
        return PolicyParser.parse(text.getBytes(StandardCharsets.UTF_8), "application/yaml");
    }

    private static List<Problem> problems(String text, String contentType) {
        DocumentException e = assertThrows(DocumentException.class,
                () -> PolicyParser.parse(text.getBytes(StandardCharsets.UTF_8), contentType));
        return e.problems();
    }

    private static Problem problemAt(List<Problem> problems, String path) {
        return problems.stream().filter(p -> p.path().equals(path)).findFirst()
                .orElseThrow(() -> new AssertionError("no problem at " + path + " in " + problems));
    }

    @Test
    void parsesTheCurrentSyntax() {
        PolicyDocument document = yaml("""
                interface:
                  default:
                    inject:
                      requiredTypeInstances: [{id: helm-1, description: Helm storage}]
                  rules:
                    - interface: {path: cap.interface.database.postgresql.install, revision: 0.1.0}
                      oneOf:
                        - implementationConstraints:
                            path: cap.implementation.aws.rds.postgresql.install
                            attributes: [{path: cap.attribute.cloud.provider.aws}]
                            requires: [{path: cap.type.aws.auth.credentials, revision: 0.1.0}]
                          inject:
                            requiredTypeInstances: [{id: aws-1}]
                            additionalParameters: [{name: additional-parameters, value: {region: us-east-1}}]
                            additionalTypeInstances: [{name: postgresql, id: pg-1}]
                    - interface: {path: cap.*}
                      oneOf: []
                typeInstance:
                  rules:
                    - typeRef: {path: cap.type.aws.*, revision: 0.1.0}
                      backend: {id: vault-1, description: Vault}
                """);

        Policy policy = document.policy();
        assertEquals("helm-1", policy.defaults().requiredTypeInstances().get(0).id());
        assertEquals(new Ref("cap.interface.database.postgresql.install", "0.1.0"), policy.rules().get(0).interfaceRef());
        Policy.OneOfItem item = policy.rules().get(0).oneOf().get(0);
        assertEquals("cap.implementation.aws.rds.postgresql.install", item.constraints().path());
        assertEquals(List.of(new Ref("cap.attribute.cloud.provider.aws", null)), item.constraints().attributes());
        assertEquals("us-east-1", item.inject().additionalParameters().get(0).value().path("region").asText());
        assertEquals("pg-1", item.inject().additionalTypeInstances().get(0).id());
        assertTrue(policy.rules().get(1).oneOf().isEmpty());
        assertEquals("vault-1", policy.typeInstanceRules().get(0).backend().id());
    }

    @Test
    void emptyConstraintsMeanAnyImplementation() {
        Policy policy = yaml("interface: {rules: [{interface: {path: cap.*}, oneOf: [{implementationConstraints: {}}]}]}").policy();

        Policy.ImplementationConstraints constraints = policy.rules().get(0).oneOf().get(0).constraints();
        assertEquals(null, constraints.path());
        assertTrue(constraints.attributes().isEmpty() && constraints.requires().isEmpty());
    }

    @Test
    void everyProblemIsReportedWithItsYamlLocation() {
        List<Problem> problems = problems("""
                interface:
                  rules:
                    - interface: {path: cap.interface.a, revision: "1.0"}
                      oneOf:
                        - implementationConstraints:
                            pth: cap.implementation.x
                    - interface: {path: cap.interface.b}
                      oneOf: []
                      extra: true
                """, "application/yaml");

        assertEquals(3, problems.size(), problems.toString());
        Problem unknown = problemAt(problems, "$.interface.rules[0].oneOf[0].implementationConstraints.pth");
        assertTrue(unknown.problem().contains("pth"), unknown.toString());
        assertEquals(6, unknown.line(), unknown.toString());
        Problem extra = problemAt(problems, "$.interface.rules[1].extra");
        assertEquals("unknown field 'extra'", extra.problem());
        assertEquals(9, extra.line(), extra.toString());
        problemAt(problems, "$.interface.rules[0].interface.revision");
    }

    @Test
    void jsonProblemsHaveLinesToo() {
        List<Problem> problems = problems("{\n  \"interface\": {\n    \"rules\": \"not a list\"\n  }\n}", "application/json");

        Problem problem = problemAt(problems, "$.interface.rules");
        assertEquals(3, problem.line());
        assertTrue(problem.problem().contains("array"), problem.toString());
    }

    @Test
    void missingInterfacePathIsLocated() {
        Problem problem = problemAt(problems("interface: {rules: [{interface: {revision: 0.1.0}, oneOf: []}]}",
                "application/yaml"), "$.interface.rules[0].interface.path");
        assertEquals("required field 'path' is missing", problem.problem());
        assertEquals(1, problem.line());
    }

    @Test
    void twoRulesForTheSameInterfaceKeyAreRefused() {
        Problem problem = problemAt(problems("""
                interface:
                  rules:
                    - {interface: {path: cap.interface.a, revision: 0.1.0}, oneOf: []}
                    - {interface: {path: cap.interface.a}, oneOf: []}
                    - {interface: {path: cap.interface.a, revision: 0.1.0}, oneOf: []}
                """, "application/yaml"), "$.interface.rules[2].interface");

        assertTrue(problem.problem().contains("interface.rules[0]"), problem.toString());
        assertEquals(5, problem.line());
    }

    @Test
    void wildcardOnlyAsTheLastSegmentAndNeverInImplementationPaths() {
        List<Problem> problems = problems("""
                interface:
                  rules:
                    - interface: {path: cap.*.database}
                      oneOf:
                        - implementationConstraints: {path: cap.implementation.*}
                typeInstance:
                  rules:
                    - {typeRef: {path: cap.type.*.x}, backend: {id: b}}
                """, "application/yaml");

        assertTrue(problemAt(problems, "$.interface.rules[0].interface.path").problem().contains("last path segment"));
        assertTrue(problemAt(problems, "$.interface.rules[0].oneOf[0].implementationConstraints.path").problem().contains("exact"));
        problemAt(problems, "$.typeInstance.rules[0].typeRef.path");
    }

    @Test
    void interfacePathsMustBeCapPrefixed() {
        Problem problem = problemAt(problems("interface: {rules: [{interface: {path: interface.a}, oneOf: []}]}",
                "application/yaml"), "$.interface.rules[0].interface.path");
        assertTrue(problem.problem().contains("cap."), problem.toString());
    }

    @Test
    void wrongTypesAreReported() {
        List<Problem> problems = problems("interface: {rules: [{interface: {path: 5}, oneOf: {}}]}", "application/yaml");
        problemAt(problems, "$.interface.rules[0].interface.path");
        problemAt(problems, "$.interface.rules[0].oneOf");
    }

    @Test
    void anInjectListMayNotNameAParameterOrTypeInstanceTwice() {
        List<Problem> problems = problems("""
                interface:
                  rules:
                    - interface: {path: cap.*}
                      oneOf:
                        - inject:
                            additionalParameters: [{name: p, value: 1}, {name: p, value: 2}]
                            additionalTypeInstances: [{name: db, id: a}, {name: db, id: b}]
                """, "application/yaml");

        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problemAt(problems, "$.interface.rules[0].oneOf[0].inject.additionalParameters[1].name").problem().contains("entry [0]"));
        problemAt(problems, "$.interface.rules[0].oneOf[0].inject.additionalTypeInstances[1].name");
    }

    /** JSON allows an empty key, and a parameter's value is free-form: whatever the Implementation takes. */
    @Test
    void aParameterValueMayHoldEmptyKeys() {
        PolicyDocument document = PolicyParser.parse("""
                {"interface": {"rules": [{"interface": {"path": "cap.*"}, "oneOf": [{"inject": {"additionalParameters": [
                  {"name": "p", "value": {"": 1, "nested": [{"": {"": "deep"}}]}}]}}]}]}}
                """.getBytes(StandardCharsets.UTF_8), "application/json");
        PolicyDocument yaml = yaml("""
                interface:
                  rules:
                    - interface: {path: cap.*}
                      oneOf: [{inject: {additionalParameters: [{name: p, value: {"": 1}}]}}]
                """);

        var value = document.policy().rules().get(0).oneOf().get(0).inject().additionalParameters().get(0).value();
        assertEquals(1, value.path("").asInt());
        assertEquals("deep", value.path("nested").get(0).path("").path("").asText());
        assertEquals(1, yaml.policy().rules().get(0).oneOf().get(0).inject().additionalParameters().get(0).value().path("").asInt());
    }

    @Test
    void anEmptyKeyWhereTheSyntaxNamesFieldsIsRefused() {
        List<Problem> problems = problems("""
                {"interface": {"": 1, "rules": [{"interface": {"path": "cap.*"}, "oneOf": [{"inject": {"": []}}]}]}}
                """, "application/json");

        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.stream().allMatch(problem -> problem.problem().contains("unknown field ''")), problems.toString());
    }

    @Test
    void revisionIsAContentHash() {
        PolicyDocument a = yaml("interface: {rules: [{interface: {path: cap.*}, oneOf: []}]}");
        PolicyDocument b = PolicyParser.parse("{\"interface\":{\"rules\":[{\"oneOf\":[],\"interface\":{\"path\":\"cap.*\"}}]}}"
                .getBytes(StandardCharsets.UTF_8), "application/json");
        PolicyDocument c = yaml("interface: {rules: [{interface: {path: cap.interface.x}, oneOf: []}]}");

        assertEquals(a.revision(), b.revision());
        assertNotEquals(a.revision(), c.revision());
    }
}
