package io.arbiter.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.arbiter.analysis.Finding;
import io.arbiter.analysis.PolicyLint;

import io.arbiter.decision.DecisionException;
import io.arbiter.decision.WorkAdmission;
import io.arbiter.impact.LiveImpact;
import io.arbiter.runtime.Decisions;
import io.arbiter.document.Documents;
import io.arbiter.policy.PolicyDocument;
import io.arbiter.policytype.PolicyTypeView;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.LongPredicate;

/**
 * Route handlers: each reads the request, calls one {@link Decisions} method off the event loop, renders. A decision
 * is decided and encoded on a worker thread; the event loop only sends its bytes.
 */
final class Handlers {

    private final Vertx vertx;
    private final Decisions decisions;
    private final InFlightBytes deciding;
    final TableHandlers tables;
    final UiRoutes ui;

    Handlers(Vertx vertx, Decisions decisions, InFlightBytes deciding) {
        this.vertx = vertx;
        this.decisions = decisions;
        this.deciding = deciding;
        this.tables = new TableHandlers(vertx, decisions);
        this.ui = new UiRoutes(vertx, decisions);
    }

    /** {@code POST /v1/decisions/{target}}, for whichever policy type serves the target. */
    Handler<RoutingContext> decide(String target) {
        return ctx -> {
            byte[] body = body(ctx);
            String contentType = ctx.request().getHeader("Content-Type");
            // a repeated request is answered from the memo where it arrived: handing it to a worker and back would
            // cost more than the answer does
            Optional<Decisions.Decided> memoised = decisions.decideIfMemoised(target, body, contentType);
            if (memoised.isPresent()) {
                Responses.json(ctx, 200, Buffer.buffer(memoised.get().json()));
                return;
            }
            respond(ctx, body.length, () -> Buffer.buffer(decisions.decideEncoded(target, body, contentType).json()));
        };
    }

    /** {@code POST} to a target no policy type serves: 404, naming the known ones. */
    void unknownTarget(RoutingContext ctx) {
        ctx.fail(new Decisions.UnknownTargetException(ctx.pathParam("id"),
                decisions.registry().targets().stream().map(io.arbiter.policytype.Target::name).toList()));
    }

    void getDecision(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        if (decisions.registry().targets().stream().anyMatch(target -> target.name().equals(id))) {
            // GET on a decision target: the caller meant to decide, not to read a recent decision back
            ctx.response().putHeader("Allow", "POST");
            Responses.fail(ctx, new ApiError(405, "INVALID_REQUEST", "'" + id + "' is a decision target: POST the "
                    + "request to /v1/decisions/" + id + " to decide it (GET /v1/decisions/{decisionId} reads a recent "
                    + "decision back by the decisionId it answered)"));
            return;
        }
        decisions.recentDecision(id).ifPresentOrElse(record -> Responses.json(ctx, 200, Buffer.buffer(record.json())),
                () -> Responses.fail(ctx, new ApiError(404, "NOT_FOUND",
                        "no recent decision with id '" + id + "' (the index keeps the most recent decisions only): "
                                + "look it up in the decision log with arbiter audit --id " + id + " LOG")));
    }

    /** {@code GET /v1/rules/{revision}}: every rule of a live rule base, with its name, package and file. */
    void rules(RoutingContext ctx) {
        String revision = ctx.pathParam("revision");
        Responses.fromWorker(vertx, ctx, () -> decisions.rules(revision).orElseThrow(() ->
                new ApiError(404, "NOT_FOUND", "no live rule base with revision '" + revision + "'")));
    }

    void metrics(RoutingContext ctx) {
        ctx.response().setStatusCode(200).putHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
                .end(decisions.audit().metrics().scrape());
    }

    void countStatus(RoutingContext ctx) {
        ctx.addBodyEndHandler(ignored -> decisions.audit().metrics().httpStatus(ctx.response().getStatusCode()));
        ctx.next();
    }

    void listPolicyTypes(RoutingContext ctx) {
        Responses.json(ctx, 200, Map.of("policyTypes", decisions.registry().types().stream()
                .map(type -> PolicyTypeView.of(type, false)).toList()));
    }

    void getPolicyType(RoutingContext ctx) {
        String name = ctx.pathParam("name");
        decisions.registry().type(name).ifPresentOrElse(
                type -> Responses.json(ctx, 200, PolicyTypeView.of(type, true)),
                () -> Responses.fail(ctx, new ApiError(404, "NOT_FOUND", "no policy type named '" + name + "'")));
    }

