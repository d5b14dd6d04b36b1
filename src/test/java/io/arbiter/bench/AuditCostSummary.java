package io.arbiter.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.document.Documents;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Summarises rounds of {@link AuditCostBenchmark} written by {@code bench/audit-cost.sh}: per round, each case's
 * median iteration throughput and the cost of auditing as the extra time per decision over that round's baseline;
 * then the median cost over all rounds. Medians, because on a shared two-core host single iterations stray by a third.
 */
public final class AuditCostSummary {

    private static final String BASELINE = "withoutRecordingOrLog";
    private static final List<String> AUDITED = List.of("withRecordingOnly", "withRecordingAndLog");

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println("usage: AuditCostSummary ROUND.json...   (JMH JSON results of AuditCostBenchmark)");
            System.exit(2);
        }
        List<List<Double>> costs = List.of(new ArrayList<>(), new ArrayList<>());
        for (String file : args) {
            JsonNode results = Documents.jsonMapper().readTree(Path.of(file).toFile());
            double baseline = medianOpsPerSecond(results, BASELINE, file);
            StringBuilder line = new StringBuilder(String.format("%s: %s %.0f ops/s", Path.of(file).getFileName(), BASELINE, baseline));
            for (int c = 0; c < AUDITED.size(); c++) {
                double audited = medianOpsPerSecond(results, AUDITED.get(c), file);
                double cost = baseline / audited - 1;
                costs.get(c).add(cost);
                line.append(String.format(", %s %.0f ops/s (%+.1f%%)", AUDITED.get(c), audited, 100 * cost));
            }
            System.out.println(line);
        }
        for (int c = 0; c < AUDITED.size(); c++) {
            System.out.printf("%s: median cost over %d rounds %+.1f%% of the time per decision%n", AUDITED.get(c),
                    args.length, 100 * median(costs.get(c)));
        }
    }

    private static double medianOpsPerSecond(JsonNode results, String benchmark, String file) {
        for (JsonNode result : results) {
            if (result.path("benchmark").asText().endsWith("." + benchmark)) {
                List<Double> iterations = new ArrayList<>();
                result.path("primaryMetric").path("rawData").forEach(fork -> fork.forEach(i -> iterations.add(i.asDouble())));
                return median(iterations);
            }
        }
        throw new IllegalArgumentException(file + ": no result for " + benchmark);
    }

    private static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
