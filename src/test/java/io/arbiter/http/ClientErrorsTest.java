package io.arbiter.http;

import io.arbiter.testing.LogCapture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a client controls is never the server's error: each request below is a JSON 4xx with the contract's error
 * body, and none of them logs a warning or an error (nor a stack trace) in the server or in Vert.x.
 */
class ClientErrorsTest {

    private static final String TOKEN = "s3cret";
    private static final String POLICY = "{\"interface\": {\"rules\": []}}";
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private static ArbiterServer server;
    private static HttpTestClient client;

    @RegisterExtension
    final LogCapture logs = LogCapture.of("io.vertx", "io.netty", "io.arbiter.http");

    @BeforeAll
    static void start() throws Exception {
        server = TestServers.embedded(TOKEN);
        client = new HttpTestClient(server.port());
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    @AfterEach
    void nothingLogged() {
        assertEquals(java.util.List.of(), logs.events().stream().map(Object::toString).toList());
    }

    private static void assertJsonError(int status, HttpTestClient.Response response) {
        assertEquals(status, response.status(), response.body());
        assertTrue(response.header("Content-Type").startsWith("application/json"), response.body());
        assertEquals(status == 401 ? "UNAUTHORIZED" : "INVALID_REQUEST", response.errorCode(), response.body());
        assertTrue(response.json().path("error").path("details").isArray(), response.body());
    }

    private static HttpTestClient.Response post(String path, String contentType, String body, String... headers) {
        return client.send("POST", path, contentType, body.getBytes(StandardCharsets.UTF_8), headers);
    }

    private static HttpTestClient.Response putPolicy(String query, String contentType, String... headers) {
        String[] all = new String[headers.length + 2];
        all[0] = "Authorization";
        all[1] = "Bearer " + TOKEN;
        System.arraycopy(headers, 0, all, 2, headers.length);
        return client.send("PUT", "/v1/policy" + query, contentType, POLICY.getBytes(StandardCharsets.UTF_8), all);
    }

    private static RawConnection exchange(String request) throws IOException {
        RawConnection connection = new RawConnection(server.port()).send(request);
        assertTrue(connection.awaitClosed(DEADLINE), "still open: " + connection.received());
        return connection;
    }

    /** A request the JDK's client would not send (its URI does not parse), on a connection of its own. */
    private static RawConnection raw(String method, String target, String body) throws IOException {
        return exchange(method + " " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);
    }

    private static void assertJsonError(int status, RawConnection answer, String fragment) {
        assertEquals(status, answer.status(), answer.received());
        assertTrue(answer.header("Content-Type").startsWith("application/json"), answer.received());
        assertEquals("INVALID_REQUEST", answer.json().path("error").path("code").asText(), answer.received());
        assertTrue(answer.json().path("error").path("message").asText().contains(fragment), answer.received());
    }

    @Test
    void anUndecodablePercentEncodingInTheQueryIs400() throws IOException {
        try (RawConnection validate = raw("POST", "/v1/policy/validate?as=%", POLICY);
             RawConnection dryRun = raw("PUT", "/v1/policy?dryRun=%", POLICY);
             RawConnection key = raw("POST", "/v1/decisions/backend?x=%", "{}");
             RawConnection notUtf8 = raw("POST", "/v1/policy/validate?as=%ff", POLICY)) {
            assertJsonError(400, validate, "query");
            assertJsonError(400, dryRun, "query");
            assertJsonError(400, key, "query");
            assertJsonError(400, notUtf8, "query");
        }
    }

    @Test
    void anUndecodablePercentEncodingInThePathIs400() throws IOException {
        try (RawConnection decision = raw("GET", "/v1/decisions/%zz", "");
             RawConnection ui = raw("GET", "/ui/%", "")) {
            assertJsonError(400, decision, "path");
            assertJsonError(400, ui, "path");
        }
    }

    @Test
    void anHttp11RequestWithoutHostIs400() throws IOException {
        try (RawConnection answer = exchange("GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n")) {
            assertEquals(400, answer.status(), answer.received());
            assertEquals("INVALID_REQUEST", answer.json().path("error").path("code").asText(), answer.received());
            assertTrue(answer.json().path("error").path("message").asText().contains("Host"), answer.received());
        }
    }

    @Test
    void onTheLoopbackInterfaceAHostNamingAnotherHostIs421() throws IOException {
        // a page of evil.example whose name now resolves to 127.0.0.1 (DNS rebinding)
        try (RawConnection answer = exchange("GET /v1/policy HTTP/1.1\r\nHost: evil.example:8080\r\n\r\n")) {
            assertEquals(421, answer.status(), answer.received());
            assertEquals("INVALID_REQUEST", answer.json().path("error").path("code").asText(), answer.received());
            assertTrue(answer.json().path("error").path("message").asText().contains("evil.example"), answer.received());
        }
        for (String host : new String[] {"localhost", "LOCALHOST:8080", "127.0.0.1", "127.0.0.1:1", "[::1]", "[::1]:8080"}) {
            try (RawConnection answer = exchange("GET /healthz HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")) {
                assertEquals(200, answer.status(), host + ": " + answer.received());
            }
        }
    }

    @Test
    void aBodyThatIsNeitherJsonNorYamlIs415NamingItsType() {
        HttpTestClient.Response text = post("/v1/decisions/implementation", "text/plain",
                "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\"}}");
        HttpTestClient.Response untyped = post("/v1/policy/validate", null, "%zz");
        HttpTestClient.Response form = post("/v1/policy/validate", "application/x-www-form-urlencoded", "a=%zz");

        assertJsonError(415, text);
        assertTrue(text.json().path("error").path("message").asText().contains("text/plain"), text.body());
        assertJsonError(415, untyped);
        assertJsonError(415, form);
        assertEquals(200, post("/v1/policy/validate", "application/json; charset=utf-8", POLICY).status());
        assertEquals(200, post("/v1/policy/validate", "application/yaml", "interface: {rules: []}").status());
    }

    @Test
    void aContentEncodingOtherThanIdentityIs415NamingIt() {
        HttpTestClient.Response gzip = post("/v1/policy/validate", "application/json", POLICY, "Content-Encoding", "gzip");

        assertJsonError(415, gzip);
        assertTrue(gzip.json().path("error").path("message").asText().contains("gzip"), gzip.body());
        assertEquals(200, post("/v1/policy/validate", "application/json", POLICY, "Content-Encoding", "identity").status());
    }

    @Test
    void anUnknownQueryParameterOnAnAdminRouteIs400AndNothingIsApplied() {
        String before = client.get("/v1/policy").header("ETag");

        HttpTestClient.Response misspelt = putPolicy("?dry_run=true", "application/json");

        assertJsonError(400, misspelt);
        String message = misspelt.json().path("error").path("message").asText();
        assertTrue(message.contains("dry_run") && message.contains("dryRun"), misspelt.body());
        assertEquals(before, client.get("/v1/policy").header("ETag"));
        assertJsonError(400, post("/v1/impact?sweeep=false", "application/json", POLICY, "Authorization", "Bearer " + TOKEN));
        assertJsonError(400, post("/v1/decisions/implementation?explain=true", "application/json", "{}"));
    }

    @Test
    void anUnauthenticatedAdminRequestIsRefusedBeforeItsBodyIsAskedFor() throws IOException {
        try (RawConnection connection = new RawConnection(server.port())) {
            connection.send("PUT /v1/policy HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Expect: 100-continue\r\nContent-Length: " + POLICY.length() + "\r\n\r\n");

            assertTrue(connection.awaitClosed(DEADLINE), "still open: " + connection.received());
            assertFalse(connection.received().startsWith("HTTP/1.1 100"), connection.received());
            assertEquals(401, connection.status(), connection.received());
            assertEquals("close", connection.header("Connection"), connection.received());
        }
    }
}
