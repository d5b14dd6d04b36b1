package io.arbiter.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.arbiter.http.OpenApi;
import io.arbiter.policytype.PolicyTypeRegistry;

import java.net.http.HttpResponse;

import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * What {@code /openapi.json} promises for each answer, checked on every response an HTTP test receives
 * ({@code HttpTestClient}, and tests with clients of their own through {@link #check(HttpResponse)}): the schema is looked up by method, route and status in the generated document, so the
 * document cannot drift from the service. An error status an operation does not list is still checked against
 * {@code Error}; a success status it does not list fails.
 */
public final class ResponseContract {

    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    private static final String DEFS = "#/$defs/components/";

    /** The document the test servers serve (they all discover the same policy types). */
    public static final ObjectNode DOCUMENT = OpenApi.document(PolicyTypeRegistry.discover());
    private static final JsonNode COMPONENTS = inDefs(DOCUMENT.path("components"));

    private static final JsonNode ERROR = JsonNodeFactory.instance.objectNode().put("$ref", "#/components/schemas/Error");

    private static final Map<String, JsonSchema> COMPILED = new ConcurrentHashMap<>();

    private ResponseContract() {
    }

    /** Fails (AssertionError) when {@code body}, answered with {@code status} to {@code method path}, breaks the document. */
    public static void check(String method, String path, int status, String contentType, String body) {
        if (method.equals("HEAD") || body == null || body.isEmpty() || contentType == null
                || !contentType.startsWith("application/json")) {
            return;
        }
        String route = route(path.replaceFirst("[?#].*", "")).orElse(null);
        JsonNode schema = route == null ? null : DOCUMENT.path("paths").path(route).path(method.toLowerCase())
                .path("responses").path(Integer.toString(status)).path("content").path("application/json").path("schema");
        String where = method + " " + path + " -> " + status;
        if (schema == null || schema.isMissingNode()) {
            if (status < 400) {
                throw new AssertionError(where + " is not in /openapi.json (no " + method + " " + route + " answering " + status + ")");
            }
            schema = ERROR;
        }
        JsonNode json;
        try {
            json = io.arbiter.document.Documents.jsonMapper().readTree(body);
        } catch (Exception e) {
            throw new AssertionError(where + ": the body is not JSON: " + body, e);
        }
        Set<ValidationMessage> problems = compiled(schema).validate(json);
        if (!problems.isEmpty()) {
            throw new AssertionError(where + " does not match its schema in /openapi.json: "
                    + problems.stream().map(ValidationMessage::getMessage).collect(Collectors.joining("; "))
                    + "\nbody: " + abbreviated(body));
        }
    }

    /** {@code response}, as {@link #check(String, String, int, String, String)} checks it; returns it. */
    public static HttpResponse<String> check(HttpResponse<String> response) {
        check(response.request().method(), response.uri().getRawPath(), response.statusCode(),
                response.headers().firstValue("Content-Type").orElse(null), response.body());
        return response;
    }

    /** {@code schema} (a node of the document) as a 2020-12 schema whose references resolve into the components. */
    public static JsonSchema compiled(JsonNode schema) {
        return COMPILED.computeIfAbsent(schema.toString(), key -> {
            ObjectNode root = (ObjectNode) inDefs(schema);
            root.put("$schema", "https://json-schema.org/draft/2020-12/schema");
            root.putObject("$defs").set("components", COMPONENTS);
            return FACTORY.getSchema(SchemaLocation.of("https://arbiter.test/openapi.json"), root);
        });
    }

    /** The document's path template that serves {@code path}: a literal path before a templated one. */
    public static Optional<String> route(String path) {
        if (DOCUMENT.path("paths").has(path)) {
            return Optional.of(path);
        }
        Iterator<String> templates = DOCUMENT.path("paths").fieldNames();
        while (templates.hasNext()) {
            String template = templates.next();
            if (template.contains("{") && path.matches(template.replaceAll("\\{[^}]+}", "[^/]*").replace(".", "\\."))) {
                return Optional.of(template);
            }
        }
        return Optional.empty();
    }

    /** A copy of {@code node} whose {@code #/components/...} references point under {@code $defs}. */
    private static JsonNode inDefs(JsonNode node) {
        try {
            return io.arbiter.document.Documents.jsonMapper().readTree(node.toString()
                    .replace("\"#/components/", "\"" + DEFS));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String abbreviated(String body) {
        return body.length() <= 2000 ? body : body.substring(0, 2000) + "…";
    }
}
