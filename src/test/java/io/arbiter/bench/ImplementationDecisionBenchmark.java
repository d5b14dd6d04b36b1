package io.arbiter.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.decision.Settings;
import io.arbiter.decision.Snapshot;
import io.arbiter.decision.implementation.ImplementationDecider;
import io.arbiter.decision.implementation.ImplementationDecision;
import io.arbiter.decision.implementation.ImplementationFacts.Outcome;
import io.arbiter.decision.implementation.ImplementationRequest;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.engine.RuleBaseBuilder;
import io.arbiter.model.Ref;
import io.arbiter.policy.Policy;
import io.arbiter.policy.PolicyDocument;
import io.arbiter.policy.PolicyParser;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Latency of ONE in-process implementation decision ({@link ImplementationDecider#decide}) against a generated
 * catalog of 1,000 Implementations (50 Interfaces x 20), ~1,000 TypeInstances and a global policy of 100
 * Interface rules plus {@code cap.*} (see {@link BenchData}); case (d) adds an Action and two Workflow-step policies. Not run by {@code mvn test} (surefire excludes
 * {@code **}{@code /bench/**}); run with {@code bash bench/run.sh} from the project root, which must be the working
 * directory because the rule base is compiled from {@code rules/} and {@code decision-tables/} on disk.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = BenchData.AS_DEPLOYED)
// 8x2s of warmup: with 3x2s the Drools code paths were still being JIT-compiled during measurement on 2 cores.
@Warmup(iterations = 8, time = 2)
@Measurement(iterations = 5, time = 2)
@State(Scope.Benchmark)
public class ImplementationDecisionBenchmark {

    /** Exact rule (path + revision), first item rejects everything, second item selects the Bitnami revisions. */
    static final int EXACT_RULE_INTERFACE = 13;
    /** No rule of its own: decided by cap.*. */
    static final int CAP_STAR_INTERFACE = 47;
    /** Exact rule that no Implementation meets. */
    static final int NO_MATCH_INTERFACE = 29;

    private Snapshot snapshot;
    private ImplementationRequest exactRuleRequest;
    private ImplementationRequest capStarRequest;
    private ImplementationRequest noMatchRequest;
    private ImplementationRequest mergedRequest;
    private Snapshot embedded;
    private ImplementationRequest embeddedInterfaceRequest;
    private ImplementationRequest embeddedActionRequest;

    @Setup(Level.Trial)
    public void setUp() {
        Path rules = Path.of("rules/implementation");
        Path tables = Path.of("decision-tables/implementation");
        if (!Files.isDirectory(rules) || !Files.isDirectory(tables)) {
            throw new IllegalStateException("run from the project root: " + rules.toAbsolutePath() + " not found");
        }
        CompiledRuleBase ruleBase = RuleBaseBuilder.build(ImplementationDecider.KIND,
                io.arbiter.testing.RuleTestSupport.files(ImplementationDecider.KIND), ImplementationDecider.PHASES);
        PolicyDocument policy = PolicyParser.parse(BenchData.policyYaml().getBytes(StandardCharsets.UTF_8),
                "application/yaml");
        if (policy.policy().rules().size() != 101) {
            throw new IllegalStateException("expected 101 policy rules, got " + policy.policy().rules().size());
        }
        snapshot = new Snapshot(policy, Map.of(io.arbiter.decision.implementation.ImplementationPolicyType.NAME, ruleBase), BenchData.catalog(),
                BenchData.typeInstances(), Settings.DEFAULT_PLATFORM);

        exactRuleRequest = request(EXACT_RULE_INTERFACE);
        capStarRequest = request(CAP_STAR_INTERFACE);
        noMatchRequest = request(NO_MATCH_INTERFACE);
        mergedRequest = new ImplementationRequest(new Ref(BenchData.interfacePath(EXACT_RULE_INTERFACE),
                BenchData.INTERFACE_REVISION), parsePolicy(BenchData.actionPolicyYaml(EXACT_RULE_INTERFACE)),
                List.of(parsePolicy(BenchData.workflowPolicyYaml(EXACT_RULE_INTERFACE, 0)),
                        parsePolicy(BenchData.workflowPolicyYaml(EXACT_RULE_INTERFACE, 1))),
                null, null, false);

        embedded = io.arbiter.testing.Fixtures.snapshot(io.arbiter.testing.Fixtures.embeddedPolicy());
        Ref postgres = new Ref("cap.interface.database.postgresql.install", "0.1.0");
        embeddedInterfaceRequest = ImplementationRequest.forInterface(postgres);
        embeddedActionRequest = new ImplementationRequest(postgres, parsePolicy("""
                interface:
                  rules:
                    - interface: {path: cap.interface.database.postgresql.install}
                      oneOf:
                        - implementationConstraints: {path: cap.implementation.bitnami.postgresql.install}
                """), List.of(), null, null, false);
        Ref bitnami = new Ref("cap.implementation.bitnami.postgresql.install", "0.1.0");
        expect("embeddedInterfaceOnly", embeddedInterfaceOnly(), Outcome.SELECTED, new Ref("cap.*", null), 0, bitnami);
        expect("embeddedActionPolicy", embeddedActionPolicy(), Outcome.SELECTED,
                new Ref("cap.interface.database.postgresql.install", null), 0, bitnami);

        Ref exactKey = new Ref(BenchData.interfacePath(EXACT_RULE_INTERFACE), BenchData.INTERFACE_REVISION);
        expect("exactRuleSelected", exactRuleSelected(), Outcome.SELECTED, exactKey, 1,
                new Ref("cap.implementation.bitnami.svc13.install", "0.3.0"));
        expect("capStarSelected", capStarSelected(), Outcome.SELECTED, new Ref("cap.*", null), 0,
                new Ref("cap.implementation.bitnami.svc47.install", "0.3.0"));
        expect("noMatch", noMatch(), Outcome.NO_MATCH,
                new Ref(BenchData.interfacePath(NO_MATCH_INTERFACE), BenchData.INTERFACE_REVISION), null, null);
        // The Action item merges with global item 1 and takes the Action's place (index 0 of the merged oneOf).
        ImplementationDecision merged = mergedPolicies();
        expect("mergedPolicies", merged, Outcome.SELECTED, exactKey, 0,
                new Ref("cap.implementation.bitnami.svc13.install", "0.3.0"));
        expectMergedParameters(merged);
    }

    private static Policy parsePolicy(String yaml) {
        return PolicyParser.parse(yaml.getBytes(StandardCharsets.UTF_8), "application/yaml").policy();
    }

    /** additional-parameters deep-merged from the Action and both Workflow-step items, the Action winning image.tag. */
    private static void expectMergedParameters(ImplementationDecision d) {
        List<ImplementationDecision.AdditionalParameter> parameters = d.inject() == null ? List.of()
                : d.inject().additionalParameters();
        JsonNode value = parameters.size() == 1 && "additional-parameters".equals(parameters.get(0).name())
                ? parameters.get(0).value() : null;
        boolean ok = value != null && value.path("replicas").asInt() == 3 && "step0".equals(value.path("wf0").asText())
                && "step1".equals(value.path("wf1").asText()) && "action".equals(value.path("image").path("tag").asText())
                && value.path("image").path("fromWf0").asBoolean() && value.path("image").path("fromWf1").asBoolean();
        if (!ok) {
            throw new IllegalStateException("mergedPolicies: expected one deep-merged additional-parameters with "
                    + "replicas, wf0, wf1, image.{tag: action, fromWf0, fromWf1}, got " + parameters);
        }
    }

    private static ImplementationRequest request(int i) {
        return ImplementationRequest.forInterface(new Ref(BenchData.interfacePath(i), BenchData.INTERFACE_REVISION));
    }

    private static void expect(String name, ImplementationDecision d, Outcome outcome, Ref ruleKey, Integer oneOfIndex,
                               Ref selected) {
        boolean ok = d.outcome() == outcome && d.rule() != null && ruleKey.equals(d.rule().interfaceRef())
                && Objects.equals(oneOfIndex, d.rule().oneOfIndex()) && Objects.equals(selected, d.selected());
        if (!ok) {
            throw new IllegalStateException(name + ": expected " + outcome + " by rule " + ruleKey + " item "
                    + oneOfIndex + " selecting " + selected + ", got " + d.outcome() + " rule " + d.rule()
                    + " selected " + d.selected() + " candidates " + d.candidates());
        }
    }

    /** (a) The Interface has an exact rule; outcome SELECTED (the request carries only it: memoised per snapshot). */
    @Benchmark
    public ImplementationDecision exactRuleSelected() {
        return ImplementationDecider.decide(exactRuleRequest, snapshot);
    }

    /** (b) The Interface has no rule of its own; cap.* decides, outcome SELECTED. */
    @Benchmark
    public ImplementationDecision capStarSelected() {
        return ImplementationDecider.decide(capStarRequest, snapshot);
    }

    /** (c) The exact rule applies but no Implementation meets any item; outcome NO_MATCH. */
    @Benchmark
    public ImplementationDecision noMatch() {
        return ImplementationDecider.decide(noMatchRequest, snapshot);
    }

    /**
     * (d) The exact-rule Interface with an Action policy and two Workflow-step policies merged with the global one:
     * the rules join, the equal items merge and their additionalParameters are deep-merged; outcome SELECTED.
     */
    @Benchmark
    public ImplementationDecision mergedPolicies() {
        return ImplementationDecider.decide(mergedRequest, snapshot);
    }

    /** (e) The embedded default (its policy, catalog and TypeInstances): an Interface-only request, derived with the snapshot. */
    @Benchmark
    public ImplementationDecision embeddedInterfaceOnly() {
        return ImplementationDecider.decide(embeddedInterfaceRequest, embedded);
    }

    /** (f) The embedded default with an Action policy naming the Bitnami Implementation: decided at request time. */
    @Benchmark
    public ImplementationDecision embeddedActionPolicy() {
        return ImplementationDecider.decide(embeddedActionRequest, embedded);
    }
}
