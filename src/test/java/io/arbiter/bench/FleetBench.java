package io.arbiter.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.decision.Settings;
import io.arbiter.document.Documents;
import io.arbiter.http.ArbiterServer;
import io.arbiter.http.ServerOptions;
import io.arbiter.kubernetes.ConfigMapNames;
import io.arbiter.kubernetes.KubernetesSettings;
import io.arbiter.kubernetes.KubernetesSource;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;

import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * bench/fleet.sh (issue 47): fabric8's emulated API server and three replicas in one JVM; CHANGES changes (policy PUTs
 * through a replica in turn, and backend table edits straight to the ConfigMap) while decisions flow. Prints, per
 * change, the time until every replica serves it, and the answers given with a superseded revision after that time
 * (a request sent once every replica served a newer content, answered with an older one).
 */
public final class FleetBench {

    private static final String TOKEN = "fleet-bench-token";
    private static final String NAMESPACE = "arbiter-bench";
    private static final String REQUEST = "{\"typeRefs\": [{\"path\": \"cap.type.helm.release.storage\", \"revision\": \"0.1.0\"}]}";

    private record Answer(long sentNanos, String pair) {
    }

    private record Change(long servedEverywhereNanos, String pair) {
    }

    public static void main(String[] args) throws Exception {
        int changes = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        KubernetesMockServer api = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(), false);
        api.start(InetAddress.getLoopbackAddress(), 0);
        java.util.function.Supplier<KubernetesClient> clients = () -> api.createClient(builder -> builder.editOrNewConfig()
                .withNamespace(NAMESPACE).withWatchReconnectInterval(50).endConfig());
        KubernetesClient admin = clients.get();
        String table = Files.readString(Path.of("decision-tables/backend/backend-priority.drl.csv"));
        admin.configMaps().inNamespace(NAMESPACE).resource(new ConfigMapBuilder().withNewMetadata()
                .withName(ConfigMapNames.policy("arbiter")).withLabels(ConfigMapNames.labels("arbiter", "policy")).endMetadata()
                .addToData(ConfigMapNames.POLICY_KEY, Files.readString(Path.of("fixtures/embedded/policy.yaml"))).build()).create();
        admin.configMaps().inNamespace(NAMESPACE).resource(new ConfigMapBuilder().withNewMetadata()
                .withName(ConfigMapNames.rules("arbiter", "backend")).withLabels(ConfigMapNames.labels("arbiter", "rules")).endMetadata()
                .addToData("backend.drl", Files.readString(Path.of("rules/backend/backend.drl")))
                .addToData("backend-priority.drl.csv", table).build()).create();

        List<ArbiterServer> replicas = new ArrayList<>();
        Object changed = new Object();
        for (int i = 0; i < 3; i++) {
            ArbiterServer server = ArbiterServer.start(new ServerOptions("127.0.0.1", 0, Settings.embedded(), TOKEN,
                    Duration.ofMillis(200)).withKubernetes(new KubernetesSettings(NAMESPACE, "arbiter", "arbiter-" + i,
                    Duration.ofSeconds(30), clients))).toCompletionStage().toCompletableFuture().get();
            ((KubernetesSource) server.decisions().source()).onChange(() -> {
                synchronized (changed) {
                    changed.notifyAll();
                }
            });
            replicas.add(server);
        }
        HttpClient http = HttpClient.newHttpClient();
        AtomicBoolean running = new AtomicBoolean(true);
        ConcurrentLinkedQueue<Answer> answers = new ConcurrentLinkedQueue<>();
        List<Thread> load = new ArrayList<>();
        for (ArbiterServer replica : replicas) {
            Thread thread = new Thread(() -> {
                while (running.get()) {
                    long sent = System.nanoTime();
                    JsonNode decision = json(send(http, replica.port(), "POST", "/v1/decisions/backend", REQUEST));
                    answers.add(new Answer(sent, decision.path("policyRevision").asText() + "/" + decision.path("rulesRevision").asText()));
                }
            });
            thread.start();
            load.add(thread);
        }

