package io.arbiter.bench;

import io.arbiter.audit.Audit;
import io.arbiter.audit.DecisionLog;
import io.arbiter.audit.KafkaDecisionLog;
import io.arbiter.audit.KafkaSinkSettings;
import io.arbiter.audit.Metrics;
import io.arbiter.audit.RecentDecisions;
import io.arbiter.decision.Snapshot;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.runtime.Decisions;
import io.arbiter.testing.Fixtures;
import io.arbiter.testing.KafkaBroker;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Bytes per decision on the wire with the Kafka sink (issue 46): the same four typical decisions of the embedded
 * default (an Interface-only implementation request, one with an action policy, a backend request and a dependencies
 * request), in turn, through a real {@link KafkaDecisionLog} to a real single-node broker, for each
 * {@code compression.type}: lz4 (the sink's default), zstd and none, and lz4 with a {@code batch.size} of 256 KiB
 * rather than the producer's 16 KiB, under two loads. {@code busy}: DECISIONS
 * decisions from one thread as fast as it decides (BEST_EFFORT, a queue that holds them all), so the writer sends full
 * batches; {@code one by one}: ONE_BY_ONE decisions in REQUIRED mode, each waiting for its record, so every batch holds
 * one record. Per decision it prints the record (the message's value, the JSON object the file sink writes as a line
 * less its line end, read back from the topic), what the producer put in record batches for the topic
 * ({@code producer-topic-metrics byte-total}), what the topic's log segments on the broker grew by, and everything the
 * producer sent ({@code producer-metrics outgoing-byte-total}: request headers, metadata and the producer-id request
 * included). Run by {@code bash bench/kafka-bytes.sh [DECISIONS] [ONE_BY_ONE]}.
 */
public final class KafkaWireBytes {

    /** The four typical decisions, also measured by {@link RecordBytes}. */
    static final List<Map.Entry<String, String>> REQUESTS = List.of(
            Map.entry("implementation", """
                    {"interface": {"path": "cap.interface.database.postgresql.install"}}"""),
            Map.entry("implementation", """
                    {"interface": {"path": "cap.interface.database.postgresql.install", "revision": "0.1.0"},
                     "actionPolicy": {"interface": {"rules": [{"interface": {"path": "cap.interface.database.postgresql.install"},
                       "oneOf": [{"implementationConstraints": {"path": "cap.implementation.bitnami.postgresql.install"}}]}]}}}"""),
            Map.entry("backend", """
                    {"typeRefs": [{"path": "cap.type.helm.release.storage", "revision": "0.1.0"},
                                  {"path": "cap.type.aws.auth.credentials", "revision": "0.1.0"}]}"""),
            Map.entry("dependencies", """
                    {"clusterNamespace": "local-cluster",
                     "policies": [{"name": "app", "namespace": "policies",
                       "dependencies": [{"apiVersion": "policy.open-cluster-management.io/v1", "kind": "Policy",
                                         "name": "setup", "compliance": "Compliant"}],
                       "policyTemplates": [{"name": "app-config", "kind": "ConfigurationPolicy", "applied": true}]}],
                     "policySets": [{"name": "all", "namespace": "policies", "policies": ["app"]}],
                     "observed": [{"apiVersion": "policy.open-cluster-management.io/v1", "kind": "Policy",
                                   "name": "policies.setup", "namespace": "local-cluster", "compliant": "NonCompliant"}]}"""));

    public static void main(String[] args) throws Exception {
        int busy = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int oneByOne = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
        Path folder = Files.createTempDirectory("arbiter-kafka-bytes-");
        Snapshot snapshot = Fixtures.snapshot(Fixtures.embeddedPolicy());
        PolicyTypeRegistry registry = PolicyTypeRegistry.discover();
        List<Map.Entry<String, byte[]>> requests = REQUESTS.stream()
                .map(e -> Map.entry(e.getKey(), e.getValue().getBytes(StandardCharsets.UTF_8))).toList();
        try (KafkaBroker broker = KafkaBroker.start(folder.resolve("broker"), List.of("-Xmx512m", "-XX:+UseParallelGC"))) {
            System.out.printf("load average %.2f on %d cores; 3 partitions, keyed by decision id%n",
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                    Runtime.getRuntime().availableProcessors());
            System.out.printf("%-8s %-10s %9s %10s %10s %10s %10s %8s %10s%n", "codec", "load", "decisions",
                    "record B", "batches B", "segment B", "sent B", "ratio", "batch avg");
            for (String load : List.of("busy", "one by one")) {
                for (String codec : List.of("lz4", "zstd", "none", "lz4 256K")) {
                    String topic = codec.replace(' ', '-') + "-" + load.replace(' ', '-');
                    broker.createTopic(topic, 3);
                    Path properties = folder.resolve(topic + ".properties");
                    // lz4 is the sink's own default: its file does not name it; "lz4 256K" raises batch.size from 16 KiB
                    Files.writeString(properties, "bootstrap.servers=" + broker.bootstrap() + "\narbiter.topic=" + topic
                            + "\nclient.id=" + topic + (codec.startsWith("lz4") ? "" : "\ncompression.type=" + codec)
                            + (codec.endsWith("256K") ? "\nbatch.size=262144" : "") + "\n");
                    KafkaSinkSettings settings = KafkaSinkSettings.load(properties);
                    int n = load.equals("busy") ? busy : oneByOne;
                    DecisionLog.Mode mode = load.equals("busy") ? DecisionLog.Mode.BEST_EFFORT : DecisionLog.Mode.REQUIRED;
                    DecisionLog log = new KafkaDecisionLog(settings, n, n * 16_384L, mode); // room for all (a record is at most 16 KiB)
                    Audit audit = new Audit(log, new RecentDecisions(1_000), new Metrics(), false);
                    Decisions decisions = new Decisions(registry, snapshot, audit);
                    for (int i = 0; i < n; i++) {
                        Map.Entry<String, byte[]> request = requests.get(i % requests.size());
                        decisions.decide(request.getKey(), request.getValue(), "application/json");
                    }
                    while (log.written() + log.failed() + log.dropped() < n) {
                        Thread.sleep(10);
                    }
                    if (log.written() != n) {
                        throw new IllegalStateException(topic + ": written " + log.written() + " of " + n);
                    }
                    double batches = metric(settings, "producer-topic-metrics", ",topic=" + topic, "byte-total");
                    double sent = metric(settings, "producer-metrics", "", "outgoing-byte-total");
                    double batchAvg = metric(settings, "producer-metrics", "", "batch-size-avg");
                    audit.close();
                    List<Map.Entry<String, String>> records = broker.read(topic);
                    if (records.size() != n) {
                        throw new IllegalStateException(topic + ": " + records.size() + " records in the topic, not " + n);
                    }
                    long recordBytes = records.stream().mapToLong(r -> r.getValue().getBytes(StandardCharsets.UTF_8).length).sum();
                    if (load.equals("busy") && codec.equals("lz4")) {
                        System.out.println("record bytes by request: " + kinds(records));
                    }
                    long segments = segmentBytes(folder.resolve("broker").resolve("data"), topic);
                    System.out.printf("%-8s %-10s %9d %10.0f %10.0f %10.0f %10.0f %8.3f %10.0f%n", codec, load, n,
                            recordBytes / (double) n, batches / n, segments / (double) n, sent / n,
                            batches / recordBytes, batchAvg);
                }
            }
            System.out.println("B: bytes per decision. record: the message's value (the JSON record). batches: the record"
                    + " batches the producer sent for the topic (producer-topic-metrics byte-total). segment: what the"
                    + " topic's log segments grew by. sent: all the producer sent (producer-metrics outgoing-byte-total)."
                    + " ratio: batches / record. batch avg: producer-metrics batch-size-avg, bytes, over the last 30-60 s.");
        } finally {
            try (Stream<Path> paths = Files.walk(folder)) {
                paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    /** A producer metric from its JMX MBean (the client's JmxReporter), read before the sink closes its producer. */
    private static double metric(KafkaSinkSettings settings, String type, String more, String name) throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName bean = new ObjectName("kafka.producer:type=" + type + ",client-id="
                + settings.client().getProperty("client.id") + more);
        return ((Number) server.getAttribute(bean, name)).doubleValue();
    }

    /** The mean bytes of a record, by the request it logs. */
    private static Map<String, Long> kinds(List<Map.Entry<String, String>> records) {
        return records.stream().collect(Collectors.groupingBy(r -> r.getValue().contains("typeRefs") ? "backend"
                        : r.getValue().contains("clusterNamespace") ? "dependencies"
                        : r.getValue().contains("actionPolicy") ? "implementation, action policy" : "implementation",
                TreeMap::new, Collectors.collectingAndThen(Collectors.averagingInt(
                        r -> r.getValue().getBytes(StandardCharsets.UTF_8).length), Math::round)));
    }

    /** The sizes of the topic's log segment files, over its partitions. */
    private static long segmentBytes(Path data, String topic) throws Exception {
        long total = 0;
        try (Stream<Path> files = Files.walk(data)) {
            for (Path file : files.filter(f -> f.getParent().getFileName().toString().startsWith(topic + "-")
                    && f.getFileName().toString().endsWith(".log")).toList()) {
                total += Files.size(file);
            }
        }
        return total;
    }
}
