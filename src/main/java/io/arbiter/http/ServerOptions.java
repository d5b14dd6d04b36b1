package io.arbiter.http;

import io.arbiter.audit.AuditSettings;
import io.arbiter.decision.Settings;

import java.time.Duration;

/**
 * How the server runs.
 *
 * @param adminToken    the bearer token for policy administration; null or blank disables it (403)
 * @param shutdownGrace how long a stop waits for in-flight requests before closing connections
 * @param audit         the decision log
 * @param watch         reload when the policy file, rules, tables or catalog change
 * @param decisionDeadline how long one decision may take before it is abandoned with 503
 */
public record ServerOptions(String host, int port, Settings settings, String adminToken, Duration shutdownGrace,
                            AuditSettings audit, boolean watch, Duration decisionDeadline) {

    public ServerOptions(String host, int port, Settings settings, String adminToken, Duration shutdownGrace,
                         AuditSettings audit, boolean watch) {
        this(host, port, settings, adminToken, shutdownGrace, audit, watch,
                io.arbiter.engine.DecisionDeadline.DEFAULT_BUDGET);
    }

    public ServerOptions withDecisionDeadline(Duration deadline) {
        return new ServerOptions(host, port, settings, adminToken, shutdownGrace, audit, watch, deadline);
    }

    public static final int MAX_BODY_BYTES = 1024 * 1024;
    public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(10);

    public ServerOptions(String host, int port, Settings settings, String adminToken) {
        this(host, port, settings, adminToken, DEFAULT_SHUTDOWN_GRACE, AuditSettings.OFF, false);
    }

    public ServerOptions(String host, int port, Settings settings, String adminToken, Duration shutdownGrace) {
        this(host, port, settings, adminToken, shutdownGrace, AuditSettings.OFF, false);
    }

    public boolean adminEnabled() {
        return adminToken != null && !adminToken.isBlank();
    }
}
