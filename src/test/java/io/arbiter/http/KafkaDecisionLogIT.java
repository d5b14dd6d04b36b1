package io.arbiter.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.audit.Audit;
import io.arbiter.audit.DecisionLog;
import io.arbiter.audit.DecisionRecord;
import io.arbiter.audit.KafkaDecisionLog;
import io.arbiter.audit.KafkaSinkSettings;
import io.arbiter.audit.Metrics;
import io.arbiter.audit.QueuedDecisionLog;
import io.arbiter.audit.RecentDecisions;
import io.arbiter.cli.ArbiterCli;
import io.arbiter.runtime.Decisions;
import io.arbiter.decision.Settings;
import io.arbiter.document.Documents;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.testing.Fixtures;
import io.arbiter.testing.KafkaBroker;
import io.arbiter.testing.Signal;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Kafka decision-log sink against a real single-node KRaft broker (a child process, see {@link KafkaBroker}):
 * records under load, a broker killed mid-load and started again, REQUIRED mode answering no 200 without an
 * acknowledged record, BEST_EFFORT counting what it drops, and {@code arbiter audit} reading the topic. Each test
 * has a topic of its own; the broker is shared, and each test finds it running.
 */
class KafkaDecisionLogIT {

    private static final String REQUEST = "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\"}}";
    /**
     * The producer of a test that stops the broker: once the broker is back it connects again within 100 ms, rather
     * than after a backoff grown to a second while the broker was away.
     */
    private static final String RECONNECT_SOON = "reconnect.backoff.max.ms=100";
    /**
     * REQUIRED mode's waits in the fault test: a decision whose record cannot be written is refused after 500 ms
     * rather than 2 s (each refusal while the broker is down waits it out).
     */
    private static final QueuedDecisionLog.RequiredWaits REFUSE_SOON =
            new QueuedDecisionLog.RequiredWaits(QueuedDecisionLog.RequiredWaits.DEFAULT.forRoom(), Duration.ofMillis(500));

    private static Path folder;
    private static KafkaBroker broker;
    private static Vertx vertx;
    private static final List<Audit> audits = new ArrayList<>();

