package io.arbiter.cli;

import io.arbiter.archive.SnapshotArchive;

import io.arbiter.audit.AuditSettings;
import io.arbiter.audit.DecisionLog;
import io.arbiter.audit.KafkaSinkSettings;
import io.arbiter.http.AdminToken;
import io.arbiter.http.ArbiterServer;
import java.nio.file.Path;
import java.time.Duration;
import io.arbiter.http.ServerOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code arbiter serve}: the HTTP decision service. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Serve decisions over HTTP.",
                "With no options it serves the embedded default: the fixture catalog, TypeInstance store and default global policy.",
                "Policy administration (PUT /v1/policy) needs the ARBITER_ADMIN_TOKEN environment variable; without it that endpoint answers 403.",
                "Leading and trailing whitespace (a token file's final newline) is not part of the token; a token that is empty or holds inner whitespace or control characters stops start-up."})
final class ServeCommand extends ArbiterCommand {

    /** 1 TiB: beyond that a size is a typo (and MiB times 2^20 must not overflow). */
    private static final long MAX_LOG_SIZE_MIB = 1024L * 1024;
    /** A day: beyond that a timeout is a typo (and fits the server's millisecond settings). */
    private static final long MAX_TIMEOUT_SECONDS = 24 * 3600;

    @Option(names = "--port", defaultValue = "8080", paramLabel = "PORT", description = "HTTP port (default: ${DEFAULT-VALUE}; 0 picks a free one).")
    int port;

    @Option(names = "--host", defaultValue = "127.0.0.1", paramLabel = "HOST",
            description = "Address to listen on (default: ${DEFAULT-VALUE}, this machine only; --host 0.0.0.0 listens on every interface, as in a container).")
    String host;

    @Option(names = "--idle-timeout", defaultValue = "75", paramLabel = "SECONDS",
            description = "Close a connection that sends and receives nothing for SECONDS (default: ${DEFAULT-VALUE}; keep it above a load balancer's idle timeout).")
    long idleTimeoutSeconds;

    @Option(names = "--read-timeout", defaultValue = "30", paramLabel = "SECONDS",
            description = "Answer 408 and close the connection when a request's headers have not arrived SECONDS after its first byte (after the accept, for a connection's first request), or its body SECONDS after its headers (default: ${DEFAULT-VALUE}).")
    long readTimeoutSeconds;

    @Option(names = "--decision-log", paramLabel = "FILE|off",
            description = "With the file sink: append every decision as a JSON line to FILE (rotated by size). Default: "
                    + "arbiter-decisions.log in the working directory. off keeps no record: a decision can then be explained"
                    + " (arbiter audit --id) or replayed only while it is in the recent-decision index, and not after a restart.")
    Path decisionLog;

    /** Where the decision log and the snapshot archive go when no option names them: next to the working directory. */
    static final Path DEFAULT_DECISION_LOG = Path.of("arbiter-decisions.log");
    static final Path DEFAULT_SNAPSHOT_ARCHIVE = Path.of("arbiter-snapshots");
    private static final Path OFF = Path.of("off");

    @Option(names = "--decision-log-sink", defaultValue = "FILE", paramLabel = "SINK",
            description = "Where decision records go: file (--decision-log FILE, rotated), stdout (one JSON line per decision, for a log collector; the server's own log is on stderr) or kafka (a topic, see --decision-log-kafka). Default: file.")
    AuditSettings.Sink decisionLogSink;

    @Option(names = "--decision-log-kafka", paramLabel = "PROPERTIES",
            description = "With --decision-log-sink kafka: a properties file with arbiter.topic, arbiter.key (decisionId, the default, or policyRevision), bootstrap.servers and any other Kafka producer property (TLS: security.protocol, ssl.*; SASL: sasl.*). acks=all and idempotence are always on.")
    Path decisionLogKafka;

    @Option(names = "--decision-log-mode", defaultValue = "BEST_EFFORT", paramLabel = "MODE",
            description = "BEST_EFFORT: drop (and count) records the log cannot keep up with or write. REQUIRED: answer a decision only once its record is written, and refuse it (503) when it is not. Default: ${DEFAULT-VALUE}.")
    DecisionLog.Mode decisionLogMode;

