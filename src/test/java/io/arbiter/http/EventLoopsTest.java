package io.arbiter.http;

import io.arbiter.decision.Settings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The server runs one HTTP server per core, each on its own event loop, on one port: while one event loop is held
 * busy, connections handed to the others are still answered.
 */
class EventLoopsTest {

    private static ArbiterServer server;

    @BeforeAll
    static void start() throws Exception {
        server = ArbiterServer.start(new ServerOptions("127.0.0.1", 0, Settings.embedded(), null))
                .toCompletionStage().toCompletableFuture().get();
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    @Test
    void thereIsOneEventLoopPerCoreEachOnItsOwnThread() throws Exception {
        Set<String> threads = new HashSet<>();
        for (var context : server.eventLoops()) {
            CompletableFuture<String> thread = new CompletableFuture<>();
            context.runOnContext(ignored -> thread.complete(Thread.currentThread().getName()));
            threads.add(thread.get(10, TimeUnit.SECONDS));
        }

        assertEquals(Runtime.getRuntime().availableProcessors(), server.eventLoops().size());
        assertEquals(server.eventLoops().size(), threads.size(), "distinct event-loop threads: " + threads);
    }

    @Test
    void whileOneEventLoopIsBusyNewConnectionsAreAnsweredByAnother() throws Exception {
        assumeTrue(server.eventLoops().size() > 1, "one core: one event loop");
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch held = new CountDownLatch(1);
        server.eventLoops().get(0).runOnContext(ignored -> {
            held.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertTrue(held.await(10, TimeUnit.SECONDS));
        try {
            // Each request on a connection of its own: the connections are spread over the event loops in turn.
            List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
            for (int i = 0; i < 2 * server.eventLoops().size(); i++) {
                answers.add(HttpClient.newHttpClient().sendAsync(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.port() + "/healthz")).build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
            CompletableFuture.anyOf(answers.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
            long answered = answers.stream().filter(CompletableFuture::isDone).count();
            assertTrue(release.getCount() == 1 && answered >= 1, "answered while event loop 0 was held: " + answered);
        } finally {
            release.countDown();
        }
    }
}
