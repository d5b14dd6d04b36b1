package io.arbiter.bench;

import io.arbiter.decision.Settings;
import io.arbiter.decision.Snapshot;
import io.arbiter.decision.implementation.ImplementationDecider;
import io.arbiter.decision.implementation.ImplementationPolicyType;
import io.arbiter.decision.implementation.ImplementationRequest;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.engine.RuleBaseBuilder;
import io.arbiter.model.Ref;
import io.arbiter.policy.Policy;
import io.arbiter.policy.PolicyDocument;
import io.arbiter.policy.PolicyParser;
import io.arbiter.testing.Fixtures;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Does a decision's cost follow its request or the catalog? The same request, an Interface with an Action policy
 * that asks for one Implementation by path, decided (in process, without the runtime's memo) on the embedded default
 * and on the embedded default with {@link BenchData}'s 1,000 Implementations of 50 other Interfaces and its 100-rule
 * policy for them added, in alternating turns in one JVM.
 * Prints each case's median microseconds per decision over the turns and their ratio.
 *
 * <pre>bash bench/run.sh -l &amp;&amp; java -XX:+UseParallelGC -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" io.arbiter.bench.CatalogScaling [ROUNDS]</pre>
 */
public final class CatalogScaling {

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        Snapshot embedded = Fixtures.snapshot(Fixtures.embeddedPolicy());
        ImplementationRequest embeddedRequest = actionRequest("cap.interface.database.postgresql.install", "0.1.0",
                "cap.implementation.bitnami.postgresql.install");

        // the embedded default's Implementations beside 1,000 others (50 other Interfaces), under a policy of 100
        // rules for those Interfaces and the same cap.* rule: nothing the request concerns differs
        List<io.arbiter.model.Implementation> implementations = new ArrayList<>(embedded.catalog().implementations());
        implementations.addAll(BenchData.catalog().implementations());
        PolicyDocument policy = PolicyParser.parse(BenchData.policyYaml().getBytes(StandardCharsets.UTF_8), "application/yaml");
        Snapshot large = new Snapshot(policy, embedded.ruleBases(), embedded.catalog().withImplementations(implementations),
                embedded.typeInstances(), Settings.DEFAULT_PLATFORM);
        ImplementationRequest largeRequest = embeddedRequest;
        System.out.println("embedded: " + describe(ImplementationDecider.decide(embeddedRequest, embedded)));
        System.out.println("1,000 Implementations: " + describe(ImplementationDecider.decide(largeRequest, large)));
        if (System.getenv("FIRINGS") != null) {
            java.util.Map<String, Long> byRule = new java.util.TreeMap<>();
            ImplementationDecider.decide(largeRequest, large).firedRules().forEach(f -> byRule.merge(f.rule(), 1L, Long::sum));
            byRule.forEach((rule, n) -> System.out.println(n + " " + rule));
            return;
        }

        List<Double> small = new ArrayList<>();
        List<Double> big = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            boolean smallFirst = round % 2 == 0;
            double a = smallFirst ? turn(embeddedRequest, embedded) : turn(largeRequest, large);
            double b = smallFirst ? turn(largeRequest, large) : turn(embeddedRequest, embedded);
            if (round >= rounds / 3) { // the first third warms up
                small.add(smallFirst ? a : b);
                big.add(smallFirst ? b : a);
            }
        }
        double s = median(small);
        double l = median(big);
        System.out.printf("embedded %.1f us, 1,000 Implementations %.1f us, ratio %.2f%n", s, l, l / s);
    }

    private static String describe(io.arbiter.decision.implementation.ImplementationDecision decision) {
        return decision.outcome() + " " + decision.selected() + ", " + decision.firedRules().size() + " firings";
    }

    /** Microseconds per decision over a turn of 1 s. */
    private static double turn(ImplementationRequest request, Snapshot snapshot) {
        long start = System.nanoTime();
        long end = start + 1_000_000_000L;
        int decided = 0;
        long now;
        do {
            ImplementationDecider.decide(request, snapshot);
            decided++;
            now = System.nanoTime();
        } while (now < end);
        return (now - start) / 1_000.0 / decided;
    }

    private static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted[sorted.length / 2];
    }

    private static ImplementationRequest actionRequest(String iface, String revision, String implementation) {
        Policy action = PolicyParser.parse(("interface:\n  rules:\n    - interface: {path: " + iface + "}\n      oneOf:\n"
                + "        - implementationConstraints: {path: " + implementation + "}\n").getBytes(StandardCharsets.UTF_8),
                "application/yaml").policy();
        return new ImplementationRequest(new Ref(iface, revision), action, List.of(), null, null, false);
    }

    private CatalogScaling() {
    }
}
