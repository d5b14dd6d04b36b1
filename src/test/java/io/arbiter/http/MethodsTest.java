package io.arbiter.http;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every GET route answers HEAD as GET without the body; every 405 says in {@code Allow} what the route takes. */
class MethodsTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private static ArbiterServer server;
    private static HttpTestClient client;

    @BeforeAll
    static void start() throws Exception {
        server = TestServers.shared();
        client = new HttpTestClient(server.port());
    }

    private static RawConnection exchange(String request) throws IOException {
        RawConnection connection = new RawConnection(server.port()).send(request);
        assertTrue(connection.awaitClosed(DEADLINE), "still open: " + connection.received());
        return connection;
    }

    @Test
    void headIsAnsweredAsGetWithoutTheBody() throws IOException {
        for (String path : List.of("/healthz", "/readyz", "/v1/status", "/v1/policy", "/metrics", "/openapi.json")) {
            String getType = client.get(path).header("Content-Type");
            try (RawConnection head = exchange("HEAD " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")) {
                assertEquals(200, head.status(), path + ": " + head.received());
                assertEquals(getType, head.header("Content-Type"), path + ": " + head.received());
                String text = head.received();
                assertEquals("", text.substring(text.indexOf("\r\n\r\n") + 4), path + ": a body was sent");
            }
        }
        try (RawConnection page = exchange("HEAD /ui/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")) {
            assertEquals(200, page.status(), page.received());
            assertTrue(page.received().endsWith("\r\n\r\n"), "a body was sent: " + page.received());
        }
    }

    @Test
    void every405NamesTheAllowedMethods() {
        HttpTestClient.Response health = client.send("DELETE", "/healthz", null, null);
        HttpTestClient.Response policy = client.send("DELETE", "/v1/policy", null, null);
        HttpTestClient.Response decision = client.send("PUT", "/v1/decisions/implementation", "application/json", "{}".getBytes());

        assertEquals(405, health.status(), health.body());
        assertEquals("INVALID_REQUEST", health.errorCode());
        assertEquals("GET, HEAD", health.header("Allow"));
        assertEquals(405, policy.status(), policy.body());
        assertEquals("GET, HEAD, PUT", policy.header("Allow"));
        assertEquals(405, decision.status(), decision.body());
        assertTrue(decision.header("Allow").contains("POST"), decision.header("Allow"));
    }
}
