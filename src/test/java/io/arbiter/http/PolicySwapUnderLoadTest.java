package io.arbiter.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.decision.Settings;
import io.arbiter.policy.PolicyParser;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Decisions see one consistent snapshot: 8 threads decide continuously while the global policy is replaced 50
 * times, alternating two policies with different outcomes. No request fails, and every outcome matches the
 * policy revision its response reports.
 */
class PolicySwapUnderLoadTest {

    private static final String TOKEN = "swap";
    private static final String DENY = "interface: {rules: [{interface: {path: cap.interface.database.postgresql.install}, oneOf: []}]}";
    private static final String ALLOW = """
            interface:
              default: {inject: {requiredTypeInstances: [{id: c268d3f5-8834-434b-bea2-b677793611c5}]}}
              rules: [{interface: {path: cap.*}, oneOf: [{implementationConstraints: {}}]}]
            """;
    private static ArbiterServer server;

    @BeforeAll
    static void start() throws Exception {
        server = ArbiterServer.start(new ServerOptions("127.0.0.1", 0, Settings.embedded(), TOKEN, Duration.ofMillis(200)))
                .toCompletionStage().toCompletableFuture().get();
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    private static String revision(String yaml) {
        return PolicyParser.parse(yaml.getBytes(), "application/yaml").revision();
    }

    @Test
    void everyOutcomeMatchesThePolicyRevisionItReports() throws Exception {
        Map<String, String> expected = Map.of(revision(DENY), "DENIED", revision(ALLOW), "SELECTED");
        HttpTestClient admin = new HttpTestClient(server.port());
        assertEquals(200, admin.send("PUT", "/v1/policy", "application/yaml", ALLOW.getBytes(), "Authorization", "Bearer " + TOKEN).status());
        AtomicBoolean swapping = new AtomicBoolean(true);
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<Integer>> deciders = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            deciders.add(pool.submit(() -> {
                HttpTestClient client = new HttpTestClient(server.port());
                int decided = 0;
                while (swapping.get() || decided < 20) {
                    var response = client.postJson("/v1/decisions/implementation",
                            "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\"}}");
                    if (response.status() != 200) {
                        failures.add(response.status() + " " + response.body());
                        continue;
                    }
                    JsonNode decision = response.json();
                    String want = expected.get(decision.path("policyRevision").asText());
                    if (!decision.path("outcome").asText().equals(want)) {
                        failures.add("revision " + decision.path("policyRevision").asText() + " answered "
                                + decision.path("outcome").asText() + ", expected " + want);
                    }
                    decided++;
                }
                return decided;
            }));
        }
        for (int i = 0; i < 50; i++) {
            var put = admin.send("PUT", "/v1/policy", "application/yaml", (i % 2 == 0 ? DENY : ALLOW).getBytes(),
                    "Authorization", "Bearer " + TOKEN);
            if (put.status() != 200) {
                failures.add("PUT " + put.status() + " " + put.body());
            }
            Thread.sleep(10);
        }
        swapping.set(false);
        int total = 0;
        for (Future<Integer> decider : deciders) {
            total += decider.get();
        }
        pool.shutdown();

        assertTrue(failures.isEmpty(), failures.size() + " failures, e.g. " + failures.peek());
        assertTrue(total >= 160, "decisions made: " + total);
    }
}
