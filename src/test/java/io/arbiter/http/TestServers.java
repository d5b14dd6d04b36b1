package io.arbiter.http;

import io.arbiter.decision.Settings;

import java.time.Duration;

/** Servers for the HTTP tests: the embedded default on a free port of 127.0.0.1, started and ready. */
final class TestServers {

    /** A short shutdown grace: stopping a test server need not wait for requests that will not come. */
    static final Duration SHUTDOWN_GRACE = Duration.ofMillis(200);

    private TestServers() {
    }

    /** @param adminToken the admin token, or null for a server without one (admin endpoints answer 403) */
    static ArbiterServer embedded(String adminToken) throws Exception {
        return start(new ServerOptions("127.0.0.1", 0, Settings.embedded(), adminToken, SHUTDOWN_GRACE));
    }

    static ArbiterServer start(ServerOptions options) throws Exception {
        return ArbiterServer.start(options).toCompletionStage().toCompletableFuture().get();
    }
}
