package io.arbiter.http;

import io.arbiter.decision.Settings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A request's headers are bound by the read timeout, not only by the idle timeout: the idle timeout here is far
 * longer than the test waits, so a connection closed in the test was closed by the read timeout.
 */
class RequestHeadTimeoutTest {

    private static final Duration IDLE = Duration.ofMinutes(10);
    /** Waited out by each test: short, yet long against a head sent in one write on the loopback. */
    private static final Duration READ = Duration.ofMillis(250);
    /** A trickled head sends a byte this often: several bytes go in before the read timeout cuts it off. */
    private static final Duration TRICKLE = READ.dividedBy(10);
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private static ArbiterServer server;

    @BeforeAll
    static void start() throws Exception {
        server = ArbiterServer.start(new ServerOptions("127.0.0.1", 0, Settings.embedded(), null, Duration.ofMillis(200))
                .withTimeouts(IDLE, READ)).toCompletionStage().toCompletableFuture().get();
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    @Test
    void headersThatStopHalfwayAreAnswered408AndClosed() throws IOException {
        try (RawConnection connection = new RawConnection(server.port())
                .send("POST /v1/decisions/implementation HTTP/1.1\r\nHost: localhost\r\nContent-Type: appl")) {
            assertTrue(connection.awaitClosed(DEADLINE), "still open: " + connection.received());
            assertEquals(408, connection.status(), connection.received());
            assertEquals("INVALID_REQUEST", connection.json().path("error").path("code").asText());
            assertTrue(connection.json().path("error").path("message").asText().contains("headers"), connection.received());
        }
    }

    @Test
    void headersTrickledAByteAtATimeAreCutOff() throws IOException, InterruptedException {
        String head = "GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + "s".repeat(200) + "\r\n\r\n";
        try (RawConnection connection = new RawConnection(server.port())) {
            long deadline = System.nanoTime() + DEADLINE.toNanos();
            int sent = 0;
            // never idle, and the whole head would take some 25 read timeouts
            while (sent < head.length() && !connection.awaitClosed(TRICKLE) && System.nanoTime() < deadline) {
                try {
                    connection.send(head.substring(sent, sent + 1));
                } catch (IOException closedByServer) {
                    break;
                }
                sent++;
            }
            assertTrue(connection.awaitClosed(DEADLINE), "still open: " + connection.received());
            assertTrue(sent < head.length(), "the whole head was accepted a byte at a time");
            assertEquals(408, connection.status(), connection.received());
        }
    }

    @Test
    void aBodyStalledAfterAnEarlyAnswerIsClosedAtTheReadTimeout() throws IOException {
        // refused from its head (a form), so answered before its body: the rest of the body then never comes
        try (RawConnection connection = new RawConnection(server.port())
                .send("POST /v1/decisions/implementation HTTP/1.1\r\nHost: localhost\r\n"
                        + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\na=")) {
            assertTrue(connection.awaitClosed(DEADLINE), "still open: " + connection.received());
            assertEquals(415, connection.status(), connection.received());
            assertEquals("close", connection.header("Connection"), connection.received());
        }
    }

    @Test
    void aKeepAliveConnectionIdleBetweenRequestsIsLeftToTheIdleTimeout() throws IOException {
        try (RawConnection connection = new RawConnection(server.port())) {
            connection.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n");
            // three read timeouts with nothing sent: idle between requests, not a stalled head
            assertFalse(connection.awaitClosed(READ.multipliedBy(3)), "closed while idle: " + connection.received());
            assertEquals(200, connection.status(), connection.received());
            connection.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
            assertTrue(connection.awaitClosed(DEADLINE), "still open: " + connection.received());
            assertFalse(connection.received().contains("408"), connection.received());
        }
    }
}