    @Option(names = "--decision-log-size", defaultValue = "64", paramLabel = "MIB",
            description = "Rotate the decision log when the next record would take it past MIB MiB: FILE becomes FILE.1 (default: ${DEFAULT-VALUE}; a usual record takes 1.5 to 13 KB, any record at most 16 KiB, so a file of MIB MiB holds at least MIB x 64 records).")
    long decisionLogSizeMib;

    @Option(names = "--decision-log-files", defaultValue = "5", paramLabel = "COUNT",
            description = "Rotated decision-log files kept, FILE.1 (newest) to FILE.COUNT; a rotation deletes the oldest beyond that (default: ${DEFAULT-VALUE}; with the default size they keep 20,480 decisions at worst, COUNT x MIB x 64 in general). Ship or archive them before, for audits that reach further back.")
    int decisionLogFiles;

    @Option(names = "--log-parameters", description = "Write additional parameter values to the decision log (masked by default: they may hold secrets).")
    boolean logParameters;

    @Option(names = "--recent-decisions", defaultValue = "1000", paramLabel = "COUNT",
            description = "How many of the most recent decisions GET /v1/decisions/{id} can return (default: ${DEFAULT-VALUE}), within --audit-memory.")
    int recentDecisions;

    @Option(names = "--audit-memory", paramLabel = "MIB",
            description = "Heap in MiB that the decision log's buffer and the recent-decision index may each keep (the records' encoded bytes). Default: 64, or an eighth of the heap when that is less.")
    Integer auditMemoryMib;

    @Option(names = "--watch", description = "Reload when the policy file (e.g. a ConfigMap mount), a rule file, a decision table or the catalog changes. A change that fails to load is rejected and the previous policy and rules keep serving (see /readyz).")
    boolean watch;

    @Option(names = "--decision-deadline", defaultValue = "10s", paramLabel = "DURATION",
            description = "How long one decision may take (e.g. 10s, 500ms); past it the decision is abandoned and answered 503 (default: ${DEFAULT-VALUE}).")
    String decisionDeadline;

    @Option(names = "--watch-settle", defaultValue = "1000", paramLabel = "MILLIS",
            description = "With --watch, apply a change once the files have stayed the same for MILLIS (default: ${DEFAULT-VALUE}), so that a file written in steps is not read half-written. A writer that pauses for longer should write another file and rename it over.")
    long watchSettleMillis;

    @Option(names = "--snapshot-archive", paramLabel = "DIR|off",
            description = "Archive every snapshot that goes live (at start, on each reload and each accepted PUT /v1/policy) in DIR: "
                    + "its policy, rules, decision tables, catalog and TypeInstances, each stored once by revision, so that "
                    + "arbiter audit --id ID --replay LOG --archive DIR can decide a logged decision again. Default: "
                    + "arbiter-snapshots in the working directory. off archives nothing: a logged decision can then not be replayed.")
    Path snapshotArchive;

    @Option(names = "--snapshot-archive-keep", paramLabel = "N",
            description = "Keep the last N snapshots to go live in --snapshot-archive, and the parts they name (default: "
                    + SnapshotArchive.DEFAULT_KEEP + ").")
    Integer snapshotArchiveKeep;

    /** Where the policy and rules come from. */
    enum Source { FILES, KUBERNETES }

    @Option(names = "--source", defaultValue = "FILES", paramLabel = "SOURCE",
            description = "Where the policy, rules and decision tables come from: files (--policy, --rules, --decision-tables, the embedded default; "
                    + "reloaded with --watch) or kubernetes (the ConfigMaps <instance>-policy and <instance>-rules-<folder>, watched by every replica; "
                    + "PUT /v1/policy writes the policy ConfigMap; docs/kubernetes.md). Default: files.")
    Source source;

