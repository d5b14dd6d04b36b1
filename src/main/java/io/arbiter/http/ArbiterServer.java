package io.arbiter.http;

import io.arbiter.analysis.CompileProblems;
import io.arbiter.archive.ArchiveWriter;
import io.arbiter.kubernetes.KubernetesSource;
import io.arbiter.runtime.Decisions;
import io.arbiter.runtime.PolicyFileSource;
import io.arbiter.runtime.PolicySource;
import io.arbiter.runtime.Reloader;
import io.arbiter.runtime.SnapshotLoader;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The HTTP service: one route table, thin handlers, one error renderer. One server per core, each on its own event
 * loop, sharing the port and the one {@link Decisions} (so a policy swap is seen by all of them at once).
 */
public final class ArbiterServer {

    private static final Logger LOG = LoggerFactory.getLogger(ArbiterServer.class);

    private final Vertx vertx;
    private final List<HttpServer> servers;
    private final List<Context> eventLoops;
    private final Decisions decisions;
    private final CountDownLatch stopped = new CountDownLatch(1);

    private final long graceMillis;

    /** Null when snapshots are not archived. */
    private final ArchiveWriter archive;

    private ArbiterServer(Vertx vertx, List<HttpServer> servers, List<Context> eventLoops, Decisions decisions,
                          long graceMillis, ArchiveWriter archive) {
        this.archive = archive;
        this.vertx = vertx;
        this.servers = servers;
        this.eventLoops = eventLoops;
        this.decisions = decisions;
        this.graceMillis = graceMillis;
    }

    /** Loads the snapshot (off the event loop), then listens. Fails if rules, policy or catalog cannot load. */
    public static Future<ArbiterServer> start(ServerOptions options) {
        long started = System.nanoTime();
        // before seconds of loading: a port in use is known at once
        try {
            checkPortFree(options.host(), options.port());
        } catch (java.io.UncheckedIOException e) {
            LOG.error("arbiter failed to start: {}", e.getMessage());
            return Future.failedFuture(e);
        }
        Vertx vertx = Vertx.vertx();
        PolicyTypeRegistry registry = PolicyTypeRegistry.discover();
        ArchiveWriter archive = options.snapshotArchive() == null ? null : new ArchiveWriter(options.snapshotArchive());
        return vertx.executeBlocking(() -> decisions(options, registry))
                .map(decisions -> {
                    decisions.setDecisionDeadline(options.decisionDeadline());
                    if (archive != null) {
                        archiveSnapshots(decisions, archive);
                    }
                    // a reload from any source reports rules that do not compile as lint does
                    decisions.explainReloadFailuresWith(failure ->
                            CompileProblems.located(failure, registry, options.settings()).orElse(null));
                    if (options.kubernetes() == null && options.settings().tablesDir() != null) {
                        decisions.useTableSource(io.arbiter.runtime.TableSource.files(decisions, options.settings().tablesDir()));
                    }
                    if (options.watch()) {
                        decisions.useSource(PolicySource.watchedFiles(options.settings().policyFile()));
                        try {
                            decisions.watchWith(Reloader.watch(decisions, options.settings(), registry, options.watchSettle()));
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException("cannot watch the policy, rules and catalog: " + e.getMessage(), e);
                        }
                    } else if (options.kubernetes() == null && options.settings().policyFile() != null) {
                        decisions.useSource(new PolicyFileSource(decisions, options.settings().policyFile()));
                    }
                    return decisions;
                })
                .compose(decisions -> listen(vertx, decisions, options, archive))
                // after the JVM started: what an operator waits for, JVM start-up and option parsing included
                .onSuccess(server -> LOG.info("arbiter listening on {}:{} (ready in {} ms, {} ms after the JVM started);"
                                + " decision log: {}; decision explorer: {}", options.host(), server.port(),
                        (System.nanoTime() - started) / 1_000_000, ManagementFactory.getRuntimeMXBean().getUptime(),
                        options.audit().destination(), explorerAddress(options.host(), server.port())))
                .recover(failed -> {
                    Throwable failure = portInUse(failed, options.host(), options.port());
                    // Fail at once: a completion chained on close() would be dispatched to the closed event loop.
                    LOG.error("arbiter failed to start: {}", failure instanceof java.io.UncheckedIOException
                            ? failure.getMessage() : failure.toString());
                    if (archive != null) {
                        archive.close();
                    }
                    vertx.close();
                    return Future.failedFuture(failure);
                });
    }

