package io.arbiter.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.decision.rollout.RolloutDecider;
import io.arbiter.decision.rollout.RolloutDecision;
import io.arbiter.decision.rollout.RolloutRequest;
import io.arbiter.document.Documents;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.testing.RuleTestSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Latency of ONE rollout decision (issue 8) over 5,000 clusters in 50 decision groups of 100, parsing included.
 * Cases:
 * <ul>
 *   <li>{@code perGroupMidway}: ProgressivePerGroup, maxFailures 10%, deadline 10m, soak 5m; groups 0-24 succeeded,
 *       group 25 half way (50 Progressing, 30 Succeeded of which 10 soaking, 5 Failed past the deadline, 15 without
 *       a record), groups 26-49 without records;</li>
 *   <li>{@code progressiveMidway}: Progressive, maxConcurrency 10%, maxFailures 5%, mandatory group 0, the same
 *       records;</li>
 *   <li>{@code allRecorded}: All, every cluster with a record (Succeeded, Progressing, Failed, ToApply in turn);</li>
 *   <li>{@code allFresh}: All, no records: every cluster rolled out at once.</li>
 * </ul>
 * Run with {@code bash bench/run.sh RolloutBenchmark} from the project root.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = BenchData.AS_DEPLOYED)
@Warmup(iterations = 8, time = 2)
@Measurement(iterations = 5, time = 2)
@State(Scope.Benchmark)
public class RolloutBenchmark {

    static final int GROUPS = 50;
    static final int PER_GROUP = 100;
    static final String NOW = "2026-01-01T01:00:00Z";

    @Param({"perGroupMidway", "progressiveMidway", "allRecorded", "allFresh"})
    public String scenario;

    private CompiledRuleBase ruleBase;
    private JsonNode request;

    @Setup
    public void setup() {
        ruleBase = RuleTestSupport.ruleBase(RolloutDecider.KIND, RolloutDecider.PHASES);
        request = request(scenario);
        RolloutDecision check = decide();
        if (check.clusterStatuses().size() != GROUPS * PER_GROUP || check.toRollout().isEmpty()) {
            throw new IllegalStateException("unexpected benchmark decision: " + check.toRollout().size() + " to roll out");
        }
    }

    @Benchmark
    public RolloutDecision decide() {
        return RolloutDecider.decide(RolloutRequest.parse(request), ruleBase);
    }

    static JsonNode request(String scenario) {
        ObjectNode body = Documents.jsonMapper().createObjectNode();
        body.put("remediationAction", "enforce").put("now", NOW);
        ObjectNode strategy = body.putObject("strategy");
        switch (scenario) {
            case "perGroupMidway" -> strategy.put("type", "ProgressivePerGroup").putObject("progressivePerGroup")
                    .put("maxFailures", "10%").put("progressDeadline", "10m").put("minSuccessTime", "5m");
            case "progressiveMidway" -> {
                ObjectNode progressive = strategy.put("type", "Progressive").putObject("progressive")
                        .put("maxConcurrency", "10%").put("maxFailures", "5%").put("progressDeadline", "10m")
                        .put("minSuccessTime", "5m");
                progressive.putArray("mandatoryDecisionGroups").addObject().put("groupIndex", 0);
            }
            default -> strategy.put("type", "All").putObject("all").put("progressDeadline", "10m");
        }
        ArrayNode groups = body.putArray("decisionGroups");
        ArrayNode clusters = body.putArray("clusters");
        for (int g = 0; g < GROUPS; g++) {
            ObjectNode group = groups.addObject().put("groupName", "g" + g).put("groupIndex", g);
            ArrayNode names = group.putArray("clusters");
            for (int c = 0; c < PER_GROUP; c++) {
                String name = String.format("cluster-%02d-%03d", g, c);
                names.add(name);
                record(scenario, g, c, name, clusters);
            }
        }
        return body;
    }

    private static void record(String scenario, int group, int index, String name, ArrayNode clusters) {
        if (scenario.equals("allFresh")) {
            return;
        }
        if (scenario.equals("allRecorded")) {
            String[] statuses = {"Succeeded", "Progressing", "Failed", "ToApply"};
            clusters.addObject().put("name", name).put("status", statuses[index % 4])
                    .put("lastTransitionTime", "2026-01-01T00:55:00Z");
            return;
        }
        if (group < 25) {
            clusters.addObject().put("name", name).put("status", "Succeeded").put("lastTransitionTime", "2026-01-01T00:30:00Z");
        } else if (group == 25 && index < 50) {
            clusters.addObject().put("name", name).put("status", "Progressing").put("lastTransitionTime", "2026-01-01T00:55:00Z");
        } else if (group == 25 && index < 80) {
            clusters.addObject().put("name", name).put("status", "Succeeded")
                    .put("lastTransitionTime", index < 60 ? "2026-01-01T00:58:00Z" : "2026-01-01T00:40:00Z");
        } else if (group == 25 && index < 85) {
            clusters.addObject().put("name", name).put("status", "Failed").put("lastTransitionTime", "2026-01-01T00:45:00Z");
        }
    }
}
