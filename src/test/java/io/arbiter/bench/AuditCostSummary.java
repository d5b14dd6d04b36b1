package io.arbiter.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.document.Documents;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Summarises JMH results of what auditing costs, written by {@code bench/audit-cost.sh}. For
 * {@link AuditCostInterleavedBenchmark} (the script's default) and {@link AuditCostOverHttpBenchmark}: per fork, each audited case's time over the
 * baseline's, iteration by iteration (the three cases ran interleaved in each), and the median of those ratios over
 * all iterations of all forks. For rounds of {@link AuditCostBenchmark} (one fork per case per round): per round, each
 * case's median iteration throughput and the cost over that round's baseline; then the median cost over the rounds.
 * Medians, because on a shared two-core host single iterations stray by a third.
 */
public final class AuditCostSummary {

    private static final String BASELINE = "withoutRecordingOrLog";
    private static final List<String> AUDITED = List.of("withRecordingOnly", "withRecordingAndLog");

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println("usage: AuditCostSummary RESULT.json...   (JMH JSON results of AuditCostInterleavedBenchmark,"
                    + " AuditCostOverHttpBenchmark or AuditCostBenchmark)");
            System.exit(2);
        }
        List<List<Double>> costs = List.of(new ArrayList<>(), new ArrayList<>());
        for (String file : args) {
            JsonNode results = Documents.jsonMapper().readTree(Path.of(file).toFile());
            JsonNode interleaved = interleaved(results);
            if (interleaved != null) {
                summariseInterleaved(interleaved, file, costs);
            } else {
                summariseRound(results, file, costs);
            }
        }
        String over = args.length == 1 && costs.get(0).size() > 1 ? costs.get(0).size() + " iterations" : args.length + " results";
        for (int c = 0; c < AUDITED.size(); c++) {
            System.out.printf("%s: median cost over %s %+.1f%% of the time per decision%n", AUDITED.get(c),
                    over, 100 * median(costs.get(c)));
        }
    }

    /** Per fork: each iteration's ratio of an audited case's time to the baseline's, in the same iteration. */
    private static void summariseInterleaved(JsonNode result, String file, List<List<Double>> costs) {
        JsonNode metrics = result.path("secondaryMetrics");
        JsonNode baseline = metrics.path(BASELINE + "Nanos").path("rawData");
        if (baseline.isMissingNode()) {
            throw new IllegalArgumentException(file + ": no counter " + BASELINE + "Nanos");
        }
        for (int fork = 0; fork < baseline.size(); fork++) {
            StringBuilder line = new StringBuilder(String.format("%s fork %d:", Path.of(file).getFileName(), fork + 1));
            for (int c = 0; c < AUDITED.size(); c++) {
                JsonNode audited = metrics.path(AUDITED.get(c) + "Nanos").path("rawData").path(fork);
                List<Double> forkCosts = new ArrayList<>();
                for (int i = 0; i < baseline.get(fork).size(); i++) {
                    forkCosts.add(audited.get(i).asDouble() / baseline.get(fork).get(i).asDouble() - 1);
                }
                costs.get(c).addAll(forkCosts);
                line.append(String.format(" %s %+.1f%% (median of %d iterations)", AUDITED.get(c),
                        100 * median(forkCosts), forkCosts.size()));
            }
            System.out.println(line);
        }
    }

    private static void summariseRound(JsonNode results, String file, List<List<Double>> costs) {
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

    /** A result of a benchmark that runs the cases interleaved and counts each case's time (in-process or over HTTP). */
    private static JsonNode interleaved(JsonNode results) {
        for (JsonNode result : results) {
            if (result.path("secondaryMetrics").has(BASELINE + "Nanos")) {
                return result;
            }
        }
        return null;
    }

    private static JsonNode result(JsonNode results, String benchmark) {
        for (JsonNode result : results) {
            if (result.path("benchmark").asText().endsWith("." + benchmark)) {
                return result;
            }
        }
        return null;
    }

    private static double medianOpsPerSecond(JsonNode results, String benchmark, String file) {
        JsonNode result = result(results, benchmark);
        if (result == null) {
            throw new IllegalArgumentException(file + ": no result for " + benchmark);
        }
        List<Double> iterations = new ArrayList<>();
        result.path("primaryMetric").path("rawData").forEach(fork -> fork.forEach(i -> iterations.add(i.asDouble())));
        return median(iterations);
    }

    private static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
