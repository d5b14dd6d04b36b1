package io.arbiter.http;

import io.arbiter.archive.SnapshotArchive;

import io.arbiter.audit.AuditSettings;
import io.arbiter.runtime.Reloader;
import io.arbiter.decision.Settings;

import java.time.Duration;

/**
 * How the server runs.
 *
 * @param adminToken    the bearer token for policy administration, without leading and trailing whitespace (it is
 *                      trimmed, as the presented one is); null or blank disables it (403)
 * @param shutdownGrace how long a stop waits for in-flight requests before closing connections
 * @param audit         the decision log
 * @param watch         reload when the policy file, rules, tables or catalog change
 * @param watchSettle   how long a watched change must stay the same before it is applied
 * @param idleTimeout   a connection that neither sends nor receives for this long is closed
 * @param readTimeout   a request whose body has not been received this long after its headers is refused (408)
 * @param decisionDeadline how long one decision may take before it is abandoned with 503
 * @param snapshotArchive where every snapshot that goes live is archived; null: nowhere
 * @param kubernetes    {@code --source kubernetes}: the policy and rules come from ConfigMaps; null: from files
 */
public record ServerOptions(String host, int port, Settings settings, String adminToken, Duration shutdownGrace,
                            AuditSettings audit, boolean watch, Duration watchSettle, Duration idleTimeout,
                            Duration readTimeout, Duration decisionDeadline, SnapshotArchive snapshotArchive,
                            io.arbiter.kubernetes.KubernetesSettings kubernetes) {

    public ServerOptions(String host, int port, Settings settings, String adminToken, Duration shutdownGrace,
                         AuditSettings audit, boolean watch, Duration watchSettle, Duration idleTimeout,
                         Duration readTimeout, Duration decisionDeadline, SnapshotArchive snapshotArchive) {
        this(host, port, settings, adminToken, shutdownGrace, audit, watch, watchSettle, idleTimeout, readTimeout,
                decisionDeadline, snapshotArchive, null);
    }

    public ServerOptions(String host, int port, Settings settings, String adminToken, Duration shutdownGrace,
                         AuditSettings audit, boolean watch, Duration watchSettle, Duration idleTimeout,
                         Duration readTimeout, Duration decisionDeadline) {
        this(host, port, settings, adminToken, shutdownGrace, audit, watch, watchSettle, idleTimeout, readTimeout,
                decisionDeadline, null);
    }

    public static final int MAX_BODY_BYTES = 1024 * 1024;
    /** The longest request line (method, path and query, version): longer ones are answered 414. */
    public static final int MAX_REQUEST_LINE_BYTES = 4096;
    /** The largest header block: larger ones are answered 431. */
    public static final int MAX_HEADER_BYTES = 8192;
    public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(10);
    /** Longer than the 60 s idle timeout of common load balancers, so that they close first and never reuse a closed connection. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(75);
    /** A 1 MiB body takes well under a second on any link a decision service is used over. */
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(30);

    public ServerOptions {
        requirePositive("watch settle period", watchSettle, true);
        requirePositive("idle timeout", idleTimeout, false);
        requirePositive("read timeout", readTimeout, false);
        requirePositive("decision deadline", decisionDeadline, false);
        if (kubernetes != null && watch) {
            throw new IllegalArgumentException("--watch reads files; with --source kubernetes the informer watches the ConfigMaps");
        }
    }

    public ServerOptions(String host, int port, Settings settings, String adminToken) {
        this(host, port, settings, adminToken, DEFAULT_SHUTDOWN_GRACE, AuditSettings.OFF, false);
    }

    public ServerOptions(String host, int port, Settings settings, String adminToken, Duration shutdownGrace) {
        this(host, port, settings, adminToken, shutdownGrace, AuditSettings.OFF, false);
    }

    public ServerOptions(String host, int port, Settings settings, String adminToken, Duration shutdownGrace,
                         AuditSettings audit, boolean watch) {
        this(host, port, settings, adminToken, shutdownGrace, audit, watch, Reloader.DEFAULT_SETTLE,
                DEFAULT_IDLE_TIMEOUT, DEFAULT_READ_TIMEOUT, io.arbiter.engine.DecisionDeadline.DEFAULT_BUDGET);
    }

    /** The same options with other connection timeouts. */
    public ServerOptions withTimeouts(Duration idle, Duration read) {
        return new ServerOptions(host, port, settings, adminToken, shutdownGrace, audit, watch, watchSettle, idle, read,
                decisionDeadline, snapshotArchive, kubernetes);
    }

    /** The same options with another settle period for watched changes. */
    public ServerOptions withWatchSettle(Duration settle) {
        return new ServerOptions(host, port, settings, adminToken, shutdownGrace, audit, watch, settle, idleTimeout,
                readTimeout, decisionDeadline, snapshotArchive, kubernetes);
    }

    /** The same options with another decision deadline. */
    public ServerOptions withDecisionDeadline(Duration deadline) {
        return new ServerOptions(host, port, settings, adminToken, shutdownGrace, audit, watch, watchSettle, idleTimeout,
                readTimeout, deadline, snapshotArchive, kubernetes);
    }

    /** The same options, archiving every snapshot that goes live in {@code archive}. */
    public ServerOptions withSnapshotArchive(SnapshotArchive archive) {
        return new ServerOptions(host, port, settings, adminToken, shutdownGrace, audit, watch, watchSettle, idleTimeout,
                readTimeout, decisionDeadline, archive, kubernetes);
    }

    /** The same options, serving the policy and rules of the ConfigMaps {@code kubernetes} names. */
    public ServerOptions withKubernetes(io.arbiter.kubernetes.KubernetesSettings kubernetes) {
        return new ServerOptions(host, port, settings, adminToken, shutdownGrace, audit, watch, watchSettle, idleTimeout,
                readTimeout, decisionDeadline, snapshotArchive, kubernetes);
    }

    private static void requirePositive(String name, Duration value, boolean zeroAllowed) {
        if (value == null || value.isNegative() || (!zeroAllowed && value.isZero())) {
            throw new IllegalArgumentException("the " + name + " must be " + (zeroAllowed ? "zero or more" : "positive") + ", not " + value);
        }
        if (value.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("the " + name + " is too long: " + value);
        }
    }
}
