package io.arbiter.http;

import io.arbiter.document.Documents;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The explorer's routes over HTTP: its page and assets, nothing outside them, and the two views it reads. */
class UiRoutesTest {

    private static ArbiterServer server;
    private static HttpTestClient client;

    @BeforeAll
    static void start() throws Exception {
        server = TestServers.shared();
        client = new HttpTestClient(server.port());
    }


    @Test
    void thePageAndItsModulesAreServedFromTheJarWithAStrictContentSecurityPolicy() {
        var page = client.get("/ui/");
        assertEquals(200, page.status());
        assertTrue(page.header("Content-Type").startsWith("text/html"), page.header("Content-Type"));
        assertTrue(page.body().contains("<script type=\"module\" src=\"app.js\"></script>"), page.body());
        assertTrue(page.header("Content-Security-Policy").contains("script-src 'self'"), page.header("Content-Security-Policy"));
        var module = client.get("/ui/views/decision.js");
        assertEquals(200, module.status());
        assertTrue(module.header("Content-Type").contains("javascript"), module.header("Content-Type"));

        var bare = client.get("/ui");
        assertEquals(301, bare.status());
        assertEquals("/ui/", bare.header("Location"));
    }

    @Test
    void nothingOutsideTheExplorersFolderIsServed() {
        List<String> served = new ArrayList<>();
        for (String path : List.of("/ui/%2e%2e/logback.xml", "/ui/..%2flogback.xml", "/ui/views/../../logback.xml",
                "/ui/.%2e/schemas/policy-0.2.0.json", "/ui//etc/passwd", "/ui/%00", "/ui/app.js%00.html", "/ui/nope.js",
                "/ui/views/", "/ui/../rules/implementation/20-matching.drl")) {
            var response = client.get(path);
            if (response.status() != 404 || !"NOT_FOUND".equals(response.errorCode())) {
                served.add(path + " -> " + response.status());
            }
        }
        assertEquals(List.of(), served);
    }

    @Test
    void theCatalogListsEveryInterfaceWithItsImplementations() {
        var catalog = client.get("/v1/catalog").json();
        assertEquals(server.decisions().snapshot().catalog().revision(), catalog.path("catalogRevision").asText());
        var postgres = catalog.path("interfaces").get(0);
        assertEquals("cap.interface.database.postgresql.install", postgres.path("path").asText());
        assertEquals("0.1.0", postgres.path("revision").asText());
        assertEquals(4, postgres.path("implementations").size());
        assertEquals(server.decisions().snapshot().catalog().interfacePaths().size(), catalog.path("interfaces").size());
    }

    @Test
    void theRulesNameEachRuleBasesPhasesAndSources() {
        var sets = client.get("/v1/rules").json().path("ruleSets");
        var implementation = java.util.stream.StreamSupport.stream(sets.spliterator(), false)
                .filter(set -> set.path("policyType").asText().equals("capact.implementation")).findFirst().orElseThrow();
        assertEquals(server.decisions().snapshot().ruleBase("capact.implementation").revision(), implementation.path("rulesRevision").asText());
        assertEquals(io.arbiter.decision.implementation.ImplementationDecider.PHASES, Documents.jsonMapper().convertValue(
                implementation.path("phases"), new com.fasterxml.jackson.core.type.TypeReference<java.util.List<String>>() { }));
        var catchAll = java.util.stream.StreamSupport.stream(implementation.path("rules").spliterator(), false)
                .filter(rule -> rule.path("rule").asText().equals("io.arbiter.rules.implementation.Catch-all cap.*")).findFirst().orElseThrow();
        assertEquals("io.arbiter.rules.implementation", catchAll.path("package").asText());
        assertEquals("decision-tables/implementation/rule-key-precedence.drl.csv", catchAll.path("file").asText());
        assertEquals(12, catchAll.path("row").asInt());
    }
}
