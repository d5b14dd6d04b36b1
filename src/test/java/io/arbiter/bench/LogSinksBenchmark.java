package io.arbiter.bench;

import io.arbiter.audit.Audit;
import io.arbiter.audit.DecisionLog;
import io.arbiter.audit.DecisionLogUnavailableException;
import io.arbiter.audit.FileDecisionLog;
import io.arbiter.audit.KafkaDecisionLog;
import io.arbiter.audit.KafkaSinkSettings;
import io.arbiter.audit.Metrics;
import io.arbiter.audit.QueuedDecisionLog;
import io.arbiter.audit.RecentDecisions;
import io.arbiter.runtime.Decisions;
import io.arbiter.decision.Snapshot;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.testing.Fixtures;
import io.arbiter.testing.KafkaBroker;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Decisions per second with each decision-log sink, in one JVM against one real single-node Kafka broker (a child
 * process on the same machine): the file sink and the Kafka sink, in REQUIRED and BEST_EFFORT mode, take turns of
 * SECONDS each in rotating order, ROUNDS times, THREADS deciding at once (the service's worker threads). Prints each
 * turn, then per case the median decisions/s and the median ratio to the file sink of the same mode and round.
 * Run by {@code bash bench/log-sinks.sh [SECONDS] [ROUNDS] [THREADS]}.
 */
public final class LogSinksBenchmark {

    private static final byte[] REQUEST = "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\"}}"
            .getBytes(StandardCharsets.UTF_8);

    private record Result(long decided, long refused, long dropped, long written) {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        Path folder = Files.createTempDirectory("arbiter-log-sinks-");
        Snapshot snapshot = Fixtures.snapshot(Fixtures.embeddedPolicy());
        PolicyTypeRegistry registry = PolicyTypeRegistry.discover();
        try (KafkaBroker broker = KafkaBroker.start(folder.resolve("broker"), List.of("-Xmx512m", "-XX:+UseParallelGC"))) {
            broker.createTopic("decisions", 3);
            Path properties = folder.resolve("kafka.properties");
            Files.writeString(properties, "bootstrap.servers=" + broker.bootstrap() + "\narbiter.topic=decisions\n");
            KafkaSinkSettings kafka = KafkaSinkSettings.load(properties);
            Map<String, Supplier<DecisionLog>> cases = new LinkedHashMap<>();
            for (DecisionLog.Mode mode : DecisionLog.Mode.values()) {
                cases.put("file " + mode, () -> new FileDecisionLog(folder.resolve("decisions.log"), 256L << 20, 2,
                        8_192, QueuedDecisionLog.DEFAULT_BUFFER_BYTES, mode));
                cases.put("kafka " + mode, () -> new KafkaDecisionLog(kafka, 8_192, QueuedDecisionLog.DEFAULT_BUFFER_BYTES, mode));
            }
            List<String> names = new ArrayList<>(cases.keySet());
            Map<String, List<Double>> rates = new LinkedHashMap<>();
            Map<String, List<Double>> ratios = new LinkedHashMap<>();
            System.out.printf("%d s turns, %d rounds (and one warm-up round), %d deciding threads, broker at %s%n",
                    seconds, rounds, threads, broker.bootstrap());
            for (int round = 0; round <= rounds; round++) {
                Map<String, Double> thisRound = new LinkedHashMap<>();
                for (int i = 0; i < names.size(); i++) {
                    String name = names.get((i + round) % names.size());
                    Result result = turn(registry, snapshot, cases.get(name), seconds, threads);
                    double rate = result.decided / (double) seconds;
                    System.out.printf("round %d %-18s %8.0f decisions/s  refused %d  dropped %d  written %d%n",
                            round, name, rate, result.refused, result.dropped, result.written);
                    thisRound.put(name, rate);
                }
                if (round == 0) {
                    continue;
                }
                thisRound.forEach((name, rate) -> rates.computeIfAbsent(name, key -> new ArrayList<>()).add(rate));
                for (DecisionLog.Mode mode : DecisionLog.Mode.values()) {
                    ratios.computeIfAbsent("kafka/file " + mode, key -> new ArrayList<>())
                            .add(thisRound.get("kafka " + mode) / thisRound.get("file " + mode));
                }
            }
            System.out.println("median over rounds:");
            rates.forEach((name, list) -> System.out.printf("  %-18s %8.0f decisions/s%n", name, median(list)));
            ratios.forEach((name, list) -> System.out.printf("  %-18s %8.2f (per round: %s)%n", name, median(list),
                    list.stream().map(ratio -> String.format("%.2f", ratio)).toList()));
        } finally {
            try (var paths = Files.walk(folder)) {
                paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    /** THREADS threads decide for SECONDS through a log of its own; its records are all written before it returns. */
    private static Result turn(PolicyTypeRegistry registry, Snapshot snapshot, Supplier<DecisionLog> logs, int seconds,
                               int threads) throws InterruptedException {
        DecisionLog log = logs.get();
        Audit audit = new Audit(log, new RecentDecisions(1_000), new Metrics(), false);
        Decisions decisions = new Decisions(registry, snapshot, audit);
        LongAdder decided = new LongAdder();
        LongAdder refused = new LongAdder();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch finished = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        try {
                            decisions.decide("implementation", REQUEST, "application/json");
                            decided.increment();
                        } catch (DecisionLogUnavailableException e) {
                            refused.increment();
                        }
                    }
                } finally {
                    finished.countDown();
                }
            });
            thread.start();
        }
        Thread.sleep(seconds * 1000L);
        stop.set(true);
        finished.await();
        long dropped = log.dropped();
        audit.close();
        return new Result(decided.sum(), refused.sum(), dropped, log.written());
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
