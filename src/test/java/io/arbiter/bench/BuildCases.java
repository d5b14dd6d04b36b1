package io.arbiter.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.audit.Audit;
import io.arbiter.audit.DecisionLog;
import io.arbiter.audit.Metrics;
import io.arbiter.audit.RecentDecisions;
import io.arbiter.runtime.Decisions;
import io.arbiter.decision.Settings;
import io.arbiter.decision.Snapshot;
import io.arbiter.runtime.SnapshotLoader;
import io.arbiter.decision.dependencies.DependenciesDecider;
import io.arbiter.decision.implementation.ImplementationDecider;
import io.arbiter.decision.implementation.ImplementationPolicyType;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.engine.RuleBaseBuilder;
import io.arbiter.policy.PolicyDocument;
import io.arbiter.policy.PolicyParser;
import io.arbiter.policytype.PolicyType;
import io.arbiter.policytype.PolicyTypeRegistry;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * The cases {@link CompareBuilds} runs in each build: each is constructed with a project root (whose {@code rules/}
 * and {@code decision-tables/} it compiles) and decides one way ({@code first}) or another ({@code second}).
 * {@code bench/compare-builds.sh} copies this file into the other build, so it must compile against both.
 */
public final class BuildCases {

    private BuildCases() {
    }

    static CompiledRuleBase ruleBase(String kind, String root, java.util.List<String> phases) {
        PolicyType type = PolicyTypeRegistry.discover().types().stream()
                .filter(t -> t.ruleSet().folders().contains(kind)).findFirst().orElseThrow();
        return RuleBaseBuilder.build(kind, SnapshotLoader.ruleFiles(type, Path.of(root, "rules"),
                Path.of(root, "decision-tables")), phases);
    }

    /** The AuditCostBenchmark decision: first without recording, second recorded (no log file in either). */
    public static final class AuditCost {
        private final Decisions unaudited;
        private final Decisions recorded;
        private final byte[] request;

        public AuditCost(String root) {
            CompiledRuleBase ruleBase = ruleBase(ImplementationDecider.KIND, root, ImplementationDecider.PHASES);
            PolicyDocument policy = PolicyParser.parse(BenchData.policyYaml().getBytes(StandardCharsets.UTF_8), "application/yaml");
            Snapshot recording = new Snapshot(policy, Map.of(ImplementationPolicyType.NAME, ruleBase), BenchData.catalog(),
                    BenchData.typeInstances(), Settings.DEFAULT_PLATFORM);
            Snapshot silent = new Snapshot(policy, Map.of(ImplementationPolicyType.NAME, ruleBase.withoutRecording()),
                    BenchData.catalog(), BenchData.typeInstances(), Settings.DEFAULT_PLATFORM);
            PolicyTypeRegistry registry = PolicyTypeRegistry.discover();
            unaudited = new Decisions(registry, silent, new Audit(DecisionLog.OFF, new RecentDecisions(1_000), new Metrics(), false));
            recorded = new Decisions(registry, recording, new Audit(DecisionLog.OFF, new RecentDecisions(1_000), new Metrics(), false));
            request = ("{\"interface\": {\"path\": \"" + BenchData.interfacePath(ImplementationDecisionBenchmark.EXACT_RULE_INTERFACE)
                    + "\", \"revision\": \"" + BenchData.INTERFACE_REVISION + "\"}}").getBytes(StandardCharsets.UTF_8);
            JsonNode check = recorded.decide("implementation", request, "application/json");
            if (!"SELECTED".equals(check.path("outcome").asText())) {
                throw new IllegalStateException(root + ": unexpected benchmark decision " + check);
            }
            System.out.println(root + ": " + check.path("firedRules").size() + " firings");
        }

        public int first() {
            return encoded(unaudited.decide("implementation", request, "application/json"));
        }

        public int second() {
            return encoded(recorded.decide("implementation", request, "application/json"));
        }

