package io.arbiter.policytype;

import io.arbiter.cli.ArbiterCli;
import io.arbiter.decision.Settings;
import io.arbiter.decision.implementation.ImplementationPolicyType;
import io.arbiter.http.ArbiterServer;
import io.arbiter.http.ServerOptions;
import io.arbiter.testing.plugin.GreetingPolicyType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The policy-type plugin point: discovery, duplicates, versions and support status, schema validation, and a
 * test-only type ({@link GreetingPolicyType}) served and listed by the real server with no change to main code.
 */
class PolicyTypePluginTest {

    private static final String TOKEN = "t";
    private static ArbiterServer server;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path temp;

    @BeforeAll
    static void start() throws Exception {
        server = ArbiterServer.start(new ServerOptions("127.0.0.1", 0, Settings.embedded(), TOKEN, java.time.Duration.ofMillis(200)))
                .toCompletionStage().toCompletableFuture().get();
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    private static HttpResponse<String> send(String method, String path, String contentType, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .header("Authorization", "Bearer " + TOKEN);
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        return io.arbiter.testing.ResponseContract.check(HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString()));
    }

    @Test
    void serviceLoaderDiscoversMainAndTestTypes() {
        PolicyTypeRegistry registry = PolicyTypeRegistry.discover();

        assertTrue(registry.type(ImplementationPolicyType.NAME).isPresent());
        assertTrue(registry.type("test.greeting").isPresent());
        assertEquals("test.greeting", registry.typeOfTarget("greeting").orElseThrow().name());
    }

    @Test
    void duplicateTypeNamesFailWithBothProviders() {
        class Impostor extends ForwardingType {
            Impostor() {
                super(new ImplementationPolicyType());
            }
        }
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new PolicyTypeRegistry(List.of(new ImplementationPolicyType(), new Impostor())));

