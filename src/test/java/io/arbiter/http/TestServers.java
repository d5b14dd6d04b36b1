package io.arbiter.http;

import io.arbiter.decision.Settings;

import java.time.Duration;

/** Servers for the HTTP tests: the embedded default on a free port of 127.0.0.1, started and ready. */
final class TestServers {

    /** A short shutdown grace: stopping a test server need not wait for requests that will not come. */
    static final Duration SHUTDOWN_GRACE = Duration.ofMillis(200);

    private static ArbiterServer shared;

    private TestServers() {
    }

    /**
     * One server on the embedded default, for the classes that only read it (no policy change, no state a test
     * counts on): started once per test JVM and stopped with it. Its admin token is {@code test-admin-token}.
     */
    static synchronized ArbiterServer shared() throws Exception {
        if (shared == null) {
            ArbiterServer server = embedded("test-admin-token");
            Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "shared-test-server-stop"));
            shared = server;
        }
        return shared;
    }

    /** @param adminToken the admin token, or null for a server without one (admin endpoints answer 403) */
    static ArbiterServer embedded(String adminToken) throws Exception {
        return start(new ServerOptions("127.0.0.1", 0, Settings.embedded(), adminToken, SHUTDOWN_GRACE));
    }

    static ArbiterServer start(ServerOptions options) throws Exception {
        return ArbiterServer.start(options).toCompletionStage().toCompletableFuture().get();
    }
}
