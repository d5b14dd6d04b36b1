package io.arbiter.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.audit.DecisionLogReader;
import io.arbiter.decision.Settings;
import io.arbiter.decision.Snapshot;
import io.arbiter.document.Documents;
import io.arbiter.impact.ImpactAnalysis;
import io.arbiter.impact.ImpactReport;
import io.arbiter.impact.Probe;
import io.arbiter.impact.Probes;
import io.arbiter.policy.PolicyDocument;
import io.arbiter.policy.PolicyParser;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.runtime.Decisions;
import io.arbiter.runtime.SnapshotLoader;

import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The impact target of issue 27: a candidate global policy against the live one over the 1,000-Implementation
 * catalog (a sweep) plus a decision log of N replayed decisions of all four kinds. Timed from the candidate policy
 * to the report: deriving the candidate snapshot, reading the log, deciding every distinct request under both.
 * <p>
 * {@code bash bench/impact.sh [replays=10000] [distinct|repeated]}: {@code distinct} makes every logged request
 * differ (the worst case: nothing is decided once for several); {@code repeated} repeats 20 variants of each shape,
 * as a rendering engine's log does. Mix: 50% Interface-only, 20% with an Action policy (an Interface rule that joins
 * the global one, with parameters), 10% each backend, dependencies, rollout.
 */
public final class ImpactRun {

    private ImpactRun() {
    }

    public static void main(String[] args) throws Exception {
        int replays = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        boolean distinct = args.length < 2 || args[1].equals("distinct");
        PolicyTypeRegistry registry = PolicyTypeRegistry.discover();
        Snapshot embedded = SnapshotLoader.load(Settings.embedded(), registry);
        Snapshot live = java.util.Objects.requireNonNull(new Snapshot(parse(BenchData.policyYaml()), embedded.ruleBases(),
                BenchData.catalog(), BenchData.typeInstances(), Settings.DEFAULT_PLATFORM));
        Path log = Files.createTempFile("impact-bench", ".log");
        writeLog(log, replays, distinct);
        String candidatePolicy = BenchData.policyYaml().replace("cloud.provider.aws", "cloud.provider.gcp");
        System.out.printf("catalog %d Implementations, log %d decisions (%s, %d KiB)%n",
                live.catalog().implementations().size(), replays, distinct ? "distinct" : "repeated", Files.size(log) / 1024);
        System.out.println("run   total-ms  derive-ms  read-ms  decide-ms  decisions  distinct  changed  refired");
        for (int run = 1; run <= 5; run++) {
            long started = System.nanoTime();
            Snapshot candidate = java.util.Objects.requireNonNull(live.withPolicy(parse(candidatePolicy)));
            long derived = System.nanoTime();
            List<Probe> probes = new ArrayList<>(Probes.sweep(live.catalog(), candidate.catalog()));
            List<String> skipped = new ArrayList<>();
            new DecisionLogReader(List.of(log), unreadable -> skipped.add(unreadable.toString())).forEach(record -> probes.add(Probes.replay(record)));
            long read = System.nanoTime();
            int[] distinctCount = new int[1];
            ImpactReport report = ImpactAnalysis.run(new Decisions(registry, live), new Decisions(registry, candidate), probes,
                    skipped, 100, (done, total) -> distinctCount[0] = total);
            long decided = System.nanoTime();
            System.out.printf("%3d %10.0f %10.0f %8.0f %10.0f %10d %9d %8d %8d%n", run, ms(decided - started), ms(derived - started),
                    ms(read - derived), ms(decided - read), report.decisions(), distinctCount[0], report.changed(), report.refired());
            if (!skipped.isEmpty()) {
                throw new IllegalStateException("skipped: " + skipped.subList(0, Math.min(3, skipped.size())));
            }
        }
        Files.delete(log);
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    private static PolicyDocument parse(String yaml) {
        return PolicyParser.parse(yaml.getBytes(StandardCharsets.UTF_8), "application/yaml");
    }

    /** A decision log as serve writes it, but for the fields replay reads: id, endpoint, request. */
    private static void writeLog(Path log, int replays, boolean distinct) throws Exception {
        JsonNode dependencies = scenarioRequest("300-met-policy-dependency-applies-template.yaml");
        JsonNode rollout = scenarioRequest("490-docs-api-rollout-example.yaml");
        try (BufferedWriter out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
            for (int i = 0; i < replays; i++) {
                int variant = distinct ? i : i % 20;
                String endpoint;
                JsonNode request;
                switch (i % 10) {
                    case 0, 1, 2, 3, 4 -> {
                        endpoint = "implementation";
                        request = Documents.jsonMapper().readTree("{\"interface\": {\"path\": \"" + BenchData.interfacePath(i % BenchData.INTERFACES)
                                + "\", \"revision\": \"" + BenchData.INTERFACE_REVISION + "\"}}");
                    }
                    case 5, 6 -> {
                        endpoint = "implementation";
                        int iface = 3 * (i % 15) + 1;
                        String action = BenchData.actionPolicyYaml(iface).replace("replicas: 3", "replicas: " + variant);
                        ObjectNode withPolicy = Documents.jsonMapper().createObjectNode();
                        withPolicy.putObject("interface").put("path", BenchData.interfacePath(iface)).put("revision", BenchData.INTERFACE_REVISION);
                        withPolicy.set("actionPolicy", Documents.parseYaml(action.getBytes(StandardCharsets.UTF_8)).tree());
                        request = withPolicy;
                    }
                    case 7 -> {
                        endpoint = "backend";
                        request = Documents.jsonMapper().readTree("{\"typeRefs\": [{\"path\": \"cap.type.aws.auth.credentials\", \"revision\": \"0.1.0\"},"
                                + " {\"path\": \"cap.type.bench.t" + variant + "\", \"revision\": \"0.1.0\"}]}");
                    }
                    case 8 -> {
                        endpoint = "dependencies";
                        ObjectNode copy = dependencies.deepCopy();
                        ((ObjectNode) copy.path("policies").path(0)).put("name", "app-" + variant);
                        request = copy;
                    }
                    default -> {
                        endpoint = "rollout";
                        ObjectNode copy = rollout.deepCopy();
                        copy.put("now", java.time.Instant.parse("2026-01-01T00:10:00Z").plusSeconds(variant % 300).toString());
                        request = copy;
                    }
                }
                ObjectNode record = Documents.jsonMapper().createObjectNode();
                record.put("decisionId", "r" + i);
                record.put("endpoint", endpoint);
                record.set("request", request);
                out.write(Documents.jsonMapper().writeValueAsString(record));
                out.newLine();
            }
        }
    }

    private static JsonNode scenarioRequest(String name) throws Exception {
        return Documents.parseYaml(Files.readAllBytes(Path.of("fixtures/scenarios", name))).tree().path("request");
    }
}
