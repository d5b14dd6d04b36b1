package io.arbiter.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.document.JsonSchemas;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.policytype.Target;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Set;

/**
 * {@code GET /openapi.json}: an OpenAPI 3.1 document of every route. Request bodies are the JSON Schemas that
 * validate requests (each decision target's, and the policy's), turned from draft 7 into the document's dialect;
 * a request example, when {@code openapi/examples/<target>.json} has one, is the one the docs show.
 */
public final class OpenApi {

    private static final ObjectMapper JSON = new ObjectMapper();
    static final String POLICY_SCHEMA = "/schemas/policy-0.2.0.json";

    private OpenApi() {
    }

    /**
     * Writes the document of the packaged policy types to the file {@code args[0]}: what the build generates a
     * client from (the {@code generated-client} profile), the same document {@code GET /openapi.json} serves.
     */
    public static void main(String[] args) throws IOException {
        java.nio.file.Path file = java.nio.file.Path.of(args[0]);
        if (file.getParent() != null) {
            java.nio.file.Files.createDirectories(file.getParent());
        }
        JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), document(PolicyTypeRegistry.discover()));
    }

    /** The document for the targets of {@code registry}. */
    public static ObjectNode document(PolicyTypeRegistry registry) {
        ObjectNode doc = JSON.createObjectNode();
        doc.put("openapi", "3.1.0");
        ObjectNode info = doc.putObject("info");
        info.put("title", "Arbiter decision API");
        info.put("version", "v1");
        info.put("description", "Policy decisions for Capact-style rendering engines and Open Cluster Management. "
                + "Every error is {\"error\": {code, message, details[{path, problem, line, column}]}}; bodies are "
                + "JSON or YAML (Content-Type: application/yaml), at most 1 MiB.");
        info.putObject("license").put("name", "Apache-2.0").put("identifier", "Apache-2.0");
        doc.putArray("servers").addObject().put("url", "/");
        ObjectNode components = doc.putObject("components");
        ObjectNode schemas = components.putObject("schemas");
        schemas.set("Error", response("error", "Error"));
        schemas.set("Policy", converted(JsonSchemas.resource(POLICY_SCHEMA), "Policy"));
        schemas.set("DecisionEnvelope", response("decision-envelope", "DecisionEnvelope"));
        for (String[] named : RESPONSES) {
            schemas.set(named[1], response(named[0], named[1]));
        }
        components.putObject("securitySchemes").putObject("adminToken").put("type", "http").put("scheme", "bearer")
                .put("description", "the server's ARBITER_ADMIN_TOKEN");

        for (Target target : registry.targets()) {
            String schemaName = schemaName(target.name());
            schemas.set(schemaName, converted(target.requestSchema(), schemaName));
            schemas.set(decisionSchemaName(target.name()), decisionSchema(target.name(), schemas));
        }
        ObjectNode paths = doc.putObject("paths");
        for (Routes.Endpoint endpoint : Routes.of(registry)) {
            ObjectNode item = paths.get(endpoint.path()) instanceof ObjectNode known ? known : paths.putObject(endpoint.path());
            ObjectNode operation = item.putObject(endpoint.method().name().toLowerCase(Locale.ROOT));
            operation.put("operationId", endpoint.operationId());
            operation.put("summary", endpoint.summary());
            operation.putArray("tags").add(endpoint.tag());
            ArrayNode security = operation.putArray("security"); // empty: open, no credentials
            if (endpoint.adminOnly()) {
                security.addObject().putArray("adminToken");
            }
            operation.putObject("responses");
            errors(operation, 400); // any route: a path or query whose percent-encoding does not decode
            endpoint.document().accept(operation);
        }
        paths.forEach(OpenApi::headLikeGet);
        return doc;
    }

    /** The response schemas under {@code schemas/responses/}: file name, component name. */
    private static final String[][] RESPONSES = {
            {"decision-record", "DecisionRecord"}, {"policy-write", "PolicyWrite"}, {"policy-validation", "PolicyValidation"},
            {"impact", "Impact"}, {"policy-types", "PolicyTypes"}, {"policy-type", "PolicyType"}, {"catalog", "Catalog"},
            {"rules", "RuleSets"}, {"rule-base", "RuleBase"}, {"health", "Health"}, {"readiness", "Readiness"},
            {"openapi", "OpenApiDocument"}, {"decision-tables", "DecisionTables"}, {"decision-table", "DecisionTable"},
            {"decision-table-write", "DecisionTableWrite"}, {"decision-table-validation", "DecisionTableValidation"},
    };

    /** The component name of a target's answer: {@code implementation} is {@code ImplementationDecision}. */
    static String decisionSchemaName(String target) {
        return pascal(target) + "Decision";
    }

    /**
     * A target's answer: the envelope and, when {@code schemas/responses/<target>-result.json} states it, the
     * target's result fields beside it (a plugin's target without one is the envelope alone).
     */
    private static ObjectNode decisionSchema(String target, ObjectNode schemas) {
        ObjectNode decision = JSON.createObjectNode();
        ArrayNode allOf = decision.putArray("allOf");
        allOf.addObject().put("$ref", "#/components/schemas/DecisionEnvelope");
        String resource = "/schemas/responses/" + target + "-result.json";
        if (OpenApi.class.getResource(resource) != null) {
            String resultName = pascal(target) + "Result";
            schemas.set(resultName, converted(JsonSchemas.resource(resource), resultName));
            allOf.addObject().put("$ref", "#/components/schemas/" + resultName);
        }
        return decision;
    }

    private static ObjectNode response(String file, String componentName) {
        return converted(JsonSchemas.resource("/schemas/responses/" + file + ".json"), componentName);
    }

    /** The answer the docs show for {@code target}'s example request, or null. */
    static JsonNode responseExample(String target) {
        return example("responses/" + target);
    }

    /** Every GET is served for HEAD too: the same statuses and headers, without a body. */
    private static void headLikeGet(JsonNode item) {
        if (item instanceof ObjectNode path && path.get("get") instanceof ObjectNode get) {
            ObjectNode head = get.deepCopy();
            head.put("operationId", get.path("operationId").asText() + "Head");
            head.put("summary", "As GET, without the body");
            head.withObject("responses").forEach(response -> {
                if (response instanceof ObjectNode withContent) {
                    withContent.remove("content");
                }
            });
            path.set("head", head);
        }
    }

    /** The component name of a target's request schema: {@code implementation} is {@code ImplementationRequest}. */
    static String schemaName(String target) {
        return pascal(target) + "Request";
    }

    static String pascal(String name) {
        StringBuilder out = new StringBuilder();
        boolean upper = true;
        for (char c : name.toCharArray()) {
            if (!Character.isLetterOrDigit(c)) {
                upper = true;
            } else {
                out.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return out.toString();
    }

    /** The request example the docs show for {@code target}, or null. */
    static JsonNode example(String target) {
        try (InputStream in = OpenApi.class.getResourceAsStream("/openapi/examples/" + target + ".json")) {
            return in == null ? null : JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the example of " + target, e);
        }
    }

    /**
     * A draft-7 schema as a component of this document: {@code $schema} and {@code $id} go (the document sets the
     * dialect and the place), {@code definitions} become {@code $defs}, and local references point into the
     * component. Draft 7's keywords we use mean the same in 2020-12.
     */
    static ObjectNode converted(JsonNode draft7, String componentName) {
        ObjectNode schema = draft7.deepCopy();
        schema.remove("$schema");
        schema.remove("$id");
        JsonNode definitions = schema.remove("definitions");
        if (definitions != null) {
            schema.set("$defs", definitions);
        }
        rewriteRefs(schema, "#/components/schemas/" + componentName);
        return schema;
    }

    private static void rewriteRefs(JsonNode node, String base) {
        if (node instanceof ObjectNode object) {
            JsonNode ref = object.get("$ref");
            if (ref != null && ref.isTextual() && ref.asText().startsWith("#")) {
                String pointer = ref.asText().substring(1).replaceFirst("^/definitions/", "/\\$defs/");
                object.put("$ref", base + pointer);
            }
            object.properties().forEach(field -> {
                if (!Set.of("enum", "const", "examples").contains(field.getKey())) { // values, not schemas
                    rewriteRefs(field.getValue(), base);
                }
            });
        } else if (node instanceof ArrayNode array) {
            array.forEach(child -> rewriteRefs(child, base));
        }
    }

    /**
     * {@code POST /v1/decisions/{target}}: the target's request schema, and its answer, each with the example the docs
     * show when there is one.
     */
    static void decision(ObjectNode post, String target) {
        ObjectNode media = requestBody(post, "#/components/schemas/" + schemaName(target));
        JsonNode example = example(target);
        if (example != null) {
            media.putObject("examples").putObject("docs").set("value", example);
        }
        ObjectNode decided = ok(post, "the decision (a decision is 200 whatever its outcome): the envelope every target"
                + " shares (decisionId, target, type, version, outcome, firedRules, phases, the policy, rules, catalog,"
                + " TypeInstance and snapshot revisions, warnings) with the type's result fields beside them",
                decisionSchemaName(target));
        JsonNode answered = responseExample(target);
        if (answered != null) {
            decided.withObject("content").withObject("application/json").putObject("examples").putObject("docs")
                    .set("value", answered);
        }
        errors(post, 400, 404, 413, 415, 422, 503);
    }

    static ObjectNode requestBody(ObjectNode operation, String schemaRef) {
        ObjectNode content = operation.putObject("requestBody").put("required", true).putObject("content");
        content.putObject("application/yaml").putObject("schema").put("$ref", schemaRef);
        ObjectNode json = content.putObject("application/json");
        json.putObject("schema").put("$ref", schemaRef);
        return json;
    }

    /** A path parameter names something that may not exist: the operation answers 404 for it. */
    static void pathParameter(ObjectNode operation, String name, String description) {
        operation.withArray("parameters").addObject().put("name", name).put("in", "path").put("required", true)
                .put("description", description).putObject("schema").put("type", "string");
        errors(operation, 404);
    }

    /** An optional parameter {@code in} a header or the query, with its description if any; its schema, to fill. */
    static ObjectNode optional(ObjectNode operation, String name, String in, String description) {
        ObjectNode parameter = operation.withArray("parameters").addObject().put("name", name).put("in", in).put("required", false);
        if (description != null) {
            parameter.put("description", description);
        }
        return parameter.putObject("schema");
    }

    /** A 200 answer; with a component name, JSON of that schema. */
    static ObjectNode ok(ObjectNode operation, String description, String component) {
        ObjectNode response = operation.withObject("responses").putObject("200").put("description", description);
        ObjectNode content = response.putObject("content");
        if (component != null) {
            content.putObject("application/json").putObject("schema").put("$ref", "#/components/schemas/" + component);
        }
        return response;
    }

    /** Text answers of {@code response}: a string in each media type. */
    static void text(ObjectNode response, String... mediaTypes) {
        for (String mediaType : mediaTypes) {
            response.withObject("content").putObject(mediaType).putObject("schema").put("type", "string");
        }
    }

    static void errors(ObjectNode operation, int... statuses) {
        ObjectNode responses = operation.withObject("responses");
        for (int status : statuses) {
            responses.putObject(Integer.toString(status)).put("description", switch (status) {
                case 400 -> "INVALID_REQUEST: malformed, fails the schema (located), or a query parameter the operation does not read";
                case 401 -> "UNAUTHORIZED: missing or wrong admin token";
                case 403 -> "UNAUTHORIZED: the server has no admin token";
                case 404 -> "NOT_FOUND";
                case 405 -> "INVALID_REQUEST: the path is a decision target: POST to it";
                case 409 -> "POLICY_CONFLICT: the policy is served from watched files (serve --watch), its source of truth: change it there";
                case 412 -> "POLICY_CONFLICT: If-Match matches no live revision";
                case 413 -> "PAYLOAD_TOO_LARGE: over 1 MiB, or (with Retry-After) past the request bytes the server can hold at once, being received or decided";
                case 415 -> "INVALID_REQUEST: a body neither JSON nor YAML (form, text/plain, untyped), or with a Content-Encoding";
                case 422 -> "INVALID_POLICY: a policy that cannot be applied (located)";
                case 503 -> "INTERNAL: not ready, the decision log cannot write, past the decision deadline, or the policy's source cannot take the change (API server unreachable, file unwritable)";
                default -> "error";
            }).putObject("content").putObject("application/json").putObject("schema").put("$ref", "#/components/schemas/Error");
        }
    }
}