        assertTrue(e.getMessage().contains("'capact.implementation' is registered twice"), e.getMessage());
        assertTrue(e.getMessage().contains(ImplementationPolicyType.class.getName()), e.getMessage());
        assertTrue(e.getMessage().contains("Impostor"), e.getMessage());
    }

    @Test
    void aChainWhoseConsumerComesBeforeItsProducerIsRefused() {
        Chain unproduced = new Chain(new Target("unproduced", "implementation, then a type consuming what it does not produce",
                com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode(), null),
                List.of("capact.implementation", "misspelt"));
        class Misspelt extends ForwardingType {
            Misspelt() {
                super(new io.arbiter.decision.backend.BackendPolicyType());
            }

            @Override
            public String name() {
                return "misspelt";
            }

            @Override
            public List<Target> targets() {
                return List.of();
            }

            @Override
            public List<DecisionData> consumes() {
                return List.of(new DecisionData("capact.rollout", "anything"));
            }
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> new PolicyTypeRegistry(
                List.of(new ImplementationPolicyType(), new Misspelt()), List.of(unproduced)));
        assertTrue(e.getMessage().contains("chain 'unproduced': policy type 'misspelt' consumes capact.rollout/anything,"
                + " which no type before it in the chain produces"), e.getMessage());
    }

    @Test
    void theStepChainIsRegisteredWithItsTarget() {
        PolicyTypeRegistry registry = PolicyTypeRegistry.discover();
        assertEquals(List.of("capact.implementation", "capact.backend"), registry.chain("step").orElseThrow().types());
        assertTrue(registry.targets().stream().anyMatch(target -> target.name().equals("step")));
    }

    @Test
    void aTypeThatConsumesDataItsProducerDoesNotProduceIsRefused() {
        class Misspelt extends ForwardingType {
            Misspelt() {
                super(new io.arbiter.decision.backend.BackendPolicyType());
            }

            @Override
            public List<DecisionData> consumes() {
                return List.of(new DecisionData("capact.implementation", "selected-rules"));
            }
        }
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new PolicyTypeRegistry(List.of(new ImplementationPolicyType(), new Misspelt())));

        assertTrue(e.getMessage().contains("'capact.backend' consumes capact.implementation/selected-rules, which "
                + "'capact.implementation' does not produce"), e.getMessage());
    }

    @Test
    void theServerListsEveryTypeWithVersionsAndStatus() throws Exception {
        var list = send("GET", "/v1/policy-types", null, null);
        var greeting = send("GET", "/v1/policy-types/test.greeting", null, null);
        var implementation = send("GET", "/v1/policy-types/capact.implementation", null, null);
        var unknown = send("GET", "/v1/policy-types/nope", null, null);

        assertEquals(200, list.statusCode());
        assertTrue(list.body().contains("\"name\":\"test.greeting\""), list.body());
        assertTrue(list.body().contains("\"name\":\"capact.implementation\""), list.body());
        assertTrue(greeting.body().contains("\"version\":\"0.0.1\",\"statusHistory\":[{\"status\":\"EXPERIMENTAL\",\"since\":\"2025.01\"},{\"status\":\"UNSUPPORTED\",\"since\":\"2025.06\"}],\"status\":\"UNSUPPORTED\""), greeting.body());
        assertTrue(greeting.body().contains("\"endpoint\":\"POST /v1/decisions/greeting\""), greeting.body());
        assertTrue(greeting.body().contains("\"schema\":{"), greeting.body());
        assertTrue(implementation.body().contains("\"version\":\"0.1.0\""), implementation.body());
        assertTrue(implementation.body().contains("\"status\":\"DEPRECATED\""), implementation.body());
        assertEquals(404, unknown.statusCode());
    }

    @Test
    void theServerServesTheTestTypeWithItsOwnRulesAndTable() throws Exception {
        var response = send("POST", "/v1/decisions/greeting", "application/json", "{\"name\": \"Ana\", \"language\": \"es\"}");

        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.body().contains("\"greeting\":\"Hola, Ana\""), response.body());
        assertTrue(response.body().contains("Spanish salutation"), response.body());
        assertTrue(response.body().contains("Greeting is the salutation followed by the name"), response.body());
        assertTrue(response.body().contains("\"warnings\":[]"), response.body());
    }

    @Test
    void anUnsupportedVersionIsRefused() throws Exception {
        var response = send("POST", "/v1/decisions/greeting", "application/json", "{\"apiVersion\": \"0.0.1\", \"name\": \"Ana\"}");

        assertEquals(400, response.statusCode());
        assertTrue(response.body().contains("test.greeting version 0.0.1 is UNSUPPORTED since 2025.06; use 1.0.0"), response.body());
        assertTrue(response.body().contains("\"path\":\"$.apiVersion\""), response.body());
    }

    @Test
    void anUnknownVersionIsRefused() throws Exception {
        var response = send("POST", "/v1/decisions/greeting", "application/json", "{\"apiVersion\": \"9.9.9\", \"name\": \"Ana\"}");

        assertEquals(400, response.statusCode());
        assertTrue(response.body().contains("has no version 9.9.9"), response.body());
    }

    @Test
    void aDeprecatedVersionWorksWithAWarning() throws Exception {
        var response = send("POST", "/v1/decisions/greeting", "application/json", "{\"apiVersion\": \"0.1.0\", \"name\": \"Ana\"}");

        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.body().contains("\"greeting\":\"Hello, Ana\""), response.body());
        assertTrue(response.body().contains("\"warnings\":[\"test.greeting version 0.1.0 is DEPRECATED since 2026.01; migrate to 1.0.0\"]"), response.body());
    }

    @Test
    void schemaErrorsAreLocated400sBeforeAnyRuleRuns() throws Exception {
        var response = send("POST", "/v1/decisions/greeting", "application/yaml", "name: Ana\nlanguage: fr\ncolour: red\n");

        assertEquals(400, response.statusCode());
        assertTrue(response.body().contains("\"path\":\"$.colour\",\"problem\":\"unknown field 'colour'\",\"line\":3"), response.body());
        assertTrue(response.body().contains("\"path\":\"$.language\""), response.body());
    }

    @Test
    void legacyGlobalPolicyIsConvertedAndWarnsThatItIsDeprecated() throws Exception {
        String legacy = """
                apiVersion: 0.1.0
                rules:
                  cap.interface.database.postgresql.install:0.1.0:
                    oneOf:
                      - implementationConstraints:
                          path: cap.implementation.bitnami.postgresql.install
                  cap.*:
                    oneOf: []
                """;
        var put = send("PUT", "/v1/policy", "application/yaml", legacy);
        var get = send("GET", "/v1/policy", null, null);
        send("PUT", "/v1/policy", "application/yaml", Files.readString(Path.of("fixtures/embedded/policy.yaml")));

        assertEquals(200, put.statusCode(), put.body());
        assertTrue(put.body().contains("capact.implementation version 0.1.0 is DEPRECATED"), put.body());
        assertTrue(get.body().contains("\"interface\":{\"rules\":[{\"interface\":{\"path\":\"cap.interface.database.postgresql.install\",\"revision\":\"0.1.0\"}"), get.body());
    }

    @Test
    void implementationRequestsAreSchemaValidatedToo() throws Exception {
        var response = send("POST", "/v1/decisions/implementation", "application/json", "{\"interface\": {\"path\": \"cap.x\", \"revision\": \"1.0\"}}");

        assertEquals(400, response.statusCode());
        assertTrue(response.body().contains("\"path\":\"$.interface.revision\""), response.body());
    }

    @Test
    void theCliIsGeneratedFromTheRegistry() throws Exception {
        Path request = Files.writeString(temp.resolve("greet.yaml"), "name: Jan\nlanguage: pl\n");
        StringWriter out = new StringWriter();
        StringWriter listing = new StringWriter();

        var cli = ArbiterCli.commandLine(PolicyTypeRegistry.discover());
        cli.setOut(new PrintWriter(out));
        int decided = cli.execute("decide", "greeting", "--request", request.toString());
        var list = ArbiterCli.commandLine(PolicyTypeRegistry.discover());
        list.setOut(new PrintWriter(listing));
        int listed = list.execute("policy-types");

        assertEquals(0, decided);
        assertTrue(out.toString().contains("Cześć, Jan"), out.toString());
        assertEquals(0, listed);
        assertTrue(listing.toString().contains("test.greeting"), listing.toString());
        assertTrue(listing.toString().contains("version 0.0.1  UNSUPPORTED  (EXPERIMENTAL since 2025.01, UNSUPPORTED since 2025.06)"), listing.toString());
        assertTrue(listing.toString().contains("POST /v1/decisions/greeting"), listing.toString());
    }

    /** A type that claims another type's identity. */
    private static class ForwardingType implements PolicyType {
        private final PolicyType delegate;

        ForwardingType(PolicyType delegate) {
            this.delegate = delegate;
        }

        @Override public String name() { return delegate.name(); }
        @Override public String description() { return delegate.description(); }
        @Override public List<PolicyTypeVersion> versions() { return delegate.versions(); }
        @Override public List<Target> targets() { return List.of(); }
        @Override public RuleSet ruleSet() { return delegate.ruleSet(); }
        @Override public Decision decide(DecisionCall call) { return delegate.decide(call); }
    }
}
