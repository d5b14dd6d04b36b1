package io.arbiter.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.decision.dependencies.DependenciesDecider;
import io.arbiter.decision.dependencies.DependenciesDecision;
import io.arbiter.document.Documents;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.testing.RuleTestSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Latency of ONE dependency decision (issue 7): 500 policies x 4 templates, each template with 3 dependencies
 * (1 policy-level dependency on the previous policy, 2 extraDependencies on ConfigMaps / Gatekeeper constraints),
 * about a third of them unmet. Run with {@code bash bench/run.sh DependenciesBenchmark} from the project root.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = BenchData.AS_DEPLOYED)
@Warmup(iterations = 15, time = 2) // forks were still getting faster after 16 s on two shared cores
@Measurement(iterations = 5, time = 2)
@State(Scope.Benchmark)
public class DependenciesBenchmark {

    static final int POLICIES = 500;
    static final int TEMPLATES = 4;

    private CompiledRuleBase ruleBase;
    private JsonNode request;

    @Setup
    public void setup() {
        ruleBase = RuleTestSupport.ruleBase(DependenciesDecider.KIND, DependenciesDecider.PHASES);
        request = request();
        DependenciesDecision check = DependenciesDecider.decide(request, ruleBase);
        if (check.policies().size() != POLICIES || check.policies().get(1).templates().size() != TEMPLATES) {
            throw new IllegalStateException("unexpected benchmark decision");
        }
    }

    static JsonNode request() {
        ObjectNode body = Documents.jsonMapper().createObjectNode();
        body.put("clusterNamespace", "local-cluster");
        ArrayNode policies = body.putArray("policies");
        ArrayNode observed = body.putArray("observed");
        for (int p = 0; p < POLICIES; p++) {
            ObjectNode policy = policies.addObject().put("name", "p" + p).put("namespace", "ns");
            ObjectNode dependency = policy.putArray("dependencies").addObject()
                    .put("apiVersion", "policy.open-cluster-management.io/v1").put("kind", "Policy")
                    .put("name", "p" + Math.max(0, p - 1)).put("compliance", "Compliant");
            if (p == 0) {
                dependency.put("name", "root");
            }
            ArrayNode templates = policy.putArray("policyTemplates");
            for (int t = 0; t < TEMPLATES; t++) {
                ObjectNode template = templates.addObject().put("name", "p" + p + "-t" + t).put("kind", "ConfigurationPolicy")
                        .put("applied", t % 2 == 0);
                ArrayNode extras = template.putArray("extraDependencies");
                extras.addObject().put("apiVersion", "v1").put("kind", "ConfigMap").put("name", "cm-" + p + "-" + t)
                        .put("namespace", "default").put("compliance", "Compliant");
                extras.addObject().put("apiVersion", "constraints.gatekeeper.sh/v1beta1").put("kind", "K8sRequiredLabels")
                        .put("name", "c-" + (p % 50)).put("compliance", "Compliant");
                observed.addObject().put("apiVersion", "policy.open-cluster-management.io/v1").put("kind", "ConfigurationPolicy")
                        .put("name", "p" + p + "-t" + t).put("namespace", "local-cluster").put("compliant", t == 3 ? "NonCompliant" : "Compliant");
                if ((p + t) % 3 != 0) {
                    observed.addObject().put("apiVersion", "v1").put("kind", "ConfigMap").put("name", "cm-" + p + "-" + t)
                            .put("namespace", "default").put("compliant", "Compliant");
                }
            }
            observed.addObject().put("apiVersion", "policy.open-cluster-management.io/v1").put("kind", "Policy")
                    .put("name", "ns.p" + p).put("namespace", "local-cluster").put("compliant", p % 7 == 0 ? "Pending" : "Compliant");
        }
        observed.addObject().put("apiVersion", "policy.open-cluster-management.io/v1").put("kind", "Policy")
                .put("name", "ns.root").put("namespace", "local-cluster").put("compliant", "Compliant");
        for (int c = 0; c < 50; c++) {
            observed.addObject().put("apiVersion", "constraints.gatekeeper.sh/v1beta1").put("kind", "K8sRequiredLabels")
                    .put("name", "c-" + c).put("totalViolations", c % 10 == 0 ? 1 : 0);
        }
        return body;
    }

    /** As the service decides it: in two partitions of 250 policies, gated in parallel. */
    @Benchmark
    public DependenciesDecision decide500x4x3() {
        return DependenciesDecider.decide(request, ruleBase);
    }

    /** The same request gated in one session, for comparison. */
    @Benchmark
    public DependenciesDecision decide500x4x3OneSession() {
        return DependenciesDecider.decide(request, ruleBase, 1);
    }
}
