package io.arbiter.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.document.Documents;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Summarises JMH results of what auditing costs, written by {@code bench/audit-cost.sh}. For
 * {@link AuditCostInterleavedBenchmark} (the script's default) and {@link AuditCostOverHttpBenchmark}: per fork, each audited case's time over the
 * baseline's, iteration by iteration (the three cases ran interleaved in each), and the median of those ratios over
 * all iterations of all forks. For rounds of {@link AuditCostBenchmark} (one fork per case per round): per round, each
 * case's median iteration throughput and the cost over that round's baseline; then the median cost over the rounds.
 * Medians, because on a shared two-core host single iterations stray by a third. Each median comes with a 95%
 * bootstrap interval that resamples forks (or rounds) and then iterations within them: forks of the same code
 * differ by several points here (each compiles the code its own way), so a difference within that interval is not one.
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
        // per audited case, per fork (or round): the costs of its iterations
        List<List<List<Double>>> costs = List.of(new ArrayList<>(), new ArrayList<>());
        for (String file : args) {
            JsonNode results = Documents.jsonMapper().readTree(Path.of(file).toFile());
            JsonNode interleaved = interleaved(results);
            if (interleaved != null) {
                summariseInterleaved(interleaved, file, costs);
            } else {
                summariseRound(results, file, costs);
            }
        }
        int values = costs.get(0).stream().mapToInt(List::size).sum();
        String over = args.length == 1 && values > 1 ? values + " iterations" : args.length + " results";
        for (int c = 0; c < AUDITED.size(); c++) {
            double[] interval = bootstrapInterval(costs.get(c), new Random(BOOTSTRAP_SEED));
            System.out.printf("%s: median cost over %s %+.1f%% of the time per decision (95%% interval %+.1f to %+.1f%%,"
                            + " resampling %d forks or rounds, then their iterations)%n", AUDITED.get(c), over,
                    100 * median(flatten(costs.get(c))), 100 * interval[0], 100 * interval[1], costs.get(c).size());
        }
    }

    private static final int BOOTSTRAP_SAMPLES = 10_000;
    /** Fixed, so the same results always print the same interval. */
    private static final long BOOTSTRAP_SEED = 20261124L;

    /**
     * The 2.5th and 97.5th percentiles of the pooled median over resampled data: forks drawn with replacement, then
     * each drawn fork's iterations drawn with replacement. With two or three forks the interval is wide, as it should be.
     */
    static double[] bootstrapInterval(List<List<Double>> forks, Random random) {
        double[] medians = new double[BOOTSTRAP_SAMPLES];
        for (int sample = 0; sample < BOOTSTRAP_SAMPLES; sample++) {
            List<Double> drawn = new ArrayList<>();
            for (int f = 0; f < forks.size(); f++) {
                List<Double> fork = forks.get(random.nextInt(forks.size()));
                for (int i = 0; i < fork.size(); i++) {
                    drawn.add(fork.get(random.nextInt(fork.size())));
                }
            }
            medians[sample] = median(drawn);
        }
        Arrays.sort(medians);
        return new double[]{medians[(int) (0.025 * BOOTSTRAP_SAMPLES)], medians[(int) (0.975 * BOOTSTRAP_SAMPLES) - 1]};
    }

    private static List<Double> flatten(List<List<Double>> forks) {
        return forks.stream().flatMap(List::stream).toList();
    }

    /** Per fork: each iteration's ratio of an audited case's time to the baseline's, in the same iteration. */
    private static void summariseInterleaved(JsonNode result, String file, List<List<List<Double>>> costs) {
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
                costs.get(c).add(forkCosts);
                line.append(String.format(" %s %+.1f%% (median of %d iterations)", AUDITED.get(c),
                        100 * median(forkCosts), forkCosts.size()));
            }
            System.out.println(line);
        }
    }

    private static void summariseRound(JsonNode results, String file, List<List<List<Double>>> costs) {
        double baseline = medianOpsPerSecond(results, BASELINE, file);
        StringBuilder line = new StringBuilder(String.format("%s: %s %.0f ops/s", Path.of(file).getFileName(), BASELINE, baseline));
        for (int c = 0; c < AUDITED.size(); c++) {
            double audited = medianOpsPerSecond(results, AUDITED.get(c), file);
            double cost = baseline / audited - 1;
            costs.get(c).add(List.of(cost));
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

    static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