        /** The response as the HTTP layer sends it (written so that it compiles against older builds too). */
        private static int encoded(JsonNode response) {
            try {
                return io.arbiter.document.Documents.jsonMapper().writeValueAsBytes(response).length;
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** The DependenciesBenchmark decision: first in one session, second as the service decides it (partitioned). */
    public static final class Dependencies {
        private final CompiledRuleBase ruleBase;
        private final JsonNode request = DependenciesBenchmark.request();

        public Dependencies(String root) {
            ruleBase = ruleBase(DependenciesDecider.KIND, root, DependenciesDecider.PHASES);
            System.out.println(root + ": " + DependenciesDecider.decide(request, ruleBase).firedRules().size() + " firings");
        }

        public int first() {
            return DependenciesDecider.decide(request, ruleBase, 1).policies().size();
        }

        public int second() {
            return DependenciesDecider.decide(request, ruleBase).policies().size();
        }
    }

    /**
     * ImplementationDecisionBenchmark's decisions on the 1,000-Implementation catalog: first a request that carries
     * only the Interface, second the same Interface with an Action and two Workflow-step policies.
     */
    public static final class Implementation {
        private final Snapshot snapshot;
        private final io.arbiter.decision.implementation.ImplementationRequest interfaceOnly;
        private final io.arbiter.decision.implementation.ImplementationRequest withPolicies;

        public Implementation(String root) {
            CompiledRuleBase ruleBase = ruleBase(ImplementationDecider.KIND, root, ImplementationDecider.PHASES);
            PolicyDocument policy = PolicyParser.parse(BenchData.policyYaml().getBytes(StandardCharsets.UTF_8), "application/yaml");
            snapshot = new Snapshot(policy, Map.of(ImplementationPolicyType.NAME, ruleBase), BenchData.catalog(),
                    BenchData.typeInstances(), Settings.DEFAULT_PLATFORM);
            int i = ImplementationDecisionBenchmark.EXACT_RULE_INTERFACE;
            io.arbiter.model.Ref ref = new io.arbiter.model.Ref(BenchData.interfacePath(i), BenchData.INTERFACE_REVISION);
            interfaceOnly = io.arbiter.decision.implementation.ImplementationRequest.forInterface(ref);
            withPolicies = new io.arbiter.decision.implementation.ImplementationRequest(ref, policy(BenchData.actionPolicyYaml(i)),
                    java.util.List.of(policy(BenchData.workflowPolicyYaml(i, 0)), policy(BenchData.workflowPolicyYaml(i, 1))),
                    null, null, false);
            System.out.println(root + ": " + ImplementationDecider.decide(interfaceOnly, snapshot).outcome() + ", "
                    + ImplementationDecider.decide(withPolicies, snapshot).outcome());
        }

        private static io.arbiter.policy.Policy policy(String yaml) {
            return PolicyParser.parse(yaml.getBytes(StandardCharsets.UTF_8), "application/yaml").policy();
        }

        public Object first() {
            return ImplementationDecider.decide(interfaceOnly, snapshot);
        }

        public Object second() {
            return ImplementationDecider.decide(withPolicies, snapshot);
        }
    }

    /**
     * The embedded default (policy, catalog, store) as {@code serve} loads it: first a request that carries only the
     * PostgreSQL Interface, second the same with an Action policy.
     */
    public static final class Embedded {
        private final Snapshot snapshot;
        private final io.arbiter.decision.implementation.ImplementationRequest interfaceOnly;
        private final io.arbiter.decision.implementation.ImplementationRequest withPolicy;

        public Embedded(String root) {
            snapshot = SnapshotLoader.load(Settings.embedded(), PolicyTypeRegistry.discover());
            io.arbiter.model.Ref ref = new io.arbiter.model.Ref("cap.interface.database.postgresql.install", "0.1.0");
            interfaceOnly = io.arbiter.decision.implementation.ImplementationRequest.forInterface(ref);
            withPolicy = new io.arbiter.decision.implementation.ImplementationRequest(ref, PolicyParser.parse((
                    "interface:\n  rules:\n    - interface: {path: cap.interface.database.postgresql.install}\n"
                    + "      oneOf:\n        - implementationConstraints: {path: cap.implementation.bitnami.postgresql.install}\n")
                    .getBytes(StandardCharsets.UTF_8), "application/yaml").policy(), java.util.List.of(), null, null, false);
            System.out.println(root + ": " + ImplementationDecider.decide(interfaceOnly, snapshot).outcome() + ", "
                    + ImplementationDecider.decide(withPolicy, snapshot).outcome());
        }

        public Object first() {
            return ImplementationDecider.decide(interfaceOnly, snapshot);
        }

        public Object second() {
            return ImplementationDecider.decide(withPolicy, snapshot);
        }
    }

    /** RolloutBenchmark's decisions over 5,000 clusters: first {@code allRecorded}, second {@code progressiveMidway}. */
    public static final class Rollout {
        private final CompiledRuleBase ruleBase;
        private final JsonNode allRecorded = RolloutBenchmark.request("allRecorded");
        private final JsonNode progressiveMidway = RolloutBenchmark.request("progressiveMidway");

        public Rollout(String root) {
            ruleBase = ruleBase(io.arbiter.decision.rollout.RolloutDecider.KIND, root,
                    io.arbiter.decision.rollout.RolloutDecider.PHASES);
            System.out.println(root + ": " + decide(allRecorded).toRollout().size() + " and "
                    + decide(progressiveMidway).toRollout().size() + " to roll out");
        }

        private io.arbiter.decision.rollout.RolloutDecision decide(JsonNode request) {
            return io.arbiter.decision.rollout.RolloutDecider.decide(
                    io.arbiter.decision.rollout.RolloutRequest.parse(request), ruleBase);
        }

        public Object first() {
            return decide(allRecorded);
        }

        public Object second() {
            return decide(progressiveMidway);
        }
    }
}
