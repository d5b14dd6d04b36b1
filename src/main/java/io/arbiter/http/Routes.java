package io.arbiter.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.policytype.Target;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

import static io.arbiter.http.OpenApi.decision;
import static io.arbiter.http.OpenApi.optional;
import static io.arbiter.http.OpenApi.pathParameter;
import static io.arbiter.http.OpenApi.requestBody;
import static io.arbiter.http.OpenApi.text;
import static io.vertx.core.http.HttpMethod.GET;
import static io.vertx.core.http.HttpMethod.POST;
import static io.vertx.core.http.HttpMethod.PUT;

/**
 * The route table: every route stated once, served by {@link ArbiterServer#router} in this order and described by
 * {@link OpenApi} (the {@code /openapi.json} document) in this order.
 */
final class Routes {

    /**
     * One route. {@code path} is written as OpenAPI writes it ({@code {name}} for a parameter). An {@code adminOnly}
     * route needs the admin token; {@code queryParameters} are those the route reads (any other is refused before
     * the body is read; null: not checked here). {@code document} adds what the operation says beyond its id,
     * summary, tag and security, in the document's order.
     */
    record Endpoint(HttpMethod method, String path, String operationId, String tag, String summary,
                    Function<Handlers, Handler<RoutingContext>> handler, boolean adminOnly, List<String> queryParameters,
                    Consumer<ObjectNode> document) {

        /** The path as Vert.x matches it: {@code {name}} is {@code :name}; the explorer's files are anything under /ui/. */
        String routerPath() {
            return path.equals("/ui/{file}") ? "/ui/*" : path.replaceAll("\\{(\\w+)}", ":$1");
        }

        Endpoint admin() {
            return new Endpoint(method, path, operationId, tag, summary, handler, true, queryParameters, document);
        }

        Endpoint query(String... names) {
            return new Endpoint(method, path, operationId, tag, summary, handler, adminOnly, List.of(names), document);
        }

        Endpoint then(Consumer<ObjectNode> step) {
            return new Endpoint(method, path, operationId, tag, summary, handler, adminOnly, queryParameters, document.andThen(step));
        }

        Endpoint param(String name, String description) {
            return then(operation -> pathParameter(operation, name, description));
        }

        Endpoint body(String component) {
            return then(operation -> requestBody(operation, "#/components/schemas/" + component));
        }

        Endpoint ok(String description, String component, String... textTypes) {
            return then(operation -> text(OpenApi.ok(operation, description, component), textTypes));
        }

        Endpoint errors(int... statuses) {
            return then(operation -> OpenApi.errors(operation, statuses));
        }
    }

    private Routes() {
    }

    private static Endpoint route(HttpMethod method, String path, String operationId, String tag, String summary,
                                  Function<Handlers, Handler<RoutingContext>> handler) {
        return new Endpoint(method, path, operationId, tag, summary, handler, false, null, operation -> { });
    }

