package io.arbiter.testing;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * A real single-node Apache Kafka broker (KRaft: broker and controller in one process) from the kafka_2.13 artifact
 * on the test classpath, run as a child JVM so that a test can kill it mid-load and start it again on the same port
 * and data. Its output goes to {@code broker.log} in its folder, quoted when it fails to start.
 */
public final class KafkaBroker implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    private final Path folder;
    private final Path config;
    private final String clusterId = Uuid.randomUuid().toString();
    private final int port;
    private final List<String> jvmOptions;
    private Process process;

    private KafkaBroker(Path folder, List<String> jvmOptions) throws IOException {
        this.jvmOptions = jvmOptions;
        this.folder = Files.createDirectories(folder);
        this.port = freePort();
        int controllerPort = freePort();
        Properties properties = new Properties();
        properties.setProperty("process.roles", "broker,controller");
        properties.setProperty("node.id", "1");
        properties.setProperty("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        properties.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        properties.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        properties.setProperty("controller.listener.names", "CONTROLLER");
        properties.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        properties.setProperty("inter.broker.listener.name", "PLAINTEXT");
        properties.setProperty("log.dirs", folder.resolve("data").toString());
        properties.setProperty("auto.create.topics.enable", "false");
        properties.setProperty("offsets.topic.replication.factor", "1");
        properties.setProperty("transaction.state.log.replication.factor", "1");
        properties.setProperty("transaction.state.log.min.isr", "1");
        properties.setProperty("share.coordinator.state.topic.replication.factor", "1");
        properties.setProperty("share.coordinator.state.topic.min.isr", "1");
        properties.setProperty("group.initial.rebalance.delay.ms", "0");
        // A killed broker registers again once its last session has expired (9 s by default): a test restarts it
        // after killing it, as a crashed node would be.
        properties.setProperty("broker.session.timeout.ms", "3000");
        properties.setProperty("broker.heartbeat.interval.ms", "500");
        properties.setProperty("num.network.threads", "2");
        properties.setProperty("num.io.threads", "2");
        this.config = folder.resolve("server.properties");
        try (var out = Files.newBufferedWriter(config, StandardCharsets.UTF_8)) {
            properties.store(out, "single-node KRaft broker for Arbiter's tests");
        }
    }

    /**
     * Formats a new broker's storage in {@code folder} and starts it; returns once it answers. Tuned to start fast
     * (C1 only: a start, and a restart in a fault test, take half the CPU), not to be measured.
     */
    public static KafkaBroker start(Path folder) throws IOException {
        return start(folder, List.of("-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
    }

    /** As {@link #start(Path)}, with the broker JVM's own options (a benchmark wants its full JIT). */
    public static KafkaBroker start(Path folder, List<String> jvmOptions) throws IOException {
        KafkaBroker broker = new KafkaBroker(folder, List.copyOf(jvmOptions));
        broker.restart();
        return broker;
    }

    public String bootstrap() {
        return "127.0.0.1:" + port;
    }

    public boolean running() {
        return process != null && process.isAlive();
    }

    /** Kills the broker at once (SIGKILL: no controlled shutdown, as a crashed node or a lost machine). */
    public void kill() {
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the broker did not die");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    /** Starts the broker (again) on the same port and data; returns once it answers a metadata request. */
    public void restart() throws IOException {
        if (running()) {
            return;
        }
        long started = System.nanoTime();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), config.toString(),
                clusterId, folder.resolve("data").toString()));
        process = new ProcessBuilder(command)
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(folder.resolve("broker.log").toFile()))
                .start();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        try (Admin admin = Admin.create(awaitingProperties())) {
            while (!answersWithItself(admin, deadline)) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("the broker exited with " + process.exitValue() + ":\n" + logTail());
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("the broker did not answer within " + START_TIMEOUT + ":\n" + logTail());
                }
            }
            System.out.printf("Kafka broker at %s answering %d ms after its start%n", bootstrap(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the broker", e);
        }
    }

    /**
     * Asks the broker for the cluster's nodes once, waiting until it answers, the deadline passes or its process
     * exits, whichever comes first (meanwhile the admin client keeps trying to connect); true if it answered and
     * named a node.
     */
    private boolean answersWithItself(Admin admin, long deadline) throws InterruptedException {
        long left = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
        CompletableFuture<Collection<Node>> nodes = admin.describeCluster(
                        new DescribeClusterOptions().timeoutMs((int) Math.min(left, Integer.MAX_VALUE)))
                .nodes().toCompletionStage().toCompletableFuture();
        try {
            CompletableFuture.anyOf(nodes, process.onExit()).get(left, TimeUnit.MILLISECONDS);
            return nodes.isDone() && !nodes.get().isEmpty();
        } catch (ExecutionException | TimeoutException e) {
            return false; // not up yet, or gone: the caller tells which
        }
    }

    /**
     * A client's properties for waiting on the broker: while it does not listen yet, the client tries to connect
     * again every 100 ms rather than backing off to a second.
     */
    private Properties awaitingProperties() {
        Properties properties = clientProperties();
        properties.setProperty("reconnect.backoff.max.ms", "100");
        return properties;
    }

    public void createTopic(String topic, int partitions) throws Exception {
        try (Admin admin = Admin.create(clientProperties())) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(60, TimeUnit.SECONDS);
        }
    }

    /** Every record of the topic, partition by partition, as key and UTF-8 value. */
    public List<Map.Entry<String, String>> read(String topic) {
        Properties properties = clientProperties();
        properties.setProperty("enable.auto.commit", "false");
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(properties, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(info -> new TopicPartition(topic, info.partition()))
                    .sorted(Comparator.comparingInt(TopicPartition::partition)).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
            List<Map.Entry<String, String>> records = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (partitions.stream().anyMatch(partition -> consumer.position(partition) < end.get(partition))) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("could not read " + topic + " to its end " + end);
                }
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    records.add(Map.entry(String.valueOf(record.key()), new String(record.value(), StandardCharsets.UTF_8)));
                }
            }
            return records;
        }
    }

    public Properties clientProperties() {
        Properties properties = new Properties();
        properties.setProperty("bootstrap.servers", bootstrap());
        return properties;
    }

    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(folder.resolve("broker.log"), StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no broker.log: " + e + ")";
        }
    }

    /** Kills the broker and deletes its folder. */
    @Override
    public void close() {
        kill();
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }

    /** The child process: formats the storage on its first start, then runs the broker as {@code kafka-server-start} does. */
    public static final class Main {
        public static void main(String[] args) throws Exception {
            String config = args[0];
            String clusterId = args[1];
            if (!Files.exists(Path.of(args[2], "meta.properties"))) {
                int exit = kafka.tools.StorageTool.execute(new String[]{"format", "-t", clusterId, "-c", config}, System.out);
                if (exit != 0) {
                    System.exit(exit);
                }
            }
            kafka.Kafka.main(new String[]{config});
        }
    }
}