    void getPolicy(RoutingContext ctx) {
        PolicyDocument policy = decisions.snapshot().policy();
        ctx.response().putHeader("ETag", quoted(policy.revision()));
        String accept = ctx.request().getHeader("Accept");
        if (Documents.isYaml(accept)) {
            Responses.yaml(ctx, 200, policy.source());
        } else {
            Responses.json(ctx, 200, policy.source());
        }
    }

    void putPolicy(RoutingContext ctx) {
        byte[] body = body(ctx);
        String contentType = ctx.request().getHeader("Content-Type");
        if (booleanParam(ctx, "dryRun", false)) {
            respond(ctx, body.length, () -> Responses.encode(LiveImpact.ofPolicy(decisions, body, contentType, LiveImpact.Scope.all())));
            return;
        }
        Optional<io.arbiter.decision.RevisionMatch> ifMatch;
        try {
            ifMatch = IfMatch.parse(ctx.request().headers().getAll("If-Match"));
        } catch (ApiError e) {
            Responses.fail(ctx, e);
            return;
        }
        Responses.fromWorker(vertx, ctx, () -> decisions.source().replace(body, contentType, ifMatch), replaced -> {
            PolicyDocument policy = replaced.policy();
            ctx.response().putHeader("ETag", quoted(policy.revision()));
            Responses.json(ctx, 200, new PolicyWritten(policy.revision(), policy.warnings(), replaced.note()));
        });
    }

    /** A policy replaced: its revision, its warnings, and what the source notes of the write, if anything. */
    record PolicyWritten(String revision, List<String> warnings, @JsonInclude(JsonInclude.Include.NON_NULL) String note) {
    }

    /**
     * {@code POST /v1/impact[?sweep=&recent=&limit=]}: what the policy in the body would decide differently from the
     * live one, over the catalog and the recent decisions. Nothing is applied.
     */
    void impact(RoutingContext ctx) {
        byte[] body = body(ctx);
        String contentType = ctx.request().getHeader("Content-Type");
        LiveImpact.Scope scope;
        try {
            scope = new LiveImpact.Scope(booleanParam(ctx, "sweep", true), booleanParam(ctx, "recent", true),
                    intParam(ctx, "limit", LiveImpact.Scope.DEFAULT_MAX_CHANGES));
        } catch (IllegalArgumentException e) {
            throw new ApiError(400, "INVALID_REQUEST", e.getMessage(), List.of(io.arbiter.document.Problem.at("$query", e.getMessage())));
        }
        respond(ctx, body.length, () -> Responses.encode(TableHandlers.candidate(decisions, body, contentType)
                .map(candidate -> LiveImpact.of(decisions, candidate, scope))
                .orElseGet(() -> LiveImpact.ofPolicy(decisions, body, contentType, scope))));
    }

    private static boolean booleanParam(RoutingContext ctx, String name, boolean absent) {
        String value = ctx.request().getParam(name);
        if (value == null) {
            return absent;
        }
        return switch (value) {
            case "true", "" -> true;
            case "false" -> false;
            default -> throw new ApiError(400, "INVALID_REQUEST", "query parameter " + name + " must be true or false, not '"
                    + shorten(value) + "'", List.of(io.arbiter.document.Problem.at(name, "must be true or false")));
        };
    }

    private static int intParam(RoutingContext ctx, String name, int absent) {
        String value = ctx.request().getParam(name);
        if (value == null) {
            return absent;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new ApiError(400, "INVALID_REQUEST", "query parameter " + name + " must be a whole number, not '"
                    + shorten(value) + "'", List.of(io.arbiter.document.Problem.at(name, "must be a whole number")));
        }
    }

    private static String shorten(String value) {
        return value.length() <= 40 ? value : value.substring(0, 40) + "…";
    }

    void validatePolicy(RoutingContext ctx) {
        byte[] body = body(ctx);
        String contentType = ctx.request().getHeader("Content-Type");
        String as = ctx.request().getParam("as");
        respond(ctx, body.length, () -> Responses.encode(validation(PolicyLint.lint(body, contentType, role(as), decisions.snapshot(),
                decisions.registry(), decisions.decisionDeadline()))));
    }

    /**
     * The contract's {@code valid} and {@code problems} (errors and warnings, each with its severity and check code),
     * and the warnings' texts as {@code warnings}, as PUT answers them.
     */
    private static PolicyValidation validation(List<Finding> findings) {
        return new PolicyValidation(PolicyLint.valid(findings), findings,
                findings.stream().filter(finding -> !finding.isError()).map(Finding::problem).toList());
    }

    record PolicyValidation(boolean valid, List<Finding> problems, List<String> warnings) {
    }