    @BeforeAll
    static void startBroker() throws IOException {
        folder = Files.createTempDirectory("arbiter-kafka-");
        broker = KafkaBroker.start(folder.resolve("broker"));
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stopBroker() {
        audits.forEach(Audit::close);
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
        if (broker != null) {
            broker.close();
        }
        try (var paths = Files.walk(folder)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // A temporary folder left behind is not the test's failure.
        }
    }

    @BeforeEach
    void brokerRuns() throws IOException {
        broker.restart();
    }

    private static KafkaSinkSettings settings(String topic, String... more) throws IOException {
        Path file = folder.resolve(topic + ".properties");
        StringBuilder text = new StringBuilder("bootstrap.servers=" + broker.bootstrap() + "\narbiter.topic=" + topic + "\n");
        for (String line : more) {
            text.append(line).append('\n');
        }
        Files.writeString(file, text.toString());
        return KafkaSinkSettings.load(file);
    }

    /** A record as Audit encodes it: its JSON line's bytes. */
    private static DecisionRecord record(String id) {
        com.fasterxml.jackson.databind.node.ObjectNode line = Documents.jsonMapper().createObjectNode()
                .put("decisionId", id).put("timestamp", Instant.now().toString()).put("endpoint", "implementation")
                .put("requestDigest", "sha256:ab");
        line.putObject("request").put("cluster", "c-" + id);
        line.put("policyRevision", "policy-1").put("rulesRevision", "rules-1").put("catalogRevision", "catalog-1")
                .put("typeInstancesRevision", "store-1").put("outcome", "SELECTED").put("durationMicros", 1);
        line.putObject("result").put("decisionId", id);
        return new DecisionRecord(id, "policy-1", line.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** The decision ids in the topic, each as often as it is there. */
    private static List<String> idsIn(String topic) throws IOException {
        List<String> ids = new ArrayList<>();
        for (Map.Entry<String, String> message : broker.read(topic)) {
            JsonNode record = Documents.jsonMapper().readTree(message.getValue());
            ids.add(record.path("decisionId").asText());
        }
        return ids;
    }

    /** Returns once the wall clock, which stamps the records the producer sends, is past {@code instant}. */
    private static void awaitClockPast(Instant instant) {
        while (!Instant.now().isAfter(instant)) {
            LockSupport.parkUntil(instant.toEpochMilli() + 1);
        }
    }

    @Test
    void underLoadEveryRecordIsInTheTopicOnceKeyedByItsDecisionId() throws Exception {
        String topic = "under-load";
        broker.createTopic(topic, 3);
        KafkaDecisionLog log = new KafkaDecisionLog(settings(topic), 8_192, 64L << 20, DecisionLog.Mode.REQUIRED);
        int threads = 4;
        int perThread = 1_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            done.add(pool.submit(() -> {
                for (int i = 0; i < perThread; i++) {
                    log.append(record("d-" + thread + "-" + i)).awaitWritten();
                }
                return null;
            }));
        }
        for (Future<?> future : done) {
            future.get(120, TimeUnit.SECONDS);
        }
        pool.shutdown();
        log.close();

        List<Map.Entry<String, String>> messages = broker.read(topic);
        Set<String> ids = new HashSet<>();
        for (Map.Entry<String, String> message : messages) {
            String id = Documents.jsonMapper().readTree(message.getValue()).path("decisionId").asText();
            assertEquals(id, message.getKey(), "keyed by decision id");
            ids.add(id);
        }
        assertEquals(threads * perThread, messages.size(), "each record once");
        assertEquals(threads * perThread, ids.size());
        assertEquals(threads * perThread, log.written());
        assertEquals(0, log.dropped() + log.failed());
    }

    @Test
    void theKeyCanBeThePolicyRevision() throws Exception {
        String topic = "by-policy";
        broker.createTopic(topic, 2);
        KafkaDecisionLog log = new KafkaDecisionLog(settings(topic, "arbiter.key=policyRevision"), 100, 1L << 20,
                DecisionLog.Mode.REQUIRED);
        log.append(record("p-1")).awaitWritten();
        log.close();

        assertEquals(List.of(Map.entry("policy-1", broker.read(topic).get(0).getValue())), broker.read(topic));
    }

    /** The service's routes over a decision log of its own. */
    private static HttpTestClient serve(DecisionLog log) throws Exception {
        Audit audit = new Audit(log, new RecentDecisions(100), new Metrics(), false);
        audits.add(audit);
        Decisions decisions = new Decisions(PolicyTypeRegistry.discover(), Fixtures.snapshot(Fixtures.embeddedPolicy()), audit);
        HttpServer server = vertx.createHttpServer()
                .requestHandler(ArbiterServer.router(vertx, decisions, new ServerOptions("127.0.0.1", 0, Settings.embedded(), null)))
                .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        return new HttpTestClient(server.actualPort());
    }

    /** Decisions over HTTP from a few threads until stopped: the decision ids answered 200, and the other answers. */
    private static final class Load implements AutoCloseable {
        final Set<String> answered = ConcurrentHashMap.newKeySet();
        final Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
        final AtomicLong answeredAfterRestart = new AtomicLong();
        /** Fired after each answer is counted. */
        final Signal answers = new Signal();
        volatile boolean restarted;
        private final AtomicBoolean stop = new AtomicBoolean();
        private final ExecutorService pool;
        private final List<Future<?>> workers = new ArrayList<>();

        Load(HttpTestClient client, int threads) {
            pool = Executors.newFixedThreadPool(threads);
            for (int t = 0; t < threads; t++) {
                workers.add(pool.submit(() -> {
                    while (!stop.get()) {
                        HttpTestClient.Response response = client.postJson("/v1/decisions/implementation", REQUEST);
                        statuses.computeIfAbsent(response.status(), status -> new AtomicInteger()).incrementAndGet();
                        if (response.status() == 200) {
                            answered.add(Documents.jsonMapper().readTree(response.body()).path("decisionId").asText());
                            if (restarted) {
                                answeredAfterRestart.incrementAndGet();
                            }
                        }
                        answers.run();
                    }
                    return null;
                }));
            }
        }

        int count(int status) {
            return statuses.getOrDefault(status, new AtomicInteger()).get();
        }

        @Override
        public void close() throws Exception {
            stop.set(true);
            for (Future<?> worker : workers) {
                worker.get(60, TimeUnit.SECONDS);
            }
            pool.shutdown();
        }

        @Override
        public String toString() {
            return "answers by status " + statuses + ", answered after the restart " + answeredAfterRestart;
        }
    }

    @Test
    void requiredModeAnswersNo200WithoutAnAcknowledgedRecordWhileTheBrokerIsKilledAndRestarted() throws Exception {
        String topic = "required-fault";
        broker.createTopic(topic, 2);
        KafkaDecisionLog log = new KafkaDecisionLog(settings(topic, RECONNECT_SOON), 8_192, 64L << 20,
                DecisionLog.Mode.REQUIRED, REFUSE_SOON);
        Signal counted = new Signal();
        log.onCounted(counted);
        HttpTestClient client = serve(log);
        Load load = new Load(client, 4);
        try (load) {
            load.answers.await(() -> load.answered.size() >= 200, Duration.ofSeconds(60), load::toString);
            broker.kill();
            load.answers.await(() -> load.count(503) >= 5, Duration.ofSeconds(60), load::toString);
            HttpTestClient.Response ready = client.get("/readyz");
            assertEquals(503, ready.status(), "a required log that cannot write takes the instance out: " + ready.body());
            assertTrue(client.get("/metrics").body().contains("arbiter_decision_log_writable 0.0"));

            broker.restart();
            load.restarted = true;
            load.answers.await(() -> load.answeredAfterRestart.get() >= 200, Duration.ofSeconds(90), load::toString);
        }
        // ready again once a write succeeds after the last refusal
        counted.await(() -> client.get("/readyz").status() == 200, Duration.ofSeconds(30), () -> client.get("/readyz").body());
        List<String> inTopic = idsIn(topic);
        Set<String> lost = new HashSet<>(load.answered);
        lost.removeAll(inTopic);
        Set<String> refusedButLogged = new HashSet<>(inTopic);
        refusedButLogged.removeAll(load.answered);
        System.out.printf("kafka sink REQUIRED, broker killed and restarted: %s; records in the topic %d; "
                        + "answered 200 but not in the topic (lost) %d; duplicates %d; refused but in the topic %d; log %s%n",
                load, inTopic.size(), lost.size(), inTopic.size() - new HashSet<>(inTopic).size(),
                refusedButLogged.size(), log.health());

        assertEquals(Set.of(), lost, "every decision answered 200 has its record in the topic");
        assertEquals(new HashSet<>(inTopic).size(), inTopic.size(), "no record twice (idempotent producer)");
        assertTrue(load.count(503) > 0, load.toString());
        assertEquals(Set.of(200, 503), load.statuses.keySet(), load.toString());
        assertTrue(log.failed() > 0, log.health().toString());
    }

    @Test
    void bestEffortModeCountsWhatItDropsWhileTheBrokerIsKilled() throws Exception {
        String topic = "best-effort-fault";
        broker.createTopic(topic, 2);
        // A small buffer, so that it fills while the broker is down.
        KafkaDecisionLog log = new KafkaDecisionLog(settings(topic, RECONNECT_SOON), CAPACITY, 64L << 20,
                DecisionLog.Mode.BEST_EFFORT);
        Signal counted = new Signal();
        log.onCounted(counted);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicBoolean brokerDown = new AtomicBoolean();
        AtomicLong appended = new AtomicLong();
        AtomicLong writtenBeforeRestart = new AtomicLong();
        // Paced by the log rather than by a clock: while the broker runs, a record waits until fewer than half the
        // buffer are on their way, so none is dropped; while it is down, records go on until the log has dropped
        // enough of them, then wait for the restart.
        BooleanSupplier mayAppend = () -> stop.get() || (brokerDown.get()
                ? log.dropped() < DROPPED_WHILE_DOWN
                : appended.get() - log.written() - log.failed() - log.dropped() < CAPACITY / 2);
        Thread producer = new Thread(() -> {
            try {
                while (!stop.get()) {
                    log.append(record("b-" + appended.incrementAndGet()));
                    counted.await(mayAppend, Duration.ofMinutes(5), () -> "the producer waited: " + log.health());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        producer.start();
        try {
            counted.await(() -> log.written() >= 2_000, Duration.ofSeconds(60), () -> log.health().toString());
            broker.kill();
            brokerDown.set(true);
            counted.run();
            counted.await(() -> log.dropped() >= DROPPED_WHILE_DOWN, Duration.ofSeconds(60), () -> log.health().toString());
            assertTrue(log.health().ready(), "a best-effort log leaves the service ready: " + log.health());
            writtenBeforeRestart.set(log.written());
            broker.restart();
            brokerDown.set(false);
            counted.run();
            counted.await(() -> log.written() >= writtenBeforeRestart.get() + 2_000, Duration.ofSeconds(90),
                    () -> log.health().toString());
        } finally {
            stop.set(true);
            counted.run();
            producer.join(30_000);
        }
        log.close();

        List<String> inTopic = idsIn(topic);
        long lost = appended.get() - inTopic.size();
        System.out.printf("kafka sink BEST_EFFORT, broker killed and restarted: appended %d, in the topic %d, "
                        + "not in the topic %d, counted as dropped %d and failed %d; duplicates %d%n",
                appended.get(), inTopic.size(), lost, log.dropped(), log.failed(),
                inTopic.size() - new HashSet<>(inTopic).size());

        assertEquals(new HashSet<>(inTopic).size(), inTopic.size(), "no record twice (idempotent producer)");
        assertEquals(log.written(), inTopic.size(), "what the log counts as written is in the topic");
        assertEquals(lost, log.dropped() + log.failed(), "every record not in the topic is counted");
        assertTrue(log.dropped() >= DROPPED_WHILE_DOWN);
    }

    /** The queue of the best-effort test's log, in records. */
    private static final int CAPACITY = 200;
    /** What the best-effort test's log drops while the broker is down, at least. */
    private static final int DROPPED_WHILE_DOWN = 1_000;

    private record Run(int exit, String out, String err) {
    }

    private static Run audit(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cli = ArbiterCli.commandLine(PolicyTypeRegistry.discover());
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        List<String> all = new ArrayList<>(List.of("audit"));
        all.addAll(List.of(args));
        int exit = cli.execute(all.toArray(String[]::new));
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void auditReadsTheTopicFromTheStartAnOffsetOrATime() throws Exception {
        String topic = "audited";
        broker.createTopic(topic, 1);
        KafkaDecisionLog log = new KafkaDecisionLog(settings(topic), 100, 1L << 20, DecisionLog.Mode.REQUIRED);
        List<String> ids = List.of("a-1", "a-2", "a-3", "a-4", "a-5");
        for (String id : ids.subList(0, 3)) {
            log.append(record(id)).awaitWritten();
        }
        Instant between = Instant.now();
        awaitClockPast(between.plusMillis(5));
        for (String id : ids.subList(3, 5)) {
            log.append(record(id)).awaitWritten();
        }
        log.close();
        // The topic also holds a message that is not a decision record.
        Path notes = folder.resolve("notes.properties");
        Files.writeString(notes, "bootstrap.servers=" + broker.bootstrap() + "\narbiter.topic=" + topic + "\n");
        try (var raw = new org.apache.kafka.clients.producer.KafkaProducer<String, String>(broker.clientProperties(),
                new org.apache.kafka.common.serialization.StringSerializer(), new org.apache.kafka.common.serialization.StringSerializer())) {
            raw.send(new org.apache.kafka.clients.producer.ProducerRecord<>(topic, "x", "not json")).get(30, TimeUnit.SECONDS);
        }

        long started = System.nanoTime();
        Run all = audit("--kafka-bootstrap", broker.bootstrap(), "--topic", topic);
        Run fromOffset = audit("--kafka-bootstrap", broker.bootstrap(), "--topic", topic, "--from-offset", "3");
        Run fromTime = audit("--kafka-properties", notes.toString(), "--from-time", between.toString());
        Run one = audit("--kafka-bootstrap", broker.bootstrap(), "--topic", topic, "--id", ids.get(1), "--json");
        Run why = audit("--kafka-bootstrap", broker.bootstrap(), "--topic", topic, "--id", ids.get(1));
        Run none = audit("--kafka-bootstrap", broker.bootstrap(), "--topic", topic, "--id", "nope");
        Run noTopic = audit("--kafka-bootstrap", broker.bootstrap(), "--topic", "absent");
        System.out.printf("seven audits of the topic took %d ms%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));

        assertEquals(1, all.exit(), "a message that is not a record: " + all.err());
        assertTrue(all.out().contains("implementation: {SELECTED=5}"), all.out());
        assertTrue(all.err().contains(topic + "-0:5: not a decision record"), all.err());
        assertTrue(fromOffset.out().contains("{SELECTED=2}"), fromOffset.out());
        assertTrue(fromTime.out().contains("{SELECTED=2}"), fromTime.out() + fromTime.err());
        assertEquals(0, one.exit(), one.err());
        assertEquals(ids.get(1), Documents.jsonMapper().readTree(one.out()).path("decisionId").asText());
        assertEquals(0, why.exit(), why.err());
        assertTrue(why.out().startsWith("decision " + ids.get(1) + " (implementation"), why.out());
        assertEquals(1, none.exit());
        assertTrue(none.err().contains("no decision nope in topic " + topic), none.err());
        assertEquals(1, noTopic.exit());
        assertTrue(noTopic.err().contains("absent"), noTopic.err());
    }
}
