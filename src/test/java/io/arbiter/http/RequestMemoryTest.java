package io.arbiter.http;

import io.arbiter.decision.Settings;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.runtime.Decisions;
import io.arbiter.testing.Fixtures;
import io.arbiter.testing.Signal;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The request bytes the server holds at once are bounded, while bodies arrive and while they are decided: a request
 * that would pass a bound is refused 413 with Retry-After while others are held, a small one is never held back by
 * large ones, one alone always is served, and every request gives back what it took, however it ends.
 */
class RequestMemoryTest {

    private static final String SMALL_REQUEST = "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\"}}";
    /** An Interface-only request padded past {@link RequestMemory#SMALL} with white space. */
    private static final String LARGE_REQUEST = SMALL_REQUEST + " ".repeat(100_000);

    private static Vertx vertx;
    private static Decisions decisions;
    private HttpServer server;
    /** Fired by the bounds of {@link #memory} each time the bytes they hold change. */
    private final Signal bytesChanged = new Signal();

    @BeforeAll
    static void startVertx() {
        vertx = Vertx.vertx();
        decisions = new Decisions(PolicyTypeRegistry.discover(), Fixtures.snapshot(Fixtures.embeddedPolicy()));
    }

    @AfterAll
    static void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @AfterEach
    void stopServer() throws Exception {
        if (server != null) {
            server.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    private HttpTestClient serve(RequestMemory memory) throws Exception {
        server = vertx.createHttpServer()
                .requestHandler(ArbiterServer.router(vertx, decisions, new ServerOptions("127.0.0.1", 0, Settings.embedded(), null), memory))
                .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        return new HttpTestClient(server.actualPort());
    }

    private RequestMemory memory(long arriving, long deciding) {
        return new RequestMemory(new InFlightBytes(arriving, 0, bytesChanged), new InFlightBytes(arriving, 0, bytesChanged),
                new InFlightBytes(deciding, RequestMemory.SMALL, bytesChanged));
    }

    @Test
    void aRequestAloneIsTakenWhateverItsSizeAndAnotherOnlyWithinTheBound() {
        InFlightBytes inFlight = new InFlightBytes(150_000, RequestMemory.SMALL);

        assertTrue(inFlight.take(1_000_000), "alone");
        assertFalse(inFlight.take(100_000), "past the bound while another is in flight");
        assertTrue(inFlight.take(RequestMemory.SMALL), "small");
        inFlight.give(RequestMemory.SMALL);
        inFlight.give(1_000_000);
        assertTrue(inFlight.take(100_000));
        assertTrue(inFlight.take(50_000), "within the bound");
        assertFalse(inFlight.take(RequestMemory.SMALL + 1));
    }

    @Test
    void theBoundsFollowTheHeap() {
        RequestMemory memory = RequestMemory.forHeap(1L << 30);

        assertEquals(4L << 20, memory.deciding().bound());
        assertEquals(32L << 20, memory.arriving().bound());
        assertEquals(32L << 20, memory.arrivingSmall().bound());
        assertEquals(memory.arrivingSmall(), memory.arrivingFor(RequestMemory.SMALL));
        assertEquals(memory.arriving(), memory.arrivingFor(RequestMemory.SMALL + 1));
    }

    @Test
    void aLargeRequestPastTheDecidingBoundIsRefusedForNowAndASmallOneIsDecided() throws Exception {
        RequestMemory memory = memory(10_000_000, 150_000);

        refusedForNowWhileAnotherIsHeld(memory, memory.deciding(), "deciding");
    }

    /**
     * A small body can ask for much work: what a decision holds is counted by its work once that is known (issue 44),
     * not by its body alone, so while another decision holds the bound a small costly request is refused for now.
     */
    @Test
    void aSmallRequestIsCountedByTheHeapItsWorkImplies() throws Exception {
        RequestMemory memory = memory(10_000_000, 150_000);
        HttpTestClient client = serve(memory);
        // 10 items of 40 distinct attributes, 30 Implementations: 13,254 of the 18,000 units, about 47 MiB of heap
        String costly = io.arbiter.testing.WorkRequests.attributeConstraints(10, 30, 40).toString();
        assertTrue(costly.length() <= RequestMemory.SMALL, "a small body: " + costly.length());
        assertTrue(memory.deciding().take(100_000), "another decision held");

        HttpTestClient.Response refused = client.postJson("/v1/decisions/implementation", costly);
        HttpTestClient.Response small = client.postJson("/v1/decisions/implementation", SMALL_REQUEST);
        memory.deciding().give(100_000);
        awaitTaken(memory.deciding()::taken, 0);
        HttpTestClient.Response alone = client.postJson("/v1/decisions/implementation", costly);

        assertEquals(413, refused.status(), refused.body());
        assertEquals("1", refused.header("Retry-After"));
        assertTrue(refused.body().contains("13,254 units of work") && refused.body().contains("retry it shortly"),
                refused.body());
        assertEquals(200, small.status(), small.body());
        assertEquals(200, alone.status(), alone.body());
        awaitTaken(memory.deciding()::taken, 0);
    }

    @Test
    void aBodyPastTheArrivingBoundIsReadAndRefusedForNowAndASmallOneIsServed() throws Exception {
        RequestMemory memory = memory(150_000, 10_000_000);

        refusedForNowWhileAnotherIsHeld(memory, memory.arriving(), "receiving");
        awaitTaken(memory.arrivingSmall()::taken, 0);
    }

    /**
     * With 100,000 bytes held in {@code held}, a large request is refused for now, saying it was refused while
     * {@code doing}, and a small one is served; once they are given back, the large one alone is served.
     */
    private void refusedForNowWhileAnotherIsHeld(RequestMemory memory, InFlightBytes held, String doing) throws Exception {
        HttpTestClient client = serve(memory);
        assertTrue(held.take(100_000), "a large request held");

        HttpTestClient.Response refused = client.postJson("/v1/decisions/implementation", LARGE_REQUEST);
        HttpTestClient.Response small = client.postJson("/v1/decisions/implementation", SMALL_REQUEST);
        held.give(100_000);
        HttpTestClient.Response alone = client.postJson("/v1/decisions/implementation", LARGE_REQUEST);

        assertEquals(413, refused.status(), refused.body());
        assertEquals("PAYLOAD_TOO_LARGE", refused.errorCode());
        assertEquals("1", refused.header("Retry-After"));
        assertTrue(refused.body().contains(doing) && refused.body().contains("retry this " + LARGE_REQUEST.length()
                + "-byte request"), refused.body());
        assertEquals(200, small.status(), small.body());
        assertEquals(200, alone.status(), alone.body());
        // given back once the response has ended, which the client may see first
        awaitTaken(held::taken, 0);
    }

    @Test
    void aStalledBodyHoldsWhatItAnnouncesUntilItsClientGoesAway() throws Exception {
        RequestMemory memory = memory(150_000, 10_000_000);
        HttpTestClient client = serve(memory);

        try (Socket stalled = stall("Content-Length: 100000\r\n", 50_000)) {
            awaitTaken(memory.arriving()::taken, 100_000);
            HttpTestClient.Response refused = client.postJson("/v1/decisions/implementation", LARGE_REQUEST);
            HttpTestClient.Response small = client.postJson("/v1/decisions/implementation", SMALL_REQUEST);

            assertEquals(413, refused.status(), refused.body());
            assertEquals(200, small.status(), small.body());
        }
        awaitTaken(memory.arriving()::taken, 0);
    }

    @Test
    void aChunkedBodyIsCountedAsTheBodyLimit() throws Exception {
        RequestMemory memory = memory(10_000_000, 10_000_000);
        serve(memory);

        try (Socket stalled = stall("Transfer-Encoding: chunked\r\n", 0)) {
            stalled.getOutputStream().write("10\r\n{\"interface\": {".getBytes(StandardCharsets.US_ASCII));
            awaitTaken(memory.arriving()::taken, ServerOptions.MAX_BODY_BYTES);
        }
        awaitTaken(memory.arriving()::taken, 0);
    }

    /** A connection that sends a decision's head and {@code bytes} of its body, then nothing. */
    private Socket stall(String framing, int bytes) throws Exception {
        Socket socket = new Socket("127.0.0.1", server.actualPort());
        OutputStream out = socket.getOutputStream();
        out.write(("POST /v1/decisions/implementation HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" + framing
                + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(" ".repeat(bytes).getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return socket;
    }

    /** Returns once {@code taken} reads {@code expected}, read again each time the bytes held change. */
    private void awaitTaken(LongSupplier taken, long expected) throws InterruptedException {
        bytesChanged.await(taken::getAsLong, bytes -> bytes == expected, Duration.ofSeconds(10),
                bytes -> "expected " + expected + " bytes taken, not " + bytes);
    }
}
