package io.arbiter.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.analysis.Finding;
import io.arbiter.decision.DecisionException;
import io.arbiter.decision.RevisionMatch;
import io.arbiter.decision.Snapshot;
import io.arbiter.document.Documents;
import io.arbiter.document.Problem;
import io.arbiter.impact.ImpactReport;
import io.arbiter.impact.LiveImpact;
import io.arbiter.runtime.Decisions;
import io.arbiter.tables.DecisionTables;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@code /v1/decision-tables}: list, read (grid or CSV), replace ({@code ?dryRun=true}: the impact only). */
final class TableHandlers {

    private final Vertx vertx;
    private final Decisions decisions;

    TableHandlers(Vertx vertx, Decisions decisions) {
        this.vertx = vertx;
        this.decisions = decisions;
    }

    void list(RoutingContext ctx) {
        Responses.json(ctx, 200, Map.of("tables", DecisionTables.list(decisions)));
    }

    void get(RoutingContext ctx) {
        DecisionTables.Table table = DecisionTables.find(decisions, ctx.pathParam("type"), ctx.pathParam("name"));
        ctx.response().putHeader("ETag", Handlers.quoted(table.revision()));
        String accept = ctx.request().getHeader("Accept");
        if (accept != null && accept.toLowerCase(java.util.Locale.ROOT).contains("text/csv")) {
            ctx.response().setStatusCode(200).putHeader("Content-Type", "text/csv; charset=utf-8")
                    .end(Buffer.buffer(DecisionTables.csv(table).getBytes(StandardCharsets.UTF_8)));
            return;
        }
        Responses.json(ctx, 200, DecisionTables.view(decisions, table));
    }

    /** {@code POST .../validate}: the problems of a candidate table at row and cell, nothing applied (no token). */
    void validate(RoutingContext ctx) {
        byte[] body = Handlers.body(ctx);
        String contentType = ctx.request().getHeader("Content-Type");
        String type = ctx.pathParam("type");
        String name = ctx.pathParam("name");
        Responses.fromWorker(vertx, ctx, () -> DecisionTables.validate(decisions, DecisionTables.find(decisions, type, name),
                body, contentType));
    }

    void put(RoutingContext ctx) {
        byte[] body = Handlers.body(ctx);
        String contentType = ctx.request().getHeader("Content-Type");
        boolean dryRun = "true".equals(ctx.request().getParam("dryRun")) || "".equals(ctx.request().getParam("dryRun"));
        Optional<RevisionMatch> ifMatch = IfMatch.parse(ctx.request().headers().getAll("If-Match"));
        String type = ctx.pathParam("type");
        String name = ctx.pathParam("name");
        Responses.fromWorker(vertx, ctx, () -> {
            DecisionTables.Table table = DecisionTables.find(decisions, type, name);
            byte[] content = DecisionTables.content(body, contentType);
            if (dryRun) {
                DecisionTables.Candidate candidate = DecisionTables.candidate(decisions, table, content);
                return (Object) new DryRun(io.arbiter.runtime.TableSource.revisionOf(content), candidate.warnings(),
                        LiveImpact.of(decisions, candidate.snapshot(), LiveImpact.Scope.all()));
            }
            DecisionTables.Replaced replaced = DecisionTables.replace(decisions, table, content, ifMatch);
            return new Written(replaced.revision(), replaced.snapshotRevision(), replaced.warnings(), replaced.note());
        }, answer -> {
            if (answer instanceof Written written && written.snapshotRevision() != null) {
                ctx.response().putHeader("ETag", Handlers.quoted(written.revision()));
            }
            Responses.json(ctx, 200, answer);
        });
    }

    /** What a table PUT with {@code dryRun=true} answers. */
    record DryRun(String revision, List<Finding> warnings, ImpactReport impact) {
    }

    /** What a table PUT answers: the new revisions and, if the source has any, its note of the write. */
    record Written(String revision, String snapshotRevision, List<Finding> warnings,
                   @JsonInclude(JsonInclude.Include.NON_NULL) String note) {
    }

    /**
     * The candidate of a {@code POST /v1/impact} body of the form {@code {"candidate": {"policy": ..., "tables":
     * {"<type>/<name>": "<csv>" | {"cells": [...]}}, "rules": {"<folder>/<file>.drl": "<drl>"}}}}, or empty for a body
     * that is a policy.
     */
    static Optional<Snapshot> candidate(Decisions decisions, byte[] body, String contentType) {
        if (contentType == null || !contentType.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
            return Optional.empty();
        }
        JsonNode root;
        try {
            root = Documents.jsonMapper().readTree(body);
        } catch (java.io.IOException e) {
            return Optional.empty(); // the policy path reports it as it always has
        }
        if (root == null || !root.isObject() || !root.has("candidate")) {
            return Optional.empty();
        }
        JsonNode candidate = root.get("candidate");
        if (!candidate.isObject()) {
            throw invalid("$.candidate", "an object with policy, tables and rules");
        }
        Snapshot base = decisions.snapshot();
        JsonNode policy = candidate.get("policy");
        if (policy != null && !policy.isNull()) {
            byte[] text = policy.isTextual() ? policy.asText().getBytes(StandardCharsets.UTF_8) : policy.toString().getBytes(StandardCharsets.UTF_8);
            base = decisions.withCandidatePolicy(text, policy.isTextual() ? "application/yaml" : "application/json");
        }
        Map<String, byte[]> tables = new LinkedHashMap<>();
        JsonNode tableNodes = candidate.path("tables");
        for (Map.Entry<String, JsonNode> entry : tableNodes.properties()) {
            String[] parts = entry.getKey().split("/", 2);
            if (parts.length != 2) {
                throw invalid("$.candidate.tables." + entry.getKey(), "a table is named <type>/<name>");
            }
            DecisionTables.Table table = DecisionTables.find(decisions, parts[0], parts[1]);
            JsonNode value = entry.getValue();
            byte[] content = value.isTextual()
                    ? DecisionTables.content(value.asText().getBytes(StandardCharsets.UTF_8), "text/csv")
                    : DecisionTables.content(value.toString().getBytes(StandardCharsets.UTF_8), "application/json");
            tables.put(table.folder() + "/" + table.file(), content);
        }
        Map<String, byte[]> rules = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : candidate.path("rules").properties()) {
            if (!entry.getKey().matches("[A-Za-z0-9._-]+/[A-Za-z0-9._-]+\\.drl") || !entry.getValue().isTextual()) {
                throw invalid("$.candidate.rules." + entry.getKey(), "a DRL file is named <folder>/<file>.drl and given as text");
            }
            rules.put(entry.getKey(), entry.getValue().asText().getBytes(StandardCharsets.UTF_8));
        }
        if (tables.isEmpty() && rules.isEmpty()) {
            return Optional.of(base);
        }
        return Optional.of(DecisionTables.check(decisions, base, tables, rules, "the candidate").snapshot());
    }

    private static DecisionException invalid(String path, String problem) {
        return new DecisionException(DecisionException.Code.INVALID_REQUEST, path + ": " + problem,
                List.of(Problem.at(path, problem)));
    }
}
