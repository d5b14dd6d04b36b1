package io.arbiter.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.decision.Settings;
import io.arbiter.kubernetes.ConfigMapNames;
import io.arbiter.kubernetes.KubernetesSettings;
import io.arbiter.kubernetes.KubernetesSource;
import io.arbiter.testing.Signal;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 47: three Arbiter servers against one Kubernetes API server (fabric8's emulator in CRUD mode: no
 * kube-apiserver binary exists on the build machines). Every wait is on the sources' change signal, never a sleep.
 */
class KubernetesFleetTest {

    private static final String TOKEN = "fleet-admin-token";
    private static final String NAMESPACE = "arbiter-test";
    /** Only bounds a wait whose condition never comes: on two shared cores a changed table compiles in 1 to 10 s per replica. */
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String BACKEND_REQUEST = """
            {"typeRefs": [{"path": "cap.type.helm.release.storage", "revision": "0.1.0"}]}""";

    private final KubernetesCrudDispatcher dispatcher = new KubernetesCrudDispatcher();
    private KubernetesMockServer api;
    private int apiPort;
    private KubernetesClient admin;
    private final List<ArbiterServer> replicas = new ArrayList<>();
    private final List<HttpTestClient> clients = new ArrayList<>();
    private final Signal changed = new Signal();

    @BeforeEach
    void start() throws Exception {
        startApi(0);
        apiPort = api.getPort();
        admin = client();
        admin.configMaps().inNamespace(NAMESPACE).resource(configMap(ConfigMapNames.policy("arbiter"), "policy",
                Map.of(ConfigMapNames.POLICY_KEY, Files.readString(Path.of("fixtures/embedded/policy.yaml"))))).create();
        admin.configMaps().inNamespace(NAMESPACE).resource(configMap(ConfigMapNames.rules("arbiter", "backend"), "rules",
                Map.of("backend.drl", Files.readString(Path.of("rules/backend/backend.drl")),
                        "backend-priority.drl.csv", Files.readString(Path.of("decision-tables/backend/backend-priority.drl.csv")))))
                .create();
        for (int i = 0; i < 3; i++) {
            KubernetesSettings settings = new KubernetesSettings(NAMESPACE, "arbiter", "arbiter-" + i, WAIT,
                    this::client);
            ArbiterServer server = TestServers.start(new ServerOptions("127.0.0.1", 0, Settings.embedded(), TOKEN,
                    TestServers.SHUTDOWN_GRACE).withKubernetes(settings));
            source(server).onChange(changed);
            replicas.add(server);
            clients.add(new HttpTestClient(server.port()));
        }
    }

    private void startApi(int port) {
        api = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
        api.start(InetAddress.getLoopbackAddress(), port);
    }

    /** A client of the emulated API server that retries a lost watch quickly (the default waits a second and more). */
    private KubernetesClient client() {
        return api.createClient(builder -> builder.editOrNewConfig().withNamespace(NAMESPACE)
                .withWatchReconnectInterval(50).withWatchReconnectLimit(-1).withRequestRetryBackoffLimit(0).endConfig());
    }

    @AfterEach
    void stop() {
        replicas.forEach(ArbiterServer::stop);
        admin.close();
        try {
            api.destroy();
        } catch (IllegalStateException e) {
            // The emulator waits up to 10 s for its open connections to end; a stopped replica's client closes its
            // reconnecting watch asynchronously, so after an API server restart the wait can run out. Each test
            // serves its own emulator on a fresh port, so a slow close affects nothing that follows.
            System.err.println("KubernetesFleetTest: " + e.getMessage());
        }
    }

    private static KubernetesSource source(ArbiterServer server) {
        return (KubernetesSource) server.decisions().source();
    }

