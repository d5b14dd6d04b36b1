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
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

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

        ObjectNode paths = doc.putObject("paths");
        for (Target target : registry.targets()) {
            String schemaName = schemaName(target.name());
            schemas.set(schemaName, converted(target.requestSchema(), schemaName));
            schemas.set(decisionSchemaName(target.name()), decisionSchema(target.name(), schemas));
            ObjectNode post = operation(paths, "/v1/decisions/" + target.name(), "post", "decide" + pascal(target.name()),
                    target.description(), "decisions");
            ObjectNode media = requestBody(post, "#/components/schemas/" + schemaName);
            JsonNode example = example(target.name());
            if (example != null) {
                media.putObject("examples").putObject("docs").set("value", example);
            }
            ObjectNode decided = ok(post, "the decision (a decision is 200 whatever its outcome): the envelope every target"
                    + " shares (decisionId, target, type, version, outcome, firedRules, phases, the policy, rules, catalog,"
                    + " TypeInstance and snapshot revisions, warnings) with the type's result fields beside them",
                    decisionSchemaName(target.name()));
            JsonNode answered = responseExample(target.name());
            if (answered != null) {
                decided.withObject("content").withObject("application/json").putObject("examples").putObject("docs")
                        .set("value", answered);
            }
            errors(post, 400, 404, 413, 415, 422, 503);
        }

        ObjectNode byId = operation(paths, "/v1/decisions/{id}", "get", "getDecision",
                "A recent decision as it was logged, from a bounded in-memory index", "decisions");
        pathParameter(byId, "id", "the decisionId of a recent decision");
        ok(byId, "the decision-log record: decisionId, timestamp, endpoint, request, revisions, outcome, result", "DecisionRecord");
        errors(byId, 405);
        ObjectNode otherTarget = operation(paths, "/v1/decisions/{id}", "post", "decideUnknownTarget",
                "Any other decision target: 404 NOT_FOUND naming the known ones", "decisions");
        pathParameter(otherTarget, "id", "a decision target that no policy type serves");

        ObjectNode getPolicy = operation(paths, "/v1/policy", "get", "getPolicy",
                "The live global policy; its revision is the ETag", "policy");
        ok(getPolicy, "the policy", "Policy").withObject("content").putObject("application/yaml").putObject("schema")
                .put("type", "string");
        ObjectNode putPolicy = operation(paths, "/v1/policy", "put", "replacePolicy",
                "Replace the global policy at its source (If-Match: * or ETags; a stale one is 412): the Kubernetes ConfigMap, the policy file, or this process for the embedded default", "policy");
        admin(putPolicy);
        putPolicy.withArray("parameters").addObject().put("name", "If-Match").put("in", "header").put("required", false)
                .putObject("schema").put("type", "string");
        putPolicy.withArray("parameters").addObject().put("name", "dryRun").put("in", "query").put("required", false)
                .put("description", "true: apply nothing; answer the impact of the policy (as POST /v1/impact)")
                .putObject("schema").put("type", "boolean");
        requestBody(putPolicy, "#/components/schemas/Policy");
        ObjectNode written = ok(putPolicy, "the new revision and warnings; with dryRun=true, the impact", null);
        written.withObject("content").withObject("application/json").putObject("schema").putArray("anyOf")
                .add(JSON.createObjectNode().put("$ref", "#/components/schemas/PolicyWrite"))
                .add(JSON.createObjectNode().put("$ref", "#/components/schemas/Impact"));
        errors(putPolicy, 400, 401, 403, 409, 412, 413, 415, 422, 503);
        ObjectNode validate = operation(paths, "/v1/policy/validate", "post", "validatePolicy",
                "Every problem of a policy, located, without applying it", "policy");
        requestBody(validate, "#/components/schemas/Policy");
        ok(validate, "{valid, problems[]}", "PolicyValidation");
        errors(validate, 400, 413, 415);

        ObjectNode impact = operation(paths, "/v1/impact", "post", "policyImpact",
                "What the policy in the body would decide differently from the live one, over a sweep of the catalog"
                        + " and the recent decisions; nothing is applied. The body may instead be {\"candidate\": {\"policy\","
                        + " \"tables\": {\"<type>/<name>\": csv}, \"rules\": {\"<folder>/<file>.drl\": drl}}}", "policy");
        admin(impact);
        for (String flag : List.of("sweep", "recent")) {
            impact.withArray("parameters").addObject().put("name", flag).put("in", "query").put("required", false)
                    .putObject("schema").put("type", "boolean").put("default", true);
        }
        impact.withArray("parameters").addObject().put("name", "limit").put("in", "query").put("required", false)
                .putObject("schema").put("type", "integer").put("minimum", 0).put("maximum", 10_000).put("default", 100);
        requestBody(impact, "#/components/schemas/Policy");
        ok(impact, "{decisions, changed, refired, byKind, bySource, changes[]}", "Impact");
        errors(impact, 400, 401, 403, 413, 415, 422);

        ok(operation(paths, "/v1/decision-tables", "get", "listDecisionTables",
                "Every decision table of every policy type, with its revision and the rules it feeds", "decision tables"),
                "{tables[{type, name, file, revision, rulesRevision, rules[]}]}", "DecisionTables");
        ObjectNode table = operation(paths, "/v1/decision-tables/{type}/{name}", "get", "getDecisionTable",
                "One decision table as a grid (cells, notes, columns with headers and allowed values, rows) or as its CSV"
                        + " (Accept: text/csv); its revision is the ETag", "decision tables");
        pathParameter(table, "type", "a policy type, e.g. capact.backend");
        pathParameter(table, "name", "a table's file name without .drl.csv, e.g. backend-priority");
        text(ok(table, "the table", "DecisionTable"), "text/csv");
        ObjectNode putTable = operation(paths, "/v1/decision-tables/{type}/{name}", "put", "replaceDecisionTable",
                "Replace a decision table at its source (the file under --decision-tables, or the ConfigMap"
                        + " <instance>-rules-<folder>) after the checks of a reload: lint problems located at row and cell,"
                        + " a value the edit leaves undecided refused; packaged tables are a 409", "decision tables");
        pathParameter(putTable, "type", "a policy type, e.g. capact.backend");
        pathParameter(putTable, "name", "a table's file name without .drl.csv, e.g. backend-priority");
        putTable.putArray("security").addObject().putArray("adminToken");
        putTable.withArray("parameters").addObject().put("name", "If-Match").put("in", "header").put("required", false)
                .putObject("schema").put("type", "string");
        putTable.withArray("parameters").addObject().put("name", "dryRun").put("in", "query").put("required", false)
                .put("description", "true: apply nothing; answer the impact of the table")
                .putObject("schema").put("type", "boolean");
        ObjectNode tableBody = putTable.putObject("requestBody").put("required", true).putObject("content");
        tableBody.putObject("text/csv").putObject("schema").put("type", "string");
        tableBody.putObject("application/json").putObject("schema").put("type", "object")
                .put("description", "{\"cells\": [[\"...\"]]}: every row of the CSV as an array of strings");
        ok(putTable, "{revision, snapshotRevision, warnings[]}; with dryRun=true, {revision, warnings[], impact}", "DecisionTableWrite");
        errors(putTable, 400, 401, 403, 409, 412, 413, 415, 422, 503);

        ObjectNode validateTable = operation(paths, "/v1/decision-tables/{type}/{name}/validate", "post",
                "validateDecisionTable", "Every problem of a candidate table, located at row and cell, without applying it",
                "decision tables");
        pathParameter(validateTable, "type", "a policy type, e.g. capact.backend");
        pathParameter(validateTable, "name", "a table's file name without .drl.csv, e.g. backend-priority");
        ObjectNode validateBody = validateTable.putObject("requestBody").put("required", true).putObject("content");
        validateBody.putObject("text/csv").putObject("schema").put("type", "string");
        validateBody.putObject("application/json").putObject("schema").put("type", "object");
        ok(validateTable, "{valid, problems[{severity, path, row, column, problem}]}", "DecisionTableValidation");
        errors(validateTable, 400, 413, 415);

        ObjectNode types = operation(paths, "/v1/policy-types", "get", "listPolicyTypes",
                "Registered policy types: versions, support status, targets", "policy types");
        ok(types, "{policyTypes[]}", "PolicyTypes");
        ObjectNode type = operation(paths, "/v1/policy-types/{name}", "get", "getPolicyType",
                "One policy type, with its targets' request schemas", "policy types");
        pathParameter(type, "name", "a policy type's name, e.g. capact.implementation");
        ok(type, "the policy type", "PolicyType");

        ok(operation(paths, "/v1/catalog", "get", "getCatalog",
                "Every Interface of the live catalog with its highest revision and its Implementations", "catalog"),
                "{catalogRevision, interfaces[{path, revision, implementations[]}]}", "Catalog");
        ok(operation(paths, "/v1/rules", "get", "getRules",
                "For each policy type, its phases in firing order and where each rule is written (file, line, table row)",
                "catalog"), "{ruleSets[{policyType, rulesRevision, phases[], rules[{rule, name, package, phase, file, line, row}]}]}",
                "RuleSets");

        ObjectNode ruleBase = operation(paths, "/v1/rules/{revision}", "get", "getRuleBase",
                "The rules of one live rule base, by a decision's rulesRevision: what a firing's rule stands for", "catalog");
        pathParameter(ruleBase, "revision", "a decision's rulesRevision");
        ok(ruleBase, "{revision, policyType, rules[{rule, name, package, phase, file, line, row}]}", "RuleBase");
        ok(operation(paths, "/healthz", "get", "healthz", "The process is up", "operations"), "{status: UP}", "Health");
        ObjectNode ready = operation(paths, "/readyz", "get", "readyz",
                "Rules compiled, policy loaded, and the decision log's health", "operations");
        ok(ready, "READY, with revisions", "Readiness");
        errors(ready, 503);
        ok(operation(paths, "/v1/status", "get", "status", "Revisions, reloads, decision-log health, policy types", "operations"),
                "the status", "Readiness");
        text(ok(operation(paths, "/metrics", "get", "metrics", "Prometheus text", "operations"), "metrics", null), "text/plain");
        ok(operation(paths, "/openapi.json", "get", "openApi", "This document", "operations"), "OpenAPI 3.1", "OpenApiDocument");
        ObjectNode redirect = operation(paths, "/ui", "get", "explorerRedirect", "Redirects to /ui/", "explorer");
        redirect.withObject("responses").putObject("301").put("description", "to /ui/")
                .putObject("headers").putObject("Location").putObject("schema").put("type", "string");
        ObjectNode asset = operation(paths, "/ui/{file}", "get", "explorer",
                "The decision explorer: /ui/ is its page, the rest its scripts and styles", "explorer");
        pathParameter(asset, "file", "empty for the page, else an asset such as app.js");
        text(ok(asset, "the page or asset", null), "text/html", "text/javascript", "text/css");
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

    /** An operation that only the admin token may call. */
    private static void admin(ObjectNode operation) {
        ArrayNode security = operation.putArray("security");
        security.addObject().putArray("adminToken");
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

    private static String pascal(String name) {
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
            Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
            List<JsonNode> children = new ArrayList<>();
            fields.forEachRemaining(field -> {
                if (!field.getKey().equals("enum") && !field.getKey().equals("const") && !field.getKey().equals("examples")) {
                    children.add(field.getValue());
                }
            });
            children.forEach(child -> rewriteRefs(child, base));
        } else if (node instanceof ArrayNode array) {
            array.forEach(child -> rewriteRefs(child, base));
        }
    }

    private static ObjectNode operation(ObjectNode paths, String path, String method, String id, String summary, String tag) {
        ObjectNode item = paths.get(path) instanceof ObjectNode known ? known : paths.putObject(path);
        ObjectNode operation = item.putObject(method);
        operation.put("operationId", id);
        operation.put("summary", summary);
        operation.putArray("tags").add(tag);
        operation.putArray("security"); // open: no credentials (admin operations replace it)
        operation.putObject("responses");
        errors(operation, 400); // any route: a path or query whose percent-encoding does not decode
        return operation;
    }

    private static ObjectNode requestBody(ObjectNode operation, String schemaRef) {
        ObjectNode content = operation.putObject("requestBody").put("required", true).putObject("content");
        content.putObject("application/yaml").putObject("schema").put("$ref", schemaRef);
        ObjectNode json = content.putObject("application/json");
        json.putObject("schema").put("$ref", schemaRef);
        return json;
    }

    /** A path parameter names something that may not exist: the operation answers 404 for it. */
    private static void pathParameter(ObjectNode operation, String name, String description) {
        operation.withArray("parameters").addObject().put("name", name).put("in", "path").put("required", true)
                .put("description", description).putObject("schema").put("type", "string");
        errors(operation, 404);
    }

    /** A 200 answer; with a component name, JSON of that schema. */
    private static ObjectNode ok(ObjectNode operation, String description, String component) {
        ObjectNode response = operation.withObject("responses").putObject("200").put("description", description);
        ObjectNode content = response.putObject("content");
        if (component != null) {
            content.putObject("application/json").putObject("schema").put("$ref", "#/components/schemas/" + component);
        }
        return response;
    }

    /** Text answers of {@code response}: a string in each media type. */
    private static void text(ObjectNode response, String... mediaTypes) {
        for (String mediaType : mediaTypes) {
            response.withObject("content").putObject(mediaType).putObject("schema").put("type", "string");
        }
    }

    private static void errors(ObjectNode operation, int... statuses) {
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