        List<Change> applied = new ArrayList<>();
        applied.add(new Change(System.nanoTime(), pair(replicas.get(0))));
        List<Long> millis = new ArrayList<>();
        for (int i = 1; i <= changes; i++) {
            long started = System.nanoTime();
            if (i % 2 == 1) {
                String policy = "typeInstance:\n  rules:\n    - typeRef: {path: cap.type.helm.*}\n"
                        + "      backend: {id: c268d3f5-8834-434b-bea2-b677793611c5, description: change " + i + "}\n";
                HttpResponse<String> put = send(http, replicas.get(i % 3).port(), "PUT", "/v1/policy", policy);
                if (put.statusCode() != 200) {
                    throw new IllegalStateException("PUT " + i + ": " + put.statusCode() + " " + put.body());
                }
            } else {
                String edited = table + "\n".repeat(i);
                admin.configMaps().inNamespace(NAMESPACE).withName(ConfigMapNames.rules("arbiter", "backend"))
                        .edit(configMap -> new ConfigMapBuilder(configMap).addToData("backend-priority.drl.csv", edited).build());
            }
            String previous = applied.get(applied.size() - 1).pair();
            synchronized (changed) {
                while (!replicas.stream().allMatch(server -> !pair(server).equals(previous)
                        && ((KubernetesSource) server.decisions().source()).servesLatest()
                        && pair(server).equals(pair(replicas.get(0))))) {
                    changed.wait(TimeUnit.SECONDS.toMillis(30));
                    if (System.nanoTime() - started > TimeUnit.SECONDS.toNanos(60)) {
                        throw new IllegalStateException("change " + i + " did not reach every replica within 60 s");
                    }
                }
            }
            long everywhere = System.nanoTime();
            applied.add(new Change(everywhere, pair(replicas.get(0))));
            millis.add((everywhere - started) / 1_000_000);
            System.out.printf("change %2d (%s): every replica serves it after %4d ms%n", i, i % 2 == 1 ? "PUT policy " : "table edit",
                    (everywhere - started) / 1_000_000);
        }
        running.set(false);
        for (Thread thread : load) {
            thread.join();
        }
        long superseded = 0;
        for (Answer answer : answers) {
            int current = 0;
            for (int k = 0; k < applied.size(); k++) {
                if (applied.get(k).servedEverywhereNanos() <= answer.sentNanos()) {
                    current = k;
                }
            }
            for (int k = 0; k < current; k++) {
                if (applied.get(k).pair().equals(answer.pair())) {
                    superseded++;
                    break;
                }
            }
        }
        millis.sort(Long::compare);
        System.out.printf("%d changes: until every replica serves a change, median %d ms, max %d ms%n", changes,
                millis.get(millis.size() / 2), millis.get(millis.size() - 1));
        System.out.printf("%d answers, %d with a superseded revision after every replica served a newer one%n", answers.size(), superseded);
        replicas.forEach(ArbiterServer::stop);
        admin.close();
        api.destroy();
        System.exit(0);
    }

    private static String pair(ArbiterServer server) {
        var snapshot = server.decisions().snapshot();
        return snapshot.policy().revision() + "/" + snapshot.ruleBases().get("capact.backend").revision();
    }

    private static HttpResponse<String> send(HttpClient http, int port, String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .method(method, HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", method.equals("PUT") ? "application/yaml" : "application/json");
        if (method.equals("PUT")) {
            request.header("Authorization", "Bearer " + TOKEN);
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException | InterruptedException e) {
            throw new IllegalStateException(method + " " + path + " failed", e);
        }
    }

    private static JsonNode json(HttpResponse<String> response) {
        try {
            return Documents.jsonMapper().readTree(response.body());
        } catch (java.io.IOException e) {
            throw new IllegalStateException("not JSON: " + response.body(), e);
        }
    }

    private FleetBench() {
    }
}
