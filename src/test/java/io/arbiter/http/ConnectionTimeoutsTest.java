package io.arbiter.http;

import io.arbiter.decision.Settings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A connection cannot be held open by sending nothing, or by sending a body that never ends: the idle timeout
 * closes silent connections, the read timeout answers a request whose body does not arrive in time.
 */
class ConnectionTimeoutsTest {

    private static final Duration IDLE = Duration.ofSeconds(2);
    /**
     * Waited out by the connections that stall: short, yet long against a request sent in one write on the loopback,
     * and far from the idle timeout, so that the 408 is written before the idle timeout could close a connection.
     */
    private static final Duration READ = Duration.ofMillis(250);
    /** Far longer than either timeout: a connection still open then is held open for good. */
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
    void twoHundredConnectionsThatStopMidHeadersAreClosed() throws IOException {
        List<RawConnection> connections = new ArrayList<>();
        try {
            for (int i = 0; i < 200; i++) {
                connections.add(new RawConnection(server.port())
                        .send("POST /v1/decisions/implementation HTTP/1.1\r\nHost: localhost\r\nContent-Type: appl"));
            }
            long deadline = System.nanoTime() + DEADLINE.toNanos();
            long open = 0;
            for (RawConnection connection : connections) {
                Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
                if (!connection.awaitClosed(left)) {
                    open++;
                }
            }
            assertEquals(0, open, "connections still open after " + DEADLINE);
        } finally {
            for (RawConnection connection : connections) {
                connection.close();
            }
        }
    }

    @Test
    void aStalledBodyIsAnswered408AndItsConnectionClosed() throws IOException {
        try (RawConnection connection = new RawConnection(server.port())) {
            connection.send("POST /v1/decisions/implementation HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"interface\":");

            assertTrue(connection.awaitClosed(DEADLINE), "still open: " + connection.received());
            assertEquals(408, connection.status(), connection.received());
            assertEquals("INVALID_REQUEST", connection.json().path("error").path("code").asText());
            assertTrue(connection.json().path("error").path("message").asText().contains("250 ms"), connection.received());
        }
    }

    @Test
    void aBodyThatArrivesInTimeIsRead() throws IOException {
        String body = "{\"interface\": {\"rules\": []}}";
        try (RawConnection connection = new RawConnection(server.port())) {
            connection.send("POST /v1/policy/validate HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                    + "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);

            assertTrue(connection.awaitClosed(DEADLINE), "still open: " + connection.received());
            assertEquals(200, connection.status(), connection.received());
        }
    }
}
