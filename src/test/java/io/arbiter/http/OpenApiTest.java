package io.arbiter.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import io.arbiter.decision.Settings;
import io.arbiter.document.JsonSchemas;
import io.arbiter.policytype.Target;
import io.arbiter.testing.LogCapture;
import io.arbiter.testing.ResponseContract;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** GET /openapi.json: every route of the router is in it, and every example validates and is decided. */
class OpenApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static ArbiterServer server;
    private static HttpTestClient client;
    private static JsonNode document;

    /** The schemas here have the document's components at their root, a keyword the validator warns it does not know. */
    @RegisterExtension
    static final LogCapture validatorLog = LogCapture.of("com.networknt.schema.UnknownKeywordFactory");

    @BeforeAll
    static void start() throws Exception {
        server = TestServers.shared();
        client = new HttpTestClient(server.port());
        var response = client.get("/openapi.json");
        assertEquals(200, response.status());
        assertTrue(response.header("Content-Type").startsWith("application/json"), response.header("Content-Type"));
        document = response.json();
    }


    @Test
    void isAnOpenApi31Document() {
        assertEquals("3.1.0", document.path("openapi").asText());
        assertFalse(document.path("info").path("title").asText().isBlank());
        assertTrue(document.path("components").path("schemas").has("Error"));
    }

    @Test
    void everyRouteOfTheRouterIsInIt() {
        Vertx vertx = Vertx.vertx();
        try {
            var router = ArbiterServer.router(vertx, server.decisions(),
                    new ServerOptions("127.0.0.1", 0, Settings.embedded(), null));
            Set<String> routes = new TreeSet<>();
            for (Route route : router.getRoutes()) {
                if (route.getPath() == null) {
                    continue; // handlers of every request (guards, body), not endpoints
                }
                assertTrue(route.methods() != null && !route.methods().isEmpty(), "a route for every method: " + route.getPath());
                for (HttpMethod method : route.methods()) {
                    routes.add(method.name().toLowerCase() + " " + shape(route.getPath()));
                }
            }
            Set<String> documented = new TreeSet<>();
            document.path("paths").fields().forEachRemaining(path -> path.getValue().fieldNames()
                    .forEachRemaining(method -> documented.add(method + " " + shape(path.getKey()))));
            Set<String> missing = new TreeSet<>(routes);
            missing.removeAll(documented);
            assertEquals(Set.of(), missing, "routes missing from /openapi.json");
            Set<String> extra = new TreeSet<>(documented);
            extra.removeAll(routes);
            assertEquals(Set.of(), extra, "operations in /openapi.json that no route serves");
            assertTrue(routes.contains("post /v1/decisions/implementation"), routes.toString());
        } finally {
            vertx.close();
        }
    }

    /** A path with its parameters unnamed: {@code /v1/decisions/:id} and {@code /v1/decisions/{id}} are {@code /v1/decisions/{}}. */
    private static String shape(String path) {
        String shaped = path.replaceAll(":[A-Za-z0-9_]+", "{}").replaceAll("\\{[^}]*}", "{}");
        return shaped.endsWith("/") && shaped.length() > 1 ? shaped + "{}" : shaped; // Vert.x's "/ui/*" is "/ui/"
    }

    @Test
    void everyDecisionTargetTakesTheSchemaThatValidatesItsRequests() {
        for (Target target : server.decisions().registry().targets()) {
            String name = OpenApi.schemaName(target.name());
            JsonNode operation = document.path("paths").path("/v1/decisions/" + target.name()).path("post");
            assertEquals("#/components/schemas/" + name,
                    operation.path("requestBody").path("content").path("application/json").path("schema").path("$ref").asText(), target.name());
            assertEquals(target.requestSchema().path("properties").size(),
                    document.path("components").path("schemas").path(name).path("properties").size(), target.name());
        }
    }

    @Test
    void everyExampleValidatesAgainstTheDocumentsSchemaAndTheServersAndIsDecided() throws Exception {
        List<String> checked = new ArrayList<>();
        var factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
        for (Target target : server.decisions().registry().targets()) {
            JsonNode media = document.path("paths").path("/v1/decisions/" + target.name()).path("post")
                    .path("requestBody").path("content").path("application/json");
            JsonNode example = media.path("examples").path("docs").path("value");
            if (example.isMissingNode()) {
                continue;
            }
            // the schema as the document states it (2020-12, references into components), with the document as its root
            ObjectNode root = JSON.createObjectNode();
            root.put("$schema", "https://json-schema.org/draft/2020-12/schema");
            root.put("$ref", media.path("schema").path("$ref").asText());
            root.set("components", document.path("components"));
            var inDocument = factory.getSchema(SchemaLocation.of("https://arbiter.test/openapi.json"), root);
            assertEquals(Set.of(), inDocument.validate(example), target.name() + " against the document's schema");
            assertEquals(Set.of(), JsonSchemas.compile(target.requestSchema()).validate(example), target.name() + " against the server's schema");
            var decided = client.postJson("/v1/decisions/" + target.name(), JSON.writeValueAsString(example));
            assertEquals(200, decided.status(), decided.body());
            checked.add(target.name());
        }
        assertEquals(List.of("implementation", "backend", "dependencies", "rollout"),
                checked.stream().filter(List.of("implementation", "backend", "dependencies", "rollout")::contains).toList());
    }

    @Test
    void theDocumentsSchemasRejectWhatTheServerRejects() {
        var factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
        ObjectNode root = JSON.createObjectNode();
        root.put("$ref", "#/components/schemas/" + OpenApi.schemaName("dependencies"));
        root.set("components", document.path("components"));
        var schema = factory.getSchema(SchemaLocation.of("https://arbiter.test/openapi.json"), root);
        ObjectNode request = (ObjectNode) OpenApi.example("dependencies").deepCopy();
        ((ObjectNode) request.path("policies").get(0).path("dependencies").get(0)).put("compliance", "Sometimes");

        assertFalse(schema.validate(request).isEmpty(), "a compliance outside the enum, through a $ref into $defs");
        assertEquals(400, client.postJson("/v1/decisions/dependencies", request.toString()).status());
    }

    @Test
    void everyOperationDeclaresItsSecurityOpenOnesNone() {
        List<String> admin = new ArrayList<>();
        document.path("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(op -> {
            JsonNode security = op.getValue().path("security");
            assertTrue(security.isArray(), op.getKey() + " " + path.getKey() + " declares no security");
            if (!security.isEmpty()) {
                assertEquals("[{\"adminToken\":[]}]", security.toString(), op.getKey() + " " + path.getKey());
                admin.add(op.getKey() + " " + path.getKey());
            }
        }));
        assertEquals(List.of("put /v1/policy", "post /v1/impact", "put /v1/decision-tables/{type}/{name}"), admin);
    }

    @Test
    void everyJsonAnswerHasASchemaBeyondAnObject() {
        List<String> untyped = new ArrayList<>();
        document.path("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(op ->
                op.getValue().path("responses").fields().forEachRemaining(response -> {
                    JsonNode schema = response.getValue().path("content").path("application/json").path("schema");
                    if (!schema.isMissingNode() && !schema.has("$ref") && !schema.has("anyOf")) {
                        untyped.add(op.getKey() + " " + path.getKey() + " " + response.getKey() + " " + schema);
                    }
                })));
        assertEquals(List.of(), untyped);
        assertEquals("#/components/schemas/ImplementationDecision", document.at(
                "/paths/~1v1~1decisions~1implementation/post/responses/200/content/application~1json/schema/$ref").asText());
        assertEquals("[\"integer\",\"null\"]", document.at(
                "/components/schemas/ImplementationResult/properties/rule/properties/oneOfIndex/type").toString());
    }

    /** Every example of the document (requests and answers) validates against the schema beside it. */
    @Test
    void everyExampleValidatesAgainstItsSchema() {
        List<String> checked = new ArrayList<>();
        document.path("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(op -> {
            List<JsonNode> media = new ArrayList<>();
            media.add(op.getValue().path("requestBody").path("content").path("application/json"));
            op.getValue().path("responses").forEach(response -> media.add(response.path("content").path("application/json")));
            for (JsonNode content : media) {
                content.path("examples").fields().forEachRemaining(example -> {
                    var problems = ResponseContract.compiled(content.path("schema")).validate(example.getValue().path("value"));
                    assertEquals(Set.of(), problems, op.getKey() + " " + path.getKey() + " example " + example.getKey());
                    checked.add(op.getKey() + " " + path.getKey());
                });
            }
        }));
        assertTrue(checked.size() >= 8, checked.toString()); // a request and an answer per decision target at least
    }

    @Test
    void anAnswerThatBreaksTheDocumentFailsTheTest() {
        AssertionError wrongType = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class, () ->
                ResponseContract.check("GET", "/healthz", 200, "application/json", "{\"status\": 1}"));
        assertTrue(wrongType.getMessage().contains("GET /healthz -> 200"), wrongType.getMessage());
        AssertionError undocumented = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class, () ->
                ResponseContract.check("GET", "/healthz", 201, "application/json", "{}"));
        assertTrue(undocumented.getMessage().contains("not in /openapi.json"), undocumented.getMessage());
        org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class, () ->
                ResponseContract.check("GET", "/v1/nowhere", 404, "application/json", "{\"error\": {\"code\": \"GONE\"}}"));
        ResponseContract.check("GET", "/v1/nowhere", 404, "application/json",
                "{\"error\": {\"code\": \"NOT_FOUND\", \"message\": \"no route\", \"details\": []}}");
    }

    @Test
    void theServedDocumentIsTheOneAnswersAreCheckedAgainst() {
        assertEquals(ResponseContract.DOCUMENT, document);
    }
}
