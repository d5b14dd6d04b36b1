package io.arbiter.http;

import io.arbiter.runtime.Decisions;
import io.arbiter.model.Implementation;
import io.arbiter.model.Ref;
import io.arbiter.engine.RuleSources;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.StaticHandler;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The decision explorer ({@code /ui/}, static files packaged under {@code ui/}), the OpenAPI document, and the two
 * read-only views it needs besides the decision endpoints: the catalog's Interfaces and where each rule is written.
 */
final class UiRoutes {

    /** The page's own files only: no inline script, nothing fetched from elsewhere. */
    private static final String CONTENT_SECURITY_POLICY = "default-src 'self'; img-src 'self' data:; "
            + "style-src 'self'; script-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'";

    private final Vertx vertx;
    private final Decisions decisions;
    private final AtomicReference<RuleIndex> rules = new AtomicReference<>();
    /** Built with the routes: the registry does not change while the server runs. */
    private final Buffer openApi;

    /** The rule sources of one set of rule-base revisions. */
    private record RuleIndex(Map<String, String> revisions, Object body) {
    }

    private final StaticHandler files = StaticHandler.create("ui").setCachingEnabled(false).setDirectoryListing(false);

    UiRoutes(Vertx vertx, Decisions decisions) {
        this.vertx = vertx;
        this.decisions = decisions;
        this.openApi = Responses.encode(OpenApi.document(decisions.registry()));
    }

    /** {@code GET /ui}: to the page. Vert.x matches "/ui/" here too: only the bare path is redirected. */
    static void redirect(RoutingContext ctx) {
        if (ctx.request().path().equals("/ui")) {
            ctx.response().setStatusCode(301).putHeader("Location", "/ui/").end();
        } else {
            ctx.next();
        }
    }

    /** {@code GET /ui/*}: the page and its files. */
    void asset(RoutingContext ctx) {
        ctx.response().putHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY).putHeader("X-Content-Type-Options", "nosniff");
        files.handle(ctx);
    }

    void openApi(RoutingContext ctx) {
        ctx.response().setStatusCode(200).putHeader("Content-Type", "application/json").end(openApi.copy());
    }

    /** {@code GET /v1/catalog}: every Interface of the live catalog, highest revision first, with its Implementations. */
    void catalog(RoutingContext ctx) {
        var catalog = decisions.snapshot().catalog();
        Responses.json(ctx, 200, new CatalogView(catalog.revision(), catalog.interfacePaths().stream().sorted()
                .map(path -> new InterfaceView(path, catalog.highestInterfaceRevision(path).orElse(null),
                        catalog.implementationsOf(path).stream().map(Implementation::ref)
                                .sorted(Comparator.comparing(Ref::path).thenComparing(Ref::revision)).toList())).toList()));
    }

    record CatalogView(String catalogRevision, List<InterfaceView> interfaces) {
    }

    record InterfaceView(String path, String revision, List<Ref> implementations) {
    }

    /**
     * {@code GET /v1/rules}: for each policy type, its phases in firing order and where each rule is written. Read
     * from the rule files the server was started with, again only when the live rule bases change.
     */
    void rules(RoutingContext ctx) {
        Map<String, String> revisions = new LinkedHashMap<>();
        decisions.snapshot().ruleBases().forEach((kind, base) -> revisions.put(kind, base.revision()));
        RuleIndex known = rules.get();
        if (known != null && known.revisions().equals(revisions)) {
            Responses.json(ctx, 200, known.body());
            return;
        }
        Responses.fromWorker(vertx, ctx, () -> {
            Object body = Map.of("ruleSets", decisions.registry().types().stream().map(type -> new RuleSet(type.name(),
                    revisions.get(type.name()), type.ruleSet().phases(), decisions.snapshot().ruleBases().get(type.name()).listing()))
                    .toList());
            rules.set(new RuleIndex(revisions, body));
            return body;
        });
    }

    record RuleSet(String policyType, String rulesRevision, List<String> phases, List<RuleSources.RuleSource> rules) {
    }
}
