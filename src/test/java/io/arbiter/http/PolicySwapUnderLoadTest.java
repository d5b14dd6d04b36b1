package io.arbiter.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.policy.PolicyParser;
import io.arbiter.testing.Signal;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Decisions see one consistent snapshot: 8 threads decide continuously while the global policy is replaced 50
 * times, alternating two policies with different outcomes. No request fails, decisions are made under both
 * policies, every outcome matches the policy revision its response reports, and the last policy put serves.
 */
class PolicySwapUnderLoadTest {

    private static final String TOKEN = "swap";
    private static final String DENY = "interface: {rules: [{interface: {path: cap.interface.database.postgresql.install}, oneOf: []}]}";
    private static final String ALLOW = """
            interface:
              default: {inject: {requiredTypeInstances: [{id: c268d3f5-8834-434b-bea2-b677793611c5}]}}
              rules: [{interface: {path: cap.*}, oneOf: [{implementationConstraints: {}}]}]
            """;
    /** A server that errs or hangs fails the test within this, instead of hanging it. */
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static ArbiterServer server;

    @BeforeAll
    static void start() throws Exception {
        server = TestServers.embedded(TOKEN);
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
        Set<String> seen = ConcurrentHashMap.newKeySet();
        Map<String, AtomicLong> answeredUnder = Map.of(revision(DENY), new AtomicLong(), revision(ALLOW), new AtomicLong());
        Signal answered = new Signal();
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> deciders = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            deciders.add(pool.submit(() -> {
                HttpTestClient client = new HttpTestClient(server.port());
                // every answer counts, a failure too: a failing server ends the loop instead of spinning on it
                for (int answers = 0; (swapping.get() || answers < 20) && System.nanoTime() < deadline; answers++) {
                    var response = client.postJson("/v1/decisions/implementation",
                            "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\"}}");
                    if (response.status() != 200) {
                        failures.add(response.status() + " " + response.body());
                        continue;
                    }
                    JsonNode decision = response.json();
                    String revision = decision.path("policyRevision").asText();
                    String want = expected.get(revision);
                    seen.add(revision + " " + decision.path("outcome").asText());
                    if (!decision.path("outcome").asText().equals(want)) {
                        failures.add("revision " + revision + " answered " + decision.path("outcome").asText()
                                + ", expected " + want);
                    }
                    if (answeredUnder.containsKey(revision)) {
                        answeredUnder.get(revision).incrementAndGet();
                    }
                    answered.run();
                }
                return null;
            }));
        }
        try {
            for (int i = 0; i < 50 && System.nanoTime() < deadline; i++) {
                String policy = i % 2 == 0 ? DENY : ALLOW;
                var put = admin.send("PUT", "/v1/policy", "application/yaml", policy.getBytes(),
                        "Authorization", "Bearer " + TOKEN);
                if (put.status() != 200) {
                    failures.add("PUT " + put.status() + " " + put.body());
                    continue;
                }
                // the next swap waits for a decision answered under this policy, so that decisions run under both
                AtomicLong under = answeredUnder.get(revision(policy));
                long before = under.get();
                answered.await(() -> under.get() > before, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())),
                        () -> "no decision answered under policy " + revision(policy) + "; " + failures.size()
                                + " failures, e.g. " + failures.peek());
            }
        } finally {
            swapping.set(false);
        }
        try {
            for (Future<?> decider : deciders) {
                decider.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        var last = admin.postJson("/v1/decisions/implementation",
                "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\"}}").json();

        assertTrue(failures.isEmpty(), failures.size() + " failures, e.g. " + failures.peek());
        assertEquals(Set.of(revision(DENY) + " DENIED", revision(ALLOW) + " SELECTED"), seen,
                "decisions under both policies, each with its own outcome");
        assertEquals(revision(ALLOW), last.path("policyRevision").asText(), "the last policy put serves");
        assertEquals("SELECTED", last.path("outcome").asText());
    }
}