    /** The browser page's address: a wildcard host is reached on this machine as localhost. */
    static String explorerAddress(String host, int port) {
        String reachable = host.equals("0.0.0.0") || host.equals("::") ? "localhost" : host.contains(":") ? "[" + host + "]" : host;
        return "http://" + reachable + ":" + port + "/ui/";
    }

    /** Fails, naming the port and what to do, when {@code port} cannot be bound on {@code host}; port 0 always can. */
    static void checkPortFree(String host, int port) {
        if (port == 0) {
            return;
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new java.net.InetSocketAddress(InetAddress.getByName(host), port), 1);
        } catch (java.net.BindException e) {
            throw portInUseError(host, port, e);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot listen on " + host + ":" + port + ": " + e.getMessage()
                    + " (check --host and --port)", e);
        }
    }

    private static java.io.UncheckedIOException portInUseError(String host, int port, java.net.BindException e) {
        return new java.io.UncheckedIOException("port " + port + " on " + host + " is in use (another arbiter?): stop "
                + "what listens there, or give another --port (--port 0 picks a free one)", e);
    }

    /** A bind failure while listening, as the same error as {@link #checkPortFree} (another process took the port meanwhile). */
    private static Throwable portInUse(Throwable failure, String host, int port) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof java.net.BindException bind) {
                return portInUseError(host, port, bind);
            }
        }
        return failure;
    }

    /**
     * The service over its first snapshot: from the files (or the embedded default), or from the ConfigMaps with
     * {@code --source kubernetes}, whose source then applies every change to it.
     */
    private static Decisions decisions(ServerOptions options, PolicyTypeRegistry registry) {
        if (options.kubernetes() == null) {
            return new Decisions(registry, SnapshotLoader.load(options.settings(), registry), options.audit().open());
        }
        KubernetesSource source = KubernetesSource.connect(options.kubernetes(), options.settings(), registry);
        try {
            Decisions decisions = new Decisions(registry, source.load(), options.audit().open());
            source.attach(decisions);
            return decisions;
        } catch (RuntimeException e) {
            source.close();
            throw e;
        }
    }

    /** Archives the live snapshot and every one that goes live after it, and counts the writes in the metrics. */
    private static void archiveSnapshots(Decisions decisions, ArchiveWriter archive) {
        decisions.audit().metrics().gauge("arbiter.snapshot.archive.written", "Snapshots written to the snapshot archive",
                archive::written);
        decisions.audit().metrics().gauge("arbiter.snapshot.archive.failed",
                "Snapshots that could not be written to the snapshot archive (logged)", archive::failed);
        decisions.onSnapshotLive(archive::archive);
        archive.archive(decisions.snapshot());
    }

    /**
     * Deploys one server per core, each on its own event loop, all on one port (Vert.x shares it among them and
     * spreads the connections). Port 0 is resolved to a free port first: servers listening on port 0 would each get
     * a port of their own.
     */
    private static Future<ArbiterServer> listen(Vertx vertx, Decisions decisions, ServerOptions options, ArchiveWriter archive) {
        List<HttpServer> servers = new CopyOnWriteArrayList<>();
        List<Context> contexts = new CopyOnWriteArrayList<>();
        int instances = Runtime.getRuntime().availableProcessors();
        RequestMemory memory = RequestMemory.forHeap(Runtime.getRuntime().maxMemory());
        int port;
        try {
            port = options.port() != 0 ? options.port() : freePort(options.host());
        } catch (IOException e) {
            return Future.failedFuture(e);
        }
        return vertx.deployVerticle(() -> context -> {
                    contexts.add(context);
                    HttpServerOptions http = httpOptions(options);
                    return vertx.createHttpServer(http)
                            .connectionHandler(connection -> {
                                MessageFraming.install(connection, http);
                                RequestHeadGuard.install(connection, options.readTimeout());
                            })
                            .invalidRequestHandler(ConnectionGuards::invalidRequest)
                            .requestHandler(RequestTarget.guardingHost(router(vertx, decisions, options, memory), options.host()))
                            .listen(port, options.host())
                            .onSuccess(servers::add);
                }, new DeploymentOptions().setInstances(instances))
                .map(ignored -> new ArbiterServer(vertx, List.copyOf(servers), List.copyOf(contexts), decisions,
                        options.shutdownGrace().toMillis(), archive));
    }

    private static int freePort(String host) throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(host))) {
            return socket.getLocalPort();
        }
    }

    private static HttpServerOptions httpOptions(ServerOptions options) {
        return new HttpServerOptions()
                .setMaxInitialLineLength(ServerOptions.MAX_REQUEST_LINE_BYTES)
                .setMaxHeaderSize(ServerOptions.MAX_HEADER_BYTES)
                .setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
                .setIdleTimeout((int) options.idleTimeout().toMillis())
                // No h2c upgrade: with it Vert.x sets a connection up only once a whole request head is in, too
                // late for RequestHeadGuard to time the head. A prior-knowledge HTTP/2 preface is answered 400.
                .setHttp2ClearTextEnabled(false);
    }

    /** The service's routes over {@code decisions}: what {@link #start} serves (also used to serve other decisions, as benchmarks do). */
    public static Router router(Vertx vertx, Decisions decisions, ServerOptions options) {
        return router(vertx, decisions, options, RequestMemory.forHeap(Runtime.getRuntime().maxMemory()));
    }

    /** The routes, holding at most what {@code memory} allows, which every router of one server shares. */
    static Router router(Vertx vertx, Decisions decisions, ServerOptions options, RequestMemory memory) {
        Handlers handlers = new Handlers(vertx, decisions, memory.deciding());
        AdminAuth admin = new AdminAuth(options.adminToken());
        Router router = Router.router(vertx);
        router.route().handler(handlers::countStatus);
        router.route().handler(ConnectionGuards.readTimeout(vertx, options.readTimeout()));
        router.route().handler(RequestTarget::check);
        // What the head alone refuses, before the body is read (and before a client expecting 100 Continue is asked
        // for it): who may administer, which query parameters a route reads, which bodies it can read.
        List<Routes.Endpoint> routes = Routes.of(decisions.registry());
        routes.stream().filter(Routes.Endpoint::adminOnly)
                .forEach(endpoint -> router.route(endpoint.method(), endpoint.routerPath()).handler(admin));
        routes.stream().filter(endpoint -> endpoint.queryParameters() != null).forEach(endpoint -> router
                .route(endpoint.method(), endpoint.routerPath()).handler(QueryParameters.only(endpoint.queryParameters())));
        router.post("/v1/decisions/*").handler(QueryParameters.only(List.of())); // every target, and any other POST under it
        router.route().handler(ConnectionGuards::refuseUnreadableBodies);
        router.route().handler(ConnectionGuards.bodyArriving(memory));
        router.route().handler(BodyHandler.create(false).setBodyLimit(ServerOptions.MAX_BODY_BYTES));
        router.route().handler(ConnectionGuards.bodyReceived(vertx));
        for (Routes.Endpoint endpoint : routes) {
            Route route = router.route(endpoint.routerPath()).method(endpoint.method());
            if (endpoint.method() == HttpMethod.GET) {
                route.method(HttpMethod.HEAD); // every resource that can be read can be asked for its headers alone
            }
            route.handler(endpoint.handler().apply(handlers));
        }

        router.route().failureHandler(ctx -> Responses.fail(ctx, ctx.failure() != null ? ctx.failure()
                : statusError(ctx.statusCode())));
        router.errorHandler(404, ctx -> Responses.fail(ctx, new ApiError(404, "NOT_FOUND",
                "no route for " + ctx.request().method() + " " + ctx.request().path())));
        // a 405's Allow (RFC 9110 15.5.6): the methods of the routes whose paths match, the routes gathered once
        List<Map.Entry<Pattern, Set<HttpMethod>>> routePaths = router.getRoutes().stream()
                .filter(route -> route.getPath() != null && route.methods() != null)
                .map(route -> Map.entry(pathPattern(route.getPath()), route.methods())).toList();
        router.errorHandler(405, ctx -> {
            String allowed = String.join(", ", routePaths.stream()
                    .filter(route -> route.getKey().matcher(ctx.request().path()).matches())
                    .flatMap(route -> route.getValue().stream()).map(HttpMethod::name).collect(Collectors.toCollection(TreeSet::new)));
            ctx.response().putHeader("Allow", allowed);
            Responses.fail(ctx, new ApiError(405, "INVALID_REQUEST", "method " + ctx.request().method()
                    + " is not allowed on " + ctx.request().path() + ": it takes " + allowed));
        });
        return router;
    }

    /**
     * A route's path as Vert.x matches it: {@code :name} is one segment; a path ending in {@code /} (Vert.x's form of
     * {@code /ui/*}) is a prefix.
     */
    private static Pattern pathPattern(String routePath) {
        StringBuilder regex = new StringBuilder();
        for (String part : routePath.split("(?=[:/])")) {
            regex.append(part.startsWith(":") ? "[^/]+" : Pattern.quote(part));
        }
        if (routePath.length() > 1 && routePath.endsWith("/")) {
            regex.append(".*");
        }
        return Pattern.compile(regex.toString());
    }

    private static ApiError statusError(int status) {
        return switch (status) {
            case 413 -> new ApiError(413, "PAYLOAD_TOO_LARGE",
                    "request body is larger than " + ServerOptions.MAX_BODY_BYTES + " bytes (1 MiB)");
            case 404 -> new ApiError(404, "NOT_FOUND", "not found");
            case 400 -> new ApiError(400, "INVALID_REQUEST", "bad request");
            default -> new ApiError(status < 400 ? 500 : status, status < 500 ? "INVALID_REQUEST" : "INTERNAL",
                    "request failed with status " + status);
        };
    }

    public int port() {
        return servers.get(0).actualPort();
    }

    public Decisions decisions() {
        return decisions;
    }

    /**
     * Runs {@code listener} after each snapshot the snapshot archive writes or fails to write, from now on (see
     * {@link ArchiveWriter#onSettled}).
     */
    public void onSnapshotArchived(Runnable listener) {
        if (archive == null) {
            throw new IllegalStateException("this server archives no snapshots");
        }
        archive.onSettled(listener);
    }

    /** The event-loop contexts the servers run on, one per server (for tests and diagnostics). */
    public List<Context> eventLoops() {
        return eventLoops;
    }

    /** Stops accepting requests, lets in-flight ones finish (up to the grace period), then closes Vert.x. Blocks. */
    public void stop() {
        try {
            Future.all(servers.stream().map(server -> server.shutdown(graceMillis, TimeUnit.MILLISECONDS)).toList())
                    .toCompletionStage().toCompletableFuture().get(graceMillis + 5_000, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            LOG.warn("HTTP server did not shut down cleanly: {}", e.toString());
        } finally {
            // stop the source's watches before the service closes
            decisions.source().close();
            try {
                vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                LOG.warn("Vert.x did not close cleanly: {}", e.toString());
            }
            decisions.close();
            if (archive != null) {
                archive.close();
            }
            stopped.countDown();
        }
    }

    public void awaitStop() throws InterruptedException {
        stopped.await();
    }
}
