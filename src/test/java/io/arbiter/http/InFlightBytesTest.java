package io.arbiter.http;

import io.arbiter.decision.Settings;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.runtime.Decisions;
import io.arbiter.testing.Fixtures;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Large requests are decided only as many at once as the heap allows: one that would pass the bound is refused 413
 * with Retry-After while others are in flight, a small one never is, and one alone always is decided.
 */
class InFlightBytesTest {

    private static final String SMALL_REQUEST = "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\"}}";
    /** An Interface-only request padded past {@link InFlightBytes#SMALL} with white space. */
    private static final String LARGE_REQUEST = SMALL_REQUEST + " ".repeat(100_000);

    private static Vertx vertx;

    @BeforeAll
    static void startVertx() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void aRequestAloneIsTakenWhateverItsSizeAndAnotherOnlyWithinTheBound() {
        InFlightBytes inFlight = new InFlightBytes(150_000);

        assertTrue(inFlight.take(1_000_000), "alone");
        assertFalse(inFlight.take(100_000), "past the bound while another is in flight");
        assertTrue(inFlight.take(InFlightBytes.SMALL), "small");
        inFlight.give(InFlightBytes.SMALL);
        inFlight.give(1_000_000);
        assertTrue(inFlight.take(100_000));
        assertTrue(inFlight.take(50_000), "within the bound");
        assertFalse(inFlight.take(InFlightBytes.SMALL + 1));
    }

    @Test
    void theBoundFollowsTheHeap() {
        assertEquals(4L << 20, InFlightBytes.forHeap(1L << 30).bound());
    }

    @Test
    void aLargeRequestPastTheBoundIsRefusedForNowAndASmallOneIsDecided() throws Exception {
        InFlightBytes inFlight = new InFlightBytes(150_000);
        Decisions decisions = new Decisions(PolicyTypeRegistry.discover(), Fixtures.snapshot(Fixtures.embeddedPolicy()));
        HttpServer server = vertx.createHttpServer()
                .requestHandler(ArbiterServer.router(vertx, decisions, new ServerOptions("127.0.0.1", 0, Settings.embedded(), null), inFlight))
                .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        HttpTestClient client = new HttpTestClient(server.actualPort());
        assertTrue(inFlight.take(100_000), "a large decision in flight");

        HttpTestClient.Response refused = client.postJson("/v1/decisions/implementation", LARGE_REQUEST);
        HttpTestClient.Response small = client.postJson("/v1/decisions/implementation", SMALL_REQUEST);
        inFlight.give(100_000);
        HttpTestClient.Response alone = client.postJson("/v1/decisions/implementation", LARGE_REQUEST);

        assertEquals(413, refused.status(), refused.body());
        assertEquals("PAYLOAD_TOO_LARGE", refused.errorCode());
        assertEquals("1", refused.header("Retry-After"));
        assertTrue(refused.body().contains("retry this " + LARGE_REQUEST.length() + "-byte request"), refused.body());
        assertEquals(200, small.status(), small.body());
        assertEquals(200, alone.status(), alone.body());
        assertTrue(inFlight.take(1_000_000), "every request gave back what it took");
        server.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
}