    static List<Endpoint> of(PolicyTypeRegistry registry) {
        List<Endpoint> routes = new ArrayList<>();
        for (Target target : registry.targets()) {
            routes.add(route(POST, "/v1/decisions/" + target.name(), "decide" + OpenApi.pascal(target.name()), "decisions",
                    target.description(), handlers -> handlers.decide(target.name())).then(op -> decision(op, target.name())));
        }
        routes.addAll(List.of(
                // After the real targets: any other target is a 404 naming the known ones, not a 405 from GET /v1/decisions/:id.
                route(GET, "/v1/decisions/{id}", "getDecision", "decisions",
                        "A recent decision as it was logged, from a bounded in-memory index", h -> h::getDecision)
                        .param("id", "the decisionId of a recent decision")
                        .ok("the decision-log record: decisionId, timestamp, endpoint, request, revisions, outcome, result", "DecisionRecord")
                        .errors(405),
                route(POST, "/v1/decisions/{id}", "decideUnknownTarget", "decisions",
                        "Any other decision target: 404 NOT_FOUND naming the known ones", h -> h::unknownTarget)
                        .param("id", "a decision target that no policy type serves"),

                route(GET, "/v1/policy", "getPolicy", "policy", "The live global policy; its revision is the ETag", h -> h::getPolicy)
                        .ok("the policy", "Policy", "application/yaml"),
                route(PUT, "/v1/policy", "replacePolicy", "policy", "Replace the global policy at its source (If-Match: * or"
                        + " ETags; a stale one is 412): the Kubernetes ConfigMap, the policy file, or this process for the"
                        + " embedded default", h -> h::putPolicy).admin().query("dryRun")
                        .then(op -> ifMatchAndDryRun(op, "true: apply nothing; answer the impact of the policy (as POST /v1/impact)"))
                        .body("Policy").ok("the new revision and warnings; with dryRun=true, the impact", null)
                        .then(op -> op.withObject("responses").withObject("200").withObject("content").withObject("application/json")
                                .putObject("schema").putArray("anyOf")
                                .add(op.objectNode().put("$ref", "#/components/schemas/PolicyWrite"))
                                .add(op.objectNode().put("$ref", "#/components/schemas/Impact")))
                        .errors(400, 401, 403, 409, 412, 413, 415, 422, 503),
                route(POST, "/v1/policy/validate", "validatePolicy", "policy",
                        "Every problem of a policy, located, without applying it", h -> h::validatePolicy).query("as")
                        .body("Policy").ok("{valid, problems[]}", "PolicyValidation").errors(400, 413, 415),
                route(POST, "/v1/impact", "policyImpact", "policy", "What the policy in the body would decide differently from"
                        + " the live one, over a sweep of the catalog and the recent decisions; nothing is applied. The body may"
                        + " instead be {\"candidate\": {\"policy\", \"tables\": {\"<type>/<name>\": csv}, \"rules\":"
                        + " {\"<folder>/<file>.drl\": drl}}}", h -> h::impact).admin().query("sweep", "recent", "limit")
                        .then(op -> {
                            for (String flag : List.of("sweep", "recent")) {
                                optional(op, flag, "query", null).put("type", "boolean").put("default", true);
                            }
                            optional(op, "limit", "query", null).put("type", "integer").put("minimum", 0)
                                    .put("maximum", 10_000).put("default", 100);
                        })
                        .body("Policy").ok("{decisions, changed, refired, byKind, bySource, changes[]}", "Impact")
                        .errors(400, 401, 403, 413, 415, 422),

                route(GET, "/v1/decision-tables", "listDecisionTables", "decision tables",
                        "Every decision table of every policy type, with its revision and the rules it feeds", h -> h.tables::list)
                        .ok("{tables[{type, name, file, revision, rulesRevision, rules[]}]}", "DecisionTables"),
                table(route(GET, "/v1/decision-tables/{type}/{name}", "getDecisionTable", "decision tables",
                        "One decision table as a grid (cells, notes, columns with headers and allowed values, rows) or as"
                                + " its CSV (Accept: text/csv); its revision is the ETag", h -> h.tables::get))
                        .ok("the table", "DecisionTable", "text/csv"),
                table(route(PUT, "/v1/decision-tables/{type}/{name}", "replaceDecisionTable", "decision tables",
                        "Replace a decision table at its source (the file under --decision-tables, or the ConfigMap"
                                + " <instance>-rules-<folder>) after the checks of a reload: lint problems located at row and"
                                + " cell, a value the edit leaves undecided refused; packaged tables are a 409", h -> h.tables::put))
                        .admin().query("dryRun")
                        .then(op -> ifMatchAndDryRun(op, "true: apply nothing; answer the impact of the table"))
                        .then(op -> tableBody(op).withObject("application/json").withObject("schema")
                                .put("description", "{\"cells\": [[\"...\"]]}: every row of the CSV as an array of strings"))
                        .ok("{revision, snapshotRevision, warnings[]}; with dryRun=true, {revision, warnings[], impact}", "DecisionTableWrite")
                        .errors(400, 401, 403, 409, 412, 413, 415, 422, 503),
                table(route(POST, "/v1/decision-tables/{type}/{name}/validate", "validateDecisionTable", "decision tables",
                        "Every problem of a candidate table, located at row and cell, without applying it", h -> h.tables::validate))
                        .query().then(Routes::tableBody)
                        .ok("{valid, problems[{severity, path, row, column, problem}]}", "DecisionTableValidation").errors(400, 413, 415),

                route(GET, "/v1/policy-types", "listPolicyTypes", "policy types",
                        "Registered policy types: versions, support status, targets", h -> h::listPolicyTypes)
                        .ok("{policyTypes[]}", "PolicyTypes"),
                route(GET, "/v1/policy-types/{name}", "getPolicyType", "policy types",
                        "One policy type, with its targets' request schemas", h -> h::getPolicyType)
                        .param("name", "a policy type's name, e.g. capact.implementation").ok("the policy type", "PolicyType"),

                route(GET, "/v1/catalog", "getCatalog", "catalog",
                        "Every Interface of the live catalog with its highest revision and its Implementations", h -> h.ui::catalog)
                        .ok("{catalogRevision, interfaces[{path, revision, implementations[]}]}", "Catalog"),
                route(GET, "/v1/rules", "getRules", "catalog", "For each policy type, its phases in firing order and where"
                        + " each rule is written (file, line, table row)", h -> h.ui::rules)
                        .ok("{ruleSets[{policyType, rulesRevision, phases[], rules[{rule, name, package, phase, file, line, row}]}]}", "RuleSets"),
                route(GET, "/v1/rules/{revision}", "getRuleBase", "catalog",
                        "The rules of one live rule base, by a decision's rulesRevision: what a firing's rule stands for", h -> h::rules)
                        .param("revision", "a decision's rulesRevision")
                        .ok("{revision, policyType, rules[{rule, name, package, phase, file, line, row}]}", "RuleBase"),
                route(GET, "/healthz", "healthz", "operations", "The process is up", h -> h::healthz).ok("{status: UP}", "Health"),
                route(GET, "/readyz", "readyz", "operations", "Rules compiled, policy loaded, and the decision log's health",
                        h -> h::readyz).ok("READY, with revisions", "Readiness").errors(503),
                route(GET, "/v1/status", "status", "operations", "Revisions, reloads, decision-log health, policy types",
                        h -> h::status).ok("the status", "Readiness"),
                route(GET, "/metrics", "metrics", "operations", "Prometheus text", h -> h::metrics).ok("metrics", null, "text/plain"),
                route(GET, "/openapi.json", "openApi", "operations", "This document", h -> h.ui::openApi)
                        .ok("OpenAPI 3.1", "OpenApiDocument"),
                route(GET, "/ui", "explorerRedirect", "explorer", "Redirects to /ui/", h -> UiRoutes::redirect)
                        .then(op -> op.withObject("responses").putObject("301").put("description", "to /ui/")
                                .putObject("headers").putObject("Location").putObject("schema").put("type", "string")),
                route(GET, "/ui/{file}", "explorer", "explorer",
                        "The decision explorer: /ui/ is its page, the rest its scripts and styles", h -> h.ui::asset)
                        .param("file", "empty for the page, else an asset such as app.js")
                        .ok("the page or asset", null, "text/html", "text/javascript", "text/css")));
        return routes;
    }

    /** A route of one decision table: {@code /v1/decision-tables/{type}/{name}...}. */
    private static Endpoint table(Endpoint endpoint) {
        return endpoint.param("type", "a policy type, e.g. capact.backend")
                .param("name", "a table's file name without .drl.csv, e.g. backend-priority");
    }

    /** A conditional write ({@code If-Match}) that may instead be a dry run. */
    private static void ifMatchAndDryRun(ObjectNode op, String dryRun) {
        optional(op, "If-Match", "header", null).put("type", "string");
        optional(op, "dryRun", "query", dryRun).put("type", "boolean");
    }

    /** A table as CSV, or as JSON cells; the JSON media type's content. */
    private static ObjectNode tableBody(ObjectNode op) {
        ObjectNode content = op.putObject("requestBody").put("required", true).putObject("content");
        content.putObject("text/csv").putObject("schema").put("type", "string");
        content.putObject("application/json").putObject("schema").put("type", "object");
        return content;
    }
}