    private static PolicyLint.Role role(String as) {
        try {
            return as == null ? PolicyLint.Role.GLOBAL : PolicyLint.Role.parse(as);
        } catch (IllegalArgumentException e) {
            throw new DecisionException(DecisionException.Code.INVALID_REQUEST, e.getMessage(),
                    List.of(io.arbiter.document.Problem.at("as", e.getMessage())));
        }
    }

    void healthz(RoutingContext ctx) {
        Responses.json(ctx, 200, Map.of("status", "UP"));
    }

    /**
     * Ready once a snapshot serves; a rejected reload is shown but does not make the service unready. A required
     * decision log that cannot write, or whose writer stopped, does (503): every decision would be refused. A
     * best-effort log's failures are shown and leave the service ready.
     */
    void readyz(RoutingContext ctx) {
        var log = decisions.audit().logHealth();
        if (log.ready()) {
            Responses.json(ctx, 200, status("READY"));
        } else {
            Responses.json(ctx, 503, new NotReady(new ApiError(503, "INTERNAL", log.notReadyReason()).body().error(),
                    status("NOT_READY")));
        }
    }

    void status(RoutingContext ctx) {
        var reload = decisions.reloadState();
        Responses.json(ctx, 200, new ServiceStatus(status("SERVING"), reload.reloads(), reload.rejected(), reload.lastReloadAt(),
                decisions.registry().types().stream().map(type -> type.name()).toList()));
    }

    /**
     * What {@code /readyz} and {@code /v1/status} say: the revisions serving, the last reload's error, the decision
     * log's health, and where the policy comes from (with Kubernetes, whether the API server is reachable and the
     * latest content serves).
     */
    record Status(String status, String policyRevision, Map<String, String> rulesRevisions, String catalogRevision,
                  String typeInstancesRevision, String snapshotRevision, String lastReloadError, DecisionLogView decisionLog,
                  Map<String, Object> source) {
    }

    record NotReady(ApiError.Error error, @JsonUnwrapped Status status) {
    }

    record ServiceStatus(@JsonUnwrapped Status status, long reloads, long rejectedReloads, String lastReloadAt,
                         List<String> policyTypes) {
    }

    private Status status(String state) {
        var snapshot = decisions.snapshot();
        Map<String, String> rules = new LinkedHashMap<>();
        snapshot.ruleBases().forEach((kind, base) -> rules.put(kind, base.revision()));
        return new Status(state, snapshot.policy().revision(), rules, snapshot.catalog().revision(),
                snapshot.typeInstances().revision(), snapshot.revision(), decisions.reloadState().lastReloadError(),
                decisionLog(decisions.audit().logHealth()), decisions.source().status());
    }

    /** The decision log's health as {@code /readyz} and {@code /v1/status} show it. */
    record DecisionLogView(String mode, boolean writerAlive, boolean writable, long written, long dropped, long failed,
                           String lastError, String lastErrorAt) {
    }

    private static DecisionLogView decisionLog(io.arbiter.audit.DecisionLog.Health log) {
        return new DecisionLogView(log.enabled() ? log.mode().name() : "OFF", log.writerAlive(), log.writable(), log.written(),
                log.dropped(), log.failed(), log.lastError(), log.lastErrorAt() == null ? null : log.lastErrorAt().toString());
    }

    /**
     * Runs {@code work} (deciding and encoding) on a worker thread, within the request bytes that may be decided at
     * once ({@link RequestMemory#deciding}); the event loop sends the bytes, or the error.
     */
    private void respond(RoutingContext ctx, long bytes, Callable<Buffer> work) {
        if (!deciding.take(bytes)) {
            RequestMemory.refuseForNow(ctx, "deciding", deciding, bytes);
            return;
        }
        // and, once a decision knows its work, the bytes that work holds (RequestMemory.decidingBytesFor)
        // each share given back as it was taken: a small one was not counted, and a sum of them must not be given
        ConcurrentLinkedQueue<Long> forWork = new ConcurrentLinkedQueue<>();
        LongPredicate reserve = heap -> {
            long share = RequestMemory.decidingBytesFor(heap);
            if (!deciding.take(share)) {
                return false;
            }
            forWork.add(share);
            return true;
        };
        vertx.executeBlocking(() -> WorkAdmission.within(reserve, work), false).onComplete(result -> {
            deciding.give(bytes);
            forWork.forEach(deciding::give);
            if (result.succeeded()) {
                Responses.json(ctx, 200, result.result());
            } else {
                Responses.fail(ctx, result.cause());
            }
        });
    }

    static byte[] body(RoutingContext ctx) {
        return ctx.body().buffer() == null ? new byte[0] : ctx.body().buffer().getBytes();
    }

    static String quoted(String revision) {
        return "\"" + revision + "\"";
    }
}
