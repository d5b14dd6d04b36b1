package io.arbiter.http;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Text that is not valid Unicode, in any string of any decision target, is a located 400 before anything is decided
 * or logged; the decisions after it are answered as usual.
 */
class HostileTextTest {

    private static final String LONE = "a\\ud800";
    private static ArbiterServer server;
    private static HttpTestClient client;

    @BeforeAll
    static void start() throws Exception {
        server = TestServers.shared();
        client = new HttpTestClient(server.port());
    }


    /** Raw bytes written as ISO-8859-1 text, so that {@code "\u00ed"} is the byte 0xED. */
    private static HttpTestClient.Response post(String target, String latin1) {
        return client.send("POST", "/v1/decisions/" + target, "application/json",
                latin1.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static void assertLocated400(HttpTestClient.Response response, String path) {
        assertEquals(400, response.status(), response.body());
        assertEquals("INVALID_REQUEST", response.errorCode());
        JsonNode detail = response.json().path("error").path("details").get(0);
        assertEquals(path, detail.path("path").asText(), response.body());
        assertEquals(2, detail.path("line").asInt(), response.body());
        assertTrue(detail.path("column").asInt() > 0, response.body());
    }

    /** A request of each target with {@code %s} in one string, on line 2, and the path of that string. */
    static Stream<Arguments> requests() {
        return Stream.of(
                Arguments.of("rollout", "{\"decisionGroups\": [{\"groupIndex\": 0, \"clusters\": [\"c1\"]}],\n"
                        + " \"clusters\": [{\"name\": \"%s\", \"status\": \"Succeeded\"}]}", "$.clusters[0].name"),
                Arguments.of("backend", "{\n\"typeRefs\": [{\"path\": \"%s\"}]}", "$.typeRefs[0].path"),
                Arguments.of("dependencies", "{\"policies\": [{\"name\": \"app\", \"namespace\": \"p\",\n"
                        + " \"dependencies\": [{\"name\": \"%s\"}]}]}", "$.policies[0].dependencies[0].name"),
                Arguments.of("implementation", "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\"},\n"
                        + " \"implementations\": [{\"metadata\": {\"name\": \"%s\"}}]}", "$.implementations[0].metadata.name"));
    }

    @ParameterizedTest
    @MethodSource("requests")
    void aLoneSurrogateInAnyTargetIsALocated400AndTheNextDecisionIsAnswered(String target, String template, String path) {
        assertLocated400(post(target, template.formatted(LONE)), path);
        assertLocated400(post(target, template.formatted("x\u00ed\u00a0\u0080")), path);

        var next = post("backend", "{\"typeRefs\": [{\"path\": \"cap.type.helm.release.storage\", \"revision\": \"0.1.0\"}]}");
        assertEquals(200, next.status(), next.body());
    }

    @Test
    void overlongUtf8IsRefusedNotDecidedAsASlash() {
        var response = post("implementation", "{\n\"interface\": {\"path\": \"cap.\u00c0\u00af\"}}");

        assertLocated400(response, "$.interface.path");
        assertTrue(response.json().path("error").path("message").asText().contains("UTF-8"), response.body());
        assertFalse(response.body().contains("cap./"), response.body());
    }
}
