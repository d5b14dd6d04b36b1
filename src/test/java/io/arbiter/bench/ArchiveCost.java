package io.arbiter.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.archive.Replay;
import io.arbiter.archive.SnapshotArchive;
import io.arbiter.audit.Audit;
import io.arbiter.audit.DecisionLog;
import io.arbiter.audit.DecisionLogReader;
import io.arbiter.audit.FileDecisionLog;
import io.arbiter.audit.Metrics;
import io.arbiter.audit.RecentDecisions;
import io.arbiter.decision.Settings;
import io.arbiter.decision.Snapshot;
import io.arbiter.policy.PolicyParser;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.runtime.Decisions;
import io.arbiter.runtime.SnapshotLoader;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What the snapshot archive costs ({@code bash bench/archive-cost.sh [rounds]}): its size on disk and the time to
 * write a snapshot (first, and after a policy-only change, which adds one policy part), for the embedded default and
 * the 1,000-Implementation catalog of {@link BenchData}; and the time to replay one logged decision (load the
 * archived snapshot, rebuild its rule bases, decide, compare). Medians of {@code rounds} runs, in milliseconds.
 */
public final class ArchiveCost {

    private ArchiveCost() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        PolicyTypeRegistry registry = PolicyTypeRegistry.discover();
        Snapshot embedded = SnapshotLoader.load(Settings.embedded(), registry);
        Snapshot bench = java.util.Objects.requireNonNull(new Snapshot(
                PolicyParser.parse(BenchData.policyYaml().getBytes(StandardCharsets.UTF_8), "application/yaml"),
                embedded.ruleBases(), BenchData.catalog(), BenchData.typeInstances(), Settings.DEFAULT_PLATFORM, List.of()));
        measure("embedded default", embedded, registry, rounds,
                "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\"}}");
        measure("1,000 Implementations", bench, registry, rounds,
                "{\"interface\": {\"path\": \"" + BenchData.interfacePath(3) + "\", \"revision\": \"0.1.0\"}}");
        System.exit(0);
    }

    private static void measure(String name, Snapshot snapshot, PolicyTypeRegistry registry, int rounds, String request)
            throws Exception {
        // the same snapshot with one more policy rule: what a PUT /v1/policy archives
        Snapshot changed = java.util.Objects.requireNonNull(snapshot.withPolicy(PolicyParser.parse(
                io.arbiter.document.Documents.jsonMapper().writeValueAsBytes(withExtraRule(snapshot.policy().source())),
                "application/json")));
        List<Double> first = new ArrayList<>();
        List<Double> policyOnly = new ArrayList<>();
        List<Double> replay = new ArrayList<>();
        List<Double> restore = new ArrayList<>();
        Map<String, Long> sizes = null;
        long added = 0;
        boolean identical = true;
        for (int round = 0; round < rounds; round++) {
            Path dir = Files.createTempDirectory("archive-cost");
            SnapshotArchive archive = SnapshotArchive.at(dir, SnapshotArchive.DEFAULT_KEEP);
            long started = System.nanoTime();
            archive.write(snapshot, Instant.now());
            first.add(millis(started));
            sizes = sizes(dir);
            long before = sizes.values().stream().mapToLong(Long::longValue).sum();
            started = System.nanoTime();
            archive.write(changed, Instant.now());
            policyOnly.add(millis(started));
            added = sizes(dir).values().stream().mapToLong(Long::longValue).sum() - before;

            Path log = dir.resolve("decisions.log");
            Audit audit = new Audit(new FileDecisionLog(log, 1 << 26, 1, 100, DecisionLog.Mode.REQUIRED),
                    new RecentDecisions(10), new Metrics(), false);
            String id = new Decisions(registry, snapshot, audit).decide("implementation",
                    request.getBytes(StandardCharsets.UTF_8), "application/json").path("decisionId").asText();
            audit.close();
            JsonNode record = new DecisionLogReader(List.of(log), line -> { }).find(id).orElseThrow();
            started = System.nanoTime();
            Replay.Report report = Replay.replay(record, archive, registry);
            replay.add(millis(started));
            identical &= report.identical();
            started = System.nanoTime();
            archive.restore(archive.manifest(snapshot.revision()).orElseThrow(), registry);
            restore.add(millis(started));
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Collections.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
        System.out.printf("%s: archive %s bytes (%d in all); first write %.0f ms, policy-only change %.0f ms (+%d bytes); "
                        + "replay of one decision %.0f ms (identical: %s); loading the snapshot back alone %.0f ms; medians of %d%n",
                name, sizes, sizes.values().stream().mapToLong(Long::longValue).sum(), median(first), median(policyOnly),
                added, median(replay), identical, median(restore), rounds);
    }

    private static JsonNode withExtraRule(JsonNode policy) {
        com.fasterxml.jackson.databind.node.ObjectNode copy = policy.deepCopy();
        com.fasterxml.jackson.databind.node.ObjectNode iface = (com.fasterxml.jackson.databind.node.ObjectNode) copy.path("interface");
        ((com.fasterxml.jackson.databind.node.ArrayNode) iface.path("rules")).add(io.arbiter.document.Documents.jsonMapper()
                .createObjectNode().<com.fasterxml.jackson.databind.node.ObjectNode>set("interface",
                        io.arbiter.document.Documents.jsonMapper().createObjectNode().put("path", "cap.interface.bench.extra"))
                .set("oneOf", io.arbiter.document.Documents.jsonMapper().createArrayNode()));
        return copy;
    }

    private static Map<String, Long> sizes(Path dir) throws Exception {
        Map<String, Long> sizes = new java.util.TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                String folder = dir.relativize(file).getParent().getFileName().toString();
                sizes.merge(folder, Files.size(file), Long::sum);
            }
        }
        return sizes;
    }

    private static double millis(long started) {
        return (System.nanoTime() - started) / 1e6;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}
