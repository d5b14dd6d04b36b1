package io.arbiter.http;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Requests the HTTP layer refuses before a route runs get the contract's JSON error body too; a form-encoded
 * body is refused rather than decoded; If-Match follows RFC 9110.
 */
class ProtocolErrorsTest {

    private static final String TOKEN = "s3cret";
    private static final String POLICY = "interface: {rules: [{interface: {path: cap.*}, oneOf: [{implementationConstraints: {}}]}]}";
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private static ArbiterServer server;
    private static HttpTestClient client;

    @BeforeAll
    static void start() throws Exception {
        server = TestServers.embedded(TOKEN);
        client = new HttpTestClient(server.port());
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    /** Sends raw bytes and returns the connection once the server has answered and closed it. */
    private static RawConnection exchange(String request) throws IOException {
        RawConnection connection = new RawConnection(server.port()).send(request);
        assertTrue(connection.awaitClosed(DEADLINE), "still open: " + connection.received());
        return connection;
    }

    private static void assertJsonError(RawConnection answer, int status) {
        assertEquals(status, answer.status(), answer.received());
        assertTrue(answer.header("Content-Type").startsWith("application/json"), answer.received());
        assertEquals("INVALID_REQUEST", answer.json().path("error").path("code").asText(), answer.received());
        assertTrue(answer.json().path("error").path("details").isArray(), answer.received());
    }

    @Test
    void aTooLongRequestLineIs414WithAJsonBody() throws IOException {
        try (RawConnection answer = exchange("GET /" + "a".repeat(5000) + " HTTP/1.1\r\nHost: localhost\r\n\r\n")) {
            assertJsonError(answer, 414);
            assertTrue(answer.json().path("error").path("message").asText().contains("4096"), answer.received());
        }
    }

    @Test
    void tooLargeHeadersAre431WithAJsonBody() throws IOException {
        try (RawConnection answer = exchange("GET /readyz HTTP/1.1\r\nHost: localhost\r\nX-Big: " + "b".repeat(9000) + "\r\n\r\n")) {
            assertJsonError(answer, 431);
            assertTrue(answer.json().path("error").path("message").asText().contains("8192"), answer.received());
        }
    }

    @Test
    void aMalformedRequestLineOrHeaderIs400WithAJsonBody() throws IOException {
        try (RawConnection garbage = exchange("GARBAGE\r\n\r\n");
             RawConnection badHeader = exchange("GET /readyz HTTP/1.1\r\nHost: localhost\r\nNo colon here\r\n\r\n");
             RawConnection badLength = exchange("POST /v1/policy/validate HTTP/1.1\r\nHost: localhost\r\nContent-Length: ten\r\n\r\n")) {
            assertJsonError(garbage, 400);
            assertJsonError(badHeader, 400);
            assertJsonError(badLength, 400);
        }
    }

    @Test
    void anHttpMajorVersionOtherThan1Is400WithAJsonBodyNamingIt() throws IOException {
        for (String version : new String[] {"HTTP/9.9", "HTTP/2.0", "HTTP/0.9"}) {
            try (RawConnection answer = exchange("GET /healthz " + version + "\r\nHost: localhost\r\n\r\n")) {
                assertJsonError(answer, 400);
                assertTrue(answer.json().path("error").path("message").asText().contains(version), answer.received());
            }
        }
    }

    @Test
    void anHttp2PriorKnowledgePrefaceIs400() throws IOException {
        try (RawConnection answer = exchange("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")) {
            assertJsonError(answer, 400);
        }
    }

    @Test
    void aLaterHttp1MinorVersionIsServedAsHttp11() throws IOException {
        try (RawConnection answer = exchange("GET /healthz HTTP/1.7\r\nHost: localhost\r\nConnection: close\r\n\r\n")) {
            assertEquals(200, answer.status(), answer.received());
            assertTrue(answer.received().startsWith("HTTP/1.1 200"), answer.received());
        }
    }

    @Test
    void http10IsStillServed() throws IOException {
        try (RawConnection answer = exchange("GET /healthz HTTP/1.0\r\n\r\n")) {
            assertEquals(200, answer.status(), answer.received());
        }
    }

    @Test
    void aJsonBodySentAsAFormIs415NamingTheAcceptedTypes() {
        // a form decoder reads "%zz" up to the "&" as an (undecodable) field name
        byte[] body = "{\"interface\": {\"path\": \"cap.interface.%zz&x\"}}".getBytes(StandardCharsets.UTF_8);

        var form = client.send("POST", "/v1/decisions/implementation", "application/x-www-form-urlencoded", body);
        var multipart = client.send("POST", "/v1/policy/validate", "multipart/form-data; boundary=x", body);

        assertEquals(415, form.status(), form.body());
        assertEquals("INVALID_REQUEST", form.errorCode());
        assertTrue(form.json().path("error").path("message").asText().contains("application/json"), form.body());
        assertEquals(415, multipart.status(), multipart.body());
    }

    private static HttpTestClient.Response put(String yaml, String ifMatch) {
        return client.send("PUT", "/v1/policy", "application/yaml", yaml.getBytes(StandardCharsets.UTF_8),
                "Authorization", "Bearer " + TOKEN, "If-Match", ifMatch);
    }

    private static String etag() {
        return client.get("/v1/policy").header("ETag");
    }

    @Test
    void ifMatchStarMatchesAnyCurrentPolicy() {
        var answer = put(POLICY, "*");

        assertEquals(200, answer.status(), answer.body());
    }

    @Test
    void ifMatchListContainingTheCurrentETagMatches() {
        var answer = put(POLICY, "\"0000000000000000\", " + etag() + ",\"ffffffffffffffff\"");

        assertEquals(200, answer.status(), answer.body());
    }

    @Test
    void ifMatchComparesStronglySoAWeakETagNeverMatches() {
        var answer = put(POLICY, "W/" + etag());

        assertEquals(412, answer.status(), answer.body());
        assertEquals("POLICY_CONFLICT", answer.errorCode());
    }

    @Test
    void ifMatchListWithoutTheCurrentETagIs412() {
        var answer = put(POLICY, "\"0000000000000000\", \"ffffffffffffffff\"");

        assertEquals(412, answer.status(), answer.body());
        assertTrue(answer.json().path("error").path("message").asText().contains("0000000000000000, ffffffffffffffff"), answer.body());
    }

    @Test
    void aMalformedIfMatchIs400() {
        var unquoted = put(POLICY, "abc");
        var unterminated = put(POLICY, "\"abc");

        assertEquals(400, unquoted.status(), unquoted.body());
        assertEquals("INVALID_REQUEST", unquoted.errorCode());
        assertEquals(400, unterminated.status(), unterminated.body());
    }
}