    @Option(names = "--kubernetes-namespace", paramLabel = "NAMESPACE",
            description = "With --source kubernetes: the namespace of the ConfigMaps. Default: the pod's own (its service account's), else the kubeconfig's.")
    String kubernetesNamespace;

    @Option(names = "--kubernetes-instance", defaultValue = "arbiter", paramLabel = "NAME",
            description = "With --source kubernetes: the app.kubernetes.io/instance label of the ConfigMaps, and their name prefix (default: ${DEFAULT-VALUE}).")
    String kubernetesInstance;

    @Mixin
    SnapshotOptions snapshot;

    @Override
    io.arbiter.decision.Settings loadedSettings() {
        return snapshot.settings();
    }

    @Override
    public Integer call() throws Exception {
        ServerOptions options = serverOptions(adminToken());
        if (decisionLogSink == AuditSettings.Sink.STDOUT) {
            // Standard output carries the decision records alone: anything else printed goes to standard error.
            System.setOut(System.err);
        }
        ArbiterServer server = ArbiterServer.start(options).toCompletionStage().toCompletableFuture().get();
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "arbiter-shutdown"));
        server.awaitStop();
        return 0;
    }

    /** The environment variables; a test gives its own. */
    java.util.function.UnaryOperator<String> environment = System::getenv;

    /** {@code ARBITER_ADMIN_TOKEN}, trimmed; null when unset; a set variable without a usable token stops start-up. */
    String adminToken() {
        return AdminToken.configured(environment.apply(AdminToken.VARIABLE));
    }

    /** {@code --decision-deadline}: a positive number of seconds ({@code 10s}) or milliseconds ({@code 500ms}). */
    java.time.Duration decisionDeadline() {
        java.util.regex.Matcher matcher = java.util.regex.Pattern.compile("([0-9]{1,9})(ms|s)").matcher(decisionDeadline.trim());
        if (!matcher.matches() || Long.parseLong(matcher.group(1)) == 0) {
            throw console.usage("--decision-deadline must be a positive duration in s or ms (e.g. 10s, 500ms), not '" + decisionDeadline + "'");
        }
        long amount = Long.parseLong(matcher.group(1));
        return matcher.group(2).equals("s") ? java.time.Duration.ofSeconds(amount) : java.time.Duration.ofMillis(amount);
    }

    /** The options as server options; a timeout out of range is a usage error. */
    ServerOptions serverOptions(String adminToken) {
        Duration idle = seconds("--idle-timeout", idleTimeoutSeconds);
        Duration read = seconds("--read-timeout", readTimeoutSeconds);
        if (watchSettleMillis < 0 || watchSettleMillis > MAX_TIMEOUT_SECONDS * 1000) {
            throw console.usage("--watch-settle must be from 0 to " + MAX_TIMEOUT_SECONDS * 1000 + " (milliseconds), not " + watchSettleMillis);
        }
        return new ServerOptions(host, port, snapshot.settings(), adminToken, ServerOptions.DEFAULT_SHUTDOWN_GRACE,
                auditSettings(), watch, Duration.ofMillis(watchSettleMillis), idle, read, decisionDeadline(), snapshotArchive(),
                kubernetes());
    }

    /** {@code --source kubernetes} and its options, checked; null with files as the source. */
    private io.arbiter.kubernetes.KubernetesSettings kubernetes() {
        if (source != Source.KUBERNETES) {
            if (kubernetesNamespace != null) {
                throw console.usage("--kubernetes-namespace needs --source kubernetes");
            }
            return null;
        }
        if (watch) {
            throw console.usage("--watch reads files: with --source kubernetes every replica watches the ConfigMaps already");
        }
        if (snapshot.policy != null || snapshot.rules != null) {
            throw console.usage("with --source kubernetes the policy and rules come from ConfigMaps: drop --policy, --rules and --decision-tables");
        }
        try {
            return io.arbiter.kubernetes.KubernetesSettings.inCluster(kubernetesNamespace, kubernetesInstance);
        } catch (IllegalArgumentException e) {
            throw console.usage("--kubernetes-instance: " + e.getMessage());
        }
    }

    /** {@code --snapshot-archive}, checked: a keep without an archive, or an archive that is a file, is a usage error. */
    private SnapshotArchive snapshotArchive() {
        if (OFF.equals(snapshotArchive)) {
            if (snapshotArchiveKeep != null) {
                throw console.usage("--snapshot-archive-keep needs a snapshot archive, not --snapshot-archive off");
            }
            return null;
        }
        if (snapshotArchive == null) {
            snapshotArchive = DEFAULT_SNAPSHOT_ARCHIVE;
        }
        int keep = snapshotArchiveKeep == null ? SnapshotArchive.DEFAULT_KEEP : snapshotArchiveKeep;
        if (keep < 1) {
            throw console.usage("--snapshot-archive-keep must be at least 1, not " + keep);
        }
        if (java.nio.file.Files.exists(snapshotArchive) && !java.nio.file.Files.isDirectory(snapshotArchive)) {
            throw console.usage("--snapshot-archive " + snapshotArchive + " is not a folder");
        }
        return SnapshotArchive.at(snapshotArchive, keep);
    }

    private Duration seconds(String option, long value) {
        if (value < 1 || value > MAX_TIMEOUT_SECONDS) {
            throw console.usage(option + " must be from 1 to " + MAX_TIMEOUT_SECONDS + " (seconds), not " + value);
        }
        return Duration.ofSeconds(value);
    }

    /** The audit options as settings; a count or size without room for one decision is a usage error. */
    AuditSettings auditSettings() {
        if (recentDecisions < 1) {
            throw console.usage("--recent-decisions must be at least 1 (the index keeps the newest decision), not " + recentDecisions);
        }
        if (auditMemoryMib != null && auditMemoryMib < 1) {
            throw console.usage("--audit-memory must be at least 1 (MiB), not " + auditMemoryMib);
        }
        if (decisionLogSizeMib < 1 || decisionLogSizeMib > MAX_LOG_SIZE_MIB) {
            throw console.usage("--decision-log-size must be from 1 to " + MAX_LOG_SIZE_MIB + " (MiB), not " + decisionLogSizeMib);
        }
        if (decisionLogFiles < 1) {
            throw console.usage("--decision-log-files must be at least 1 (a rotation moves FILE to FILE.1), not " + decisionLogFiles);
        }
        long memoryBytes = auditMemoryMib == null ? 0 : auditMemoryMib * 1024L * 1024;
        AuditSettings settings = AuditSettings.OFF.withRotation(decisionLogSizeMib * 1024 * 1024, decisionLogFiles)
                .withRetention(recentDecisions, memoryBytes);
        if (decisionLogSink != AuditSettings.Sink.KAFKA && decisionLogKafka != null) {
            throw console.usage("--decision-log-kafka needs --decision-log-sink kafka");
        }
        if (decisionLogSink == AuditSettings.Sink.FILE) {
            Path logFile = decisionLog == null ? DEFAULT_DECISION_LOG : OFF.equals(decisionLog) ? null : decisionLog;
            return settings.withFile(logFile, decisionLogMode, logParameters);
        }
        if (decisionLog != null) {
            throw console.usage("--decision-log names a file: it needs --decision-log-sink file, not "
                    + decisionLogSink.name().toLowerCase(java.util.Locale.ROOT));
        }
        return settings.withSink(decisionLogSink, kafkaSettings(), decisionLogMode, logParameters);
    }

    /** {@code --decision-log-kafka}, read and checked now: a wrong file is a usage error, not a failure at the first decision. */
    private KafkaSinkSettings kafkaSettings() {
        if (decisionLogSink != AuditSettings.Sink.KAFKA) {
            return null;
        }
        if (decisionLogKafka == null) {
            throw console.usage("--decision-log-sink kafka needs --decision-log-kafka PROPERTIES (arbiter.topic, bootstrap.servers, ...)");
        }
        try {
            return KafkaSinkSettings.load(decisionLogKafka);
        } catch (IllegalArgumentException e) {
            throw console.usage(e.getMessage());
        }
    }
}
