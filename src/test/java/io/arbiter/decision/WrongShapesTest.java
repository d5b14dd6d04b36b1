package io.arbiter.decision;

import io.arbiter.runtime.Decisions;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.document.DocumentException;
import io.arbiter.document.Documents;
import io.arbiter.document.Problem;
import io.arbiter.testing.Fixtures;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every field of a valid request, and of the policies in it, replaced by a value of each wrong JSON type: the
 * answer is a decision or a refusal whose every problem has a path and, the request being text, a line and a
 * column. Never another exception (issue 24: "every shape error in a policy, a request or an embedded policy is
 * located").
 */
class WrongShapesTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final List<JsonNode> WRONG = List.of(
            NODES.objectNode().put("x", 1), NODES.arrayNode().add(1), NODES.textNode("s"), NODES.numberNode(7),
            NODES.numberNode(new java.math.BigDecimal("1e400")), NODES.booleanNode(true), NODES.nullNode());

    private static final String POLICY = """
            interface:
              default:
                inject:
                  requiredTypeInstances: [{id: 517cf827-233c-4bf1-8fc9-48534424dd58, description: d}]
              rules:
                - interface: {path: cap.interface.database.postgresql.install, revision: 0.1.0}
                  oneOf:
                    - implementationConstraints:
                        path: cap.implementation.bitnami.postgresql.install
                        attributes: [{path: cap.attribute.cloud.provider.gcp, revision: 0.1.0}]
                        requires: [{path: cap.type.gcp.auth.service-account}]
                      inject:
                        requiredTypeInstances: [{id: a1, description: d}]
                        additionalParameters: [{name: additional-parameters, value: {region: us-east-1}}]
                        additionalTypeInstances: [{name: postgresql, id: pg-1}]
            typeInstance:
              rules:
                - typeRef: {path: cap.type.aws.*, revision: 0.1.0}
                  backend: {id: c268d3f5-8834-434b-bea2-b677793611c5, description: Helm}
            """;
    private static final String IMPLEMENTATION_REQUEST = """
            interface: {path: cap.interface.database.postgresql.install, revision: 0.1.0}
            explain: true
            actionPolicy:
              interface:
                rules:
                  - interface: {path: cap.*}
                    oneOf:
                      - implementationConstraints: {requires: [{path: cap.type.x, revision: 0.1.0}], attributes: [{path: cap.attribute.y}]}
            workflowPolicies:
              - interface:
                  rules:
                    - interface: {path: cap.interface.database.postgresql.install}
                      oneOf: [{inject: {additionalParameters: [{name: p, value: {a: 1}}]}}]
            implementations:
              - ocfVersion: 0.0.1
                revision: 0.1.0
                kind: Implementation
                metadata:
                  prefix: cap.implementation.example.a
                  name: install
                  attributes: {cap.attribute.y: {revision: 0.1.0}}
                spec:
                  implements: [{path: cap.interface.database.postgresql.install, revision: 0.1.0}]
                  requires:
                    cap.type: {oneOf: [{name: x, revision: 0.1.0, alias: ax}], allOf: [{name: cap.type.z, revision: 0.1.0}]}
                  additionalInput:
                    parameters: [{name: p, typeRef: {path: cap.type.p, revision: 0.1.0}}]
                    typeInstances: [{name: t, typeRef: {path: cap.type.t, revision: 0.1.0}, verbs: [get]}]
            typeInstances:
              - {id: a1, typeRef: {path: cap.type.x, revision: 0.1.0}, description: x}
            """;
    private static final String BACKEND_REQUEST = """
            typeRefs: [{path: cap.type.aws.auth.credentials, revision: 0.1.0}, {path: cap.type.helm.release.storage}]
            actionPolicy:
              typeInstance:
                rules:
                  - typeRef: {path: cap.type.aws.*}
                    backend: {id: c268d3f5-8834-434b-bea2-b677793611c5, description: d}
            """;
    private static final String DEPENDENCIES_REQUEST = """
            clusterNamespace: local-cluster
            policies:
              - name: app
                namespace: policies
                dependencies: [{apiVersion: policy.open-cluster-management.io/v1, kind: Policy, name: setup, compliance: Compliant}]
                policyTemplates:
                  - name: app-config
                    kind: ConfigurationPolicy
                    applied: true
                    ignorePending: false
                    extraDependencies: [{apiVersion: policy.open-cluster-management.io/v1beta1, kind: PolicySet, name: all, namespace: policies, compliance: Compliant}]
            policySets: [{name: all, namespace: policies, policies: [app]}]
            observed:
              - {apiVersion: policy.open-cluster-management.io/v1, kind: Policy, name: policies.setup, namespace: local-cluster, compliant: NonCompliant, totalViolations: 2}
            """;
    private static final String ROLLOUT_REQUEST = """
            remediationAction: enforce
            strategy:
              type: Progressive
              progressive:
                minSuccessTime: 1m
                progressDeadline: 90s
                maxFailures: 10%
                maxConcurrency: 2
                mandatoryDecisionGroups: [{groupName: canary}, {groupIndex: 1}]
            decisionGroups:
              - {groupName: canary, groupIndex: 0, clusters: [c1, c2]}
              - {groupIndex: 1, clusters: [c3]}
            clusters:
              - {name: c1, status: Succeeded, lastTransitionTime: "2026-01-01T00:08:00Z"}
            now: "2026-01-01T00:10:00Z"
            """;

    private static Decisions decisions;

    @BeforeAll
    static void service() {
        decisions = Fixtures.decisions(Fixtures.snapshot(Fixtures.embeddedPolicy()));
    }

    @Test
    void everyRequestFieldOfTheWrongTypeIsADecisionOrALocatedRefusal() {
        List<String> failures = new ArrayList<>();
        mutate("implementation", IMPLEMENTATION_REQUEST, failures);
        mutate("backend", BACKEND_REQUEST, failures);
        mutate("dependencies", DEPENDENCIES_REQUEST, failures);
        mutate("rollout", ROLLOUT_REQUEST, failures);
        assertTrue(failures.isEmpty(), failures.size() + " mutations failed:\n" + String.join("\n", failures));
    }

    @Test
    void everyPolicyFieldOfTheWrongTypeIsALocatedProblem() {
        List<String> failures = new ArrayList<>();
        JsonNode policy = tree(POLICY);
        forEachMutation(policy, (where, mutated) -> {
            byte[] body = pretty(mutated);
            try {
                Decisions.Validation validation = decisions.validatePolicy(body, "application/json");
                if (!validation.valid()) {
                    unlocated(validation.problems()).ifPresent(p -> failures.add(where + ": unlocated " + p));
                }
            } catch (RuntimeException e) {
                failures.add(where + ": " + e);
            }
        });
        assertTrue(failures.isEmpty(), failures.size() + " mutations failed:\n" + String.join("\n", failures));
    }

    private static void mutate(String target, String yaml, List<String> failures) {
        JsonNode request = tree(yaml);
        decisions.decide(target, pretty(request), "application/json"); // the unmutated request is decided
        forEachMutation(request, (where, mutated) -> {
            try {
                decisions.decide(target, pretty(mutated), "application/json");
            } catch (DecisionException e) {
                unlocated(e.problems()).ifPresent(p -> failures.add(target + " " + where + ": unlocated " + p));
                if (e.problems().isEmpty()) {
                    failures.add(target + " " + where + ": no problems in " + e.getMessage());
                }
            } catch (DocumentException e) {
                unlocated(e.problems()).ifPresent(p -> failures.add(target + " " + where + ": unlocated " + p));
            } catch (RuntimeException | StackOverflowError e) {
                failures.add(target + " " + where + ": " + e);
            }
        });
    }

    /** A problem in the request without a location. A path without {@code $} is in the server's policy, not the request. */
    private static Optional<Problem> unlocated(List<Problem> problems) {
        return problems.stream().filter(p -> p.path() == null
                || (p.path().startsWith("$") && (p.line() == null || p.column() == null))).findFirst();
    }

    /** Calls {@code action} with each copy of {@code root} in which one node is replaced by one wrong value. */
    private static void forEachMutation(JsonNode root, MutationAction action) {
        List<List<Object>> paths = new ArrayList<>();
        collect(root, List.of(), paths);
        for (List<Object> path : paths) {
            for (JsonNode wrong : WRONG) {
                JsonNode copy = root.deepCopy();
                replace(copy, path, wrong);
                action.accept(path + " = " + wrong, copy);
            }
        }
    }

    private interface MutationAction {
        void accept(String where, JsonNode mutated);
    }

    /** Every node's path as its steps: field names and list indexes. */
    private static void collect(JsonNode node, List<Object> path, List<List<Object>> paths) {
        if (node.isObject()) {
            node.fieldNames().forEachRemaining(name -> {
                List<Object> child = append(path, name);
                paths.add(child);
                collect(node.get(name), child, paths);
            });
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                List<Object> child = append(path, i);
                paths.add(child);
                collect(node.get(i), child, paths);
            }
        }
    }

    private static List<Object> append(List<Object> path, Object step) {
        List<Object> child = new ArrayList<>(path);
        child.add(step);
        return child;
    }

    private static void replace(JsonNode root, List<Object> path, JsonNode value) {
        JsonNode parent = root;
        for (Object step : path.subList(0, path.size() - 1)) {
            parent = step instanceof Integer index ? parent.get(index) : parent.get((String) step);
        }
        Object last = path.get(path.size() - 1);
        if (last instanceof Integer index) {
            ((ArrayNode) parent).set(index, value);
        } else {
            ((ObjectNode) parent).set((String) last, value);
        }
    }

    private static JsonNode tree(String yaml) {
        return Documents.parseYaml(yaml.getBytes(StandardCharsets.UTF_8)).tree();
    }

    /** Multi-line JSON, so that line numbers tell fields apart. */
    private static byte[] pretty(JsonNode tree) {
        try {
            return Documents.jsonMapper().writerWithDefaultPrettyPrinter().writeValueAsBytes(tree);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return fail(e);
        }
    }
}