    private static ConfigMap configMap(String name, String component, Map<String, String> data) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace(NAMESPACE)
                .withLabels(ConfigMapNames.labels("arbiter", component)).endMetadata().withData(data).build();
    }

    private void edit(String name, String key, String value) {
        admin.configMaps().inNamespace(NAMESPACE).withName(name).edit(configMap -> new ConfigMapBuilder(configMap)
                .addToData(key, value).build());
    }

    private List<String> etags() {
        return clients.stream().map(client -> client.get("/v1/policy").header("ETag")).toList();
    }

    private void awaitAll(java.util.function.Predicate<KubernetesSource> condition, String what) throws InterruptedException {
        changed.await(() -> replicas.stream().map(KubernetesFleetTest::source).allMatch(condition), WAIT,
                () -> what + ": " + replicas.stream().map(server -> source(server).status().toString()).toList());
    }

    private HttpTestClient.Response put(int replica, String yaml, String... headers) {
        List<String> all = new ArrayList<>(List.of("Authorization", "Bearer " + TOKEN));
        all.addAll(List.of(headers));
        return clients.get(replica).send("PUT", "/v1/policy", "application/yaml", yaml.getBytes(StandardCharsets.UTF_8),
                all.toArray(String[]::new));
    }

    private static String policyWithBackend(String id) {
        return """
                typeInstance:
                  rules:
                    - typeRef: {path: cap.type.helm.*}
                      backend: {id: %s, description: Helm release storage}
                """.formatted(id);
    }

    @Test
    void aPutToOneReplicaIsServedByEveryReplica() throws Exception {
        List<String> before = etags();
        assertEquals(1, Set.copyOf(before).size(), "every replica serves the same content: " + before);

        long started = System.nanoTime();
        var answer = put(0, policyWithBackend("c268d3f5-8834-434b-bea2-b677793611c5"), "If-Match", before.get(0));
        assertEquals(200, answer.status(), answer.body());
        String revision = answer.json().path("revision").asText();
        assertEquals("\"" + revision + "\"", answer.header("ETag"));
        // the receiving replica answered once it served the new policy
        assertEquals(answer.header("ETag"), clients.get(0).get("/v1/policy").header("ETag"));

        changed.await(this::etags, etags -> etags.stream().allMatch(answer.header("ETag")::equals), WAIT, Object::toString);
        System.out.printf("every replica served the PUT policy %d ms after the PUT was sent%n", (System.nanoTime() - started) / 1_000_000);
        for (HttpTestClient client : clients) {
            JsonNode status = client.get("/v1/status").json();
            assertEquals(revision, status.path("policyRevision").asText());
            assertTrue(status.path("source").path("servesLatest").asBoolean(), status.toString());
            assertEquals(source(replicas.get(0)).servedRevision(), status.path("source").path("servedRevision").asText());
        }
        assertEquals(policyWithBackend("c268d3f5-8834-434b-bea2-b677793611c5"), admin.configMaps().inNamespace(NAMESPACE)
                .withName(ConfigMapNames.policy("arbiter")).get().getData().get(ConfigMapNames.POLICY_KEY), "the PUT wrote the ConfigMap");
    }

    @Test
    void aStaleIfMatchIs412OnAnotherReplica() throws Exception {
        String seen = clients.get(1).get("/v1/policy").header("ETag");
        var first = put(0, policyWithBackend("c268d3f5-8834-434b-bea2-b677793611c5"), "If-Match", seen);
        assertEquals(200, first.status(), first.body());

        // replica 2 is asked with the ETag replica 1 gave before the change, whether or not it has applied it yet
        var stale = put(2, policyWithBackend("00fd161c-01bd-47a6-9872-47490e11f996"), "If-Match", seen);
        assertEquals(412, stale.status(), stale.body());
        assertEquals("POLICY_CONFLICT", stale.errorCode());

        changed.await(this::etags, etags -> etags.stream().allMatch(first.header("ETag")::equals), WAIT, Object::toString);
        var fresh = put(1, policyWithBackend("00fd161c-01bd-47a6-9872-47490e11f996"), "If-Match", first.header("ETag"));
        assertEquals(200, fresh.status(), fresh.body());
    }

    @Test
    void anInvalidPolicyWrittenToTheConfigMapIsRefusedByEveryReplicaWithAnEvent() throws Exception {
        String served = etags().get(0);
        edit(ConfigMapNames.policy("arbiter"), ConfigMapNames.POLICY_KEY, "interface:\n  rules: not-a-list\n");

        awaitAll(source -> source.refusal().isPresent(), "every replica refuses the policy");
        assertEquals(List.of(served, served, served), etags(), "the previous policy keeps serving");
        for (HttpTestClient client : clients) {
            var ready = client.get("/readyz");
            assertEquals(200, ready.status(), "a refused change leaves the replica ready: it serves the previous content");
            assertTrue(ready.json().path("lastReloadError").asText().contains("ConfigMap arbiter-policy"), ready.body());
            assertFalse(ready.json().path("source").path("servesLatest").asBoolean(), ready.body());
            assertTrue(client.get("/metrics").body().contains("arbiter_source_revision_skew 1.0"));
            assertEquals(200, client.postJson("/v1/decisions/backend", BACKEND_REQUEST).status());
        }
        List<Event> events = admin.v1().events().inNamespace(NAMESPACE).list().getItems().stream()
                .filter(event -> event.getInvolvedObject().getName().equals(ConfigMapNames.policy("arbiter"))).toList();
        assertEquals(Set.of("arbiter-0", "arbiter-1", "arbiter-2"),
                Set.copyOf(events.stream().map(Event::getReportingInstance).toList()), events.toString());
        events.forEach(event -> {
            assertEquals("Warning", event.getType());
            assertEquals("ContentRefused", event.getReason());
            assertTrue(event.getMessage().startsWith("replica " + event.getReportingInstance() + " refused"), event.getMessage());
        });
        edit(ConfigMapNames.policy("arbiter"), ConfigMapNames.POLICY_KEY, policyWithBackend("c268d3f5-8834-434b-bea2-b677793611c5"));
        awaitAll(source -> source.refusal().isEmpty() && source.servesLatest(), "every replica applies the repaired policy");
        assertEquals(1, Set.copyOf(etags()).size());
    }

    private List<String> tableEtags(String path) {
        return clients.stream().map(client -> client.get(path).header("ETag")).toList();
    }

    /** Issue 48: a table PUT to one replica is written to its folder's ConfigMap, and every replica serves it. */
    @Test
    void aTablePutToOneReplicaIsServedByEveryReplica() throws Exception {
        String path = "/v1/decision-tables/capact.backend/backend-priority";
        String table = Files.readString(Path.of("decision-tables/backend/backend-priority.drl.csv"));
        List<String> lines = new ArrayList<>(table.lines().toList());
        String pathRow = lines.stream().filter(line -> line.startsWith("Exact path without revision")).findFirst().orElseThrow();
        lines.remove(pathRow);
        lines.add(pathRow);
        String moved = String.join("\n", lines) + "\n";
        String seen = clients.get(1).get(path).header("ETag");

        var answer = clients.get(0).send("PUT", path, "text/csv", moved.getBytes(StandardCharsets.UTF_8),
                "Authorization", "Bearer " + TOKEN, "If-Match", seen);

        assertEquals(200, answer.status(), answer.body());
        assertEquals(answer.header("ETag"), clients.get(0).get(path).header("ETag"), "the receiving replica serves it");
        assertEquals(moved, admin.configMaps().inNamespace(NAMESPACE).withName(ConfigMapNames.rules("arbiter", "backend"))
                .get().getData().get("backend-priority.drl.csv"), "the PUT wrote the ConfigMap");
        changed.await(() -> tableEtags(path), etags -> etags.stream().allMatch(answer.header("ETag")::equals), WAIT, Object::toString);
        var stale = clients.get(2).send("PUT", path, "text/csv", table.getBytes(StandardCharsets.UTF_8),
                "Authorization", "Bearer " + TOKEN, "If-Match", seen);
        assertEquals(412, stale.status(), stale.body());
        // a folder without a ConfigMap serves the packaged tables: nothing to write them to
        String rollout = "/v1/decision-tables/ocm.rollout/rollout-status";
        var packaged = clients.get(0).send("PUT", rollout, "text/csv", clients.get(0).get(rollout, "Accept", "text/csv")
                .body().getBytes(StandardCharsets.UTF_8), "Authorization", "Bearer " + TOKEN);
        assertEquals(409, packaged.status(), packaged.body());
        assertTrue(packaged.body().contains("arbiter-rules-rollout"), packaged.body());
    }

    @Test
    void anInvalidTableIsRefusedByEveryReplicaAndAValidOneReachesAll() throws Exception {
        String table = Files.readString(Path.of("decision-tables/backend/backend-priority.drl.csv"));
        String rulesBefore = clients.get(0).postJson("/v1/decisions/backend", BACKEND_REQUEST).json().path("rulesRevision").asText();

        edit(ConfigMapNames.rules("arbiter", "backend"), "backend-priority.drl.csv", table.replace(",EXACT,", ",NO_SUCH_LEVEL,"));
        awaitAll(source -> source.refusal().isPresent(), "every replica refuses the table");
        for (HttpTestClient client : clients) {
            JsonNode decision = client.postJson("/v1/decisions/backend", BACKEND_REQUEST).json();
            assertEquals(rulesBefore, decision.path("rulesRevision").asText(), "the previous rules keep serving");
            assertTrue(client.get("/v1/status").json().path("lastReloadError").asText().contains("arbiter-rules-backend"),
                    client.get("/v1/status").body());
        }
        assertEquals(3, admin.v1().events().inNamespace(NAMESPACE).list().getItems().stream()
                .filter(event -> event.getInvolvedObject().getName().equals(ConfigMapNames.rules("arbiter", "backend"))).count());

        // an analyst's reordering: the pattern rows above the exact ones
        edit(ConfigMapNames.rules("arbiter", "backend"), "backend-priority.drl.csv", table + "\n");
        awaitAll(source -> source.refusal().isEmpty() && source.servesLatest(), "every replica applies the new table");
        Set<String> rules = new java.util.HashSet<>();
        clients.forEach(client -> rules.add(client.postJson("/v1/decisions/backend", BACKEND_REQUEST).json().path("rulesRevision").asText()));
        assertEquals(1, rules.size(), rules.toString());
        assertFalse(rules.contains(rulesBefore));
    }

    @Test
    void theApiServerGoesAwayAndComesBack() throws Exception {
        api.destroy();
        awaitAll(KubernetesSource::stale, "every replica reports the source stale");
        for (HttpTestClient client : clients) {
            assertEquals(200, client.postJson("/v1/decisions/backend", BACKEND_REQUEST).status(), "decisions are served throughout");
            var ready = client.get("/readyz");
            assertEquals(200, ready.status());
            assertTrue(ready.json().path("source").path("stale").asBoolean(), ready.body());
            assertTrue(client.get("/metrics").body().contains("arbiter_source_stale 1.0"));
            var refused = put(0, policyWithBackend("c268d3f5-8834-434b-bea2-b677793611c5"));
            assertEquals(503, refused.status(), refused.body());
        }

        startApi(apiPort);
        awaitAll(source -> !source.stale(), "every replica watches again");
        edit(ConfigMapNames.policy("arbiter"), ConfigMapNames.POLICY_KEY, policyWithBackend("00fd161c-01bd-47a6-9872-47490e11f996"));
        awaitAll(source -> source.servesLatest() && source.refusal().isEmpty(), "every replica resynchronises");
        assertEquals(1, Set.copyOf(etags()).size());
    }

    @Test
    void aReplicaThatCannotReachTheApiServerDoesNotStart() {
        api.destroy();
        KubernetesSettings settings = new KubernetesSettings(NAMESPACE, "arbiter", "arbiter-late", Duration.ofSeconds(10),
                this::client);
        var failure = org.junit.jupiter.api.Assertions.assertThrows(java.util.concurrent.ExecutionException.class,
                () -> TestServers.start(new ServerOptions("127.0.0.1", 0, Settings.embedded(), TOKEN, TestServers.SHUTDOWN_GRACE)
                        .withKubernetes(settings)));
        assertEquals("cannot list the ConfigMaps of instance 'arbiter' in namespace " + NAMESPACE
                + ": the API server cannot be reached", failure.getCause().getMessage());
        startApi(apiPort);
    }

    /** Decisions flow while policies and tables change: each answer's policy and rules come from one snapshot. */
    @Test
    void noAnswerMixesRevisions() throws Exception {
        Map<String, String> snapshots = new ConcurrentHashMap<>();
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger answers = new AtomicInteger();
        Set<String> answered = ConcurrentHashMap.newKeySet();
        // the pairs that went live, recorded as each replica swaps them in
        replicas.forEach(server -> server.decisions().onSnapshotLive(snapshot ->
                snapshots.put(snapshot.policy().revision() + "/" + snapshot.ruleBases().get("capact.backend").revision(), "")));
        replicas.forEach(server -> snapshots.put(server.decisions().snapshot().policy().revision() + "/"
                + server.decisions().snapshot().ruleBases().get("capact.backend").revision(), ""));
        Thread load = new Thread(() -> {
            while (running.get()) {
                for (HttpTestClient client : clients) {
                    JsonNode decision = client.postJson("/v1/decisions/backend", BACKEND_REQUEST).json();
                    answers.incrementAndGet();
                    answered.add(decision.path("policyRevision").asText() + "/" + decision.path("rulesRevision").asText());
                }
            }
        });
        load.start();
        String table = Files.readString(Path.of("decision-tables/backend/backend-priority.drl.csv"));
        for (int i = 0; i < 4; i++) {
            edit(ConfigMapNames.rules("arbiter", "backend"), "backend-priority.drl.csv", table + "\n".repeat(i + 1));
            var answer = put(i % 3, policyWithBackend(i % 2 == 0 ? "c268d3f5-8834-434b-bea2-b677793611c5" : "00fd161c-01bd-47a6-9872-47490e11f996"));
            assertEquals(200, answer.status(), answer.body());
        }
        awaitAll(KubernetesSource::servesLatest, "every replica serves the last change");
        running.set(false);
        load.join();
        assertTrue(answers.get() > 0);
        // compared once every swap has been recorded: a listener hears of a snapshot just after it serves
        List<String> mixed = answered.stream().filter(pair -> !snapshots.containsKey(pair)).toList();
        System.out.printf("%d answers, %d policy/rules pairs, %d mixed%n", answers.get(), answered.size(), mixed.size());
        assertEquals(List.of(), mixed, "answers whose policy and rules revisions never served together, of " + answers.get());
    }
}
