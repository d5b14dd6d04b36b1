package io.arbiter.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.audit.Audit;
import io.arbiter.audit.DecisionLog;
import io.arbiter.audit.FileDecisionLog;
import io.arbiter.audit.Metrics;
import io.arbiter.audit.RecentDecisions;
import io.arbiter.runtime.Decisions;
import io.arbiter.decision.Settings;
import io.arbiter.decision.Snapshot;
import io.arbiter.decision.implementation.ImplementationDecider;
import io.arbiter.decision.implementation.ImplementationPolicyType;
import io.arbiter.document.Documents;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.engine.RuleBaseBuilder;
import io.arbiter.policy.PolicyDocument;
import io.arbiter.policy.PolicyParser;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.testing.RuleTestSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * What auditing costs (issue: recording fired rules and writing the decision log must cost under 10% of decision
 * throughput). The same request through {@link Decisions#decide}: without the firing recorder and without a log
 * file, and with both (a real file log in BEST_EFFORT mode, parameters masked). Every case keeps the service's index of
 * the 1,000 most recent decisions (the service always has it; it is not what the issue measures), so the difference is
 * recording, the firings it keeps and renders, and the log. Each response is also encoded as the HTTP layer sends
 * it ({@link Decisions#decideEncoded}: encoded once, the same bytes answered and logged), so that rendering what
 * recording adds is counted. Run {@code bash bench/audit-cost.sh}: rounds of one fork per case, summarised
 * by {@link AuditCostSummary}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = BenchData.AS_DEPLOYED)
// Long: on two shared cores the recording cases were still getting faster after 30 s of warm-up (more code to compile).
@Warmup(iterations = 30, time = 2)
@Measurement(iterations = 10, time = 2)
@State(Scope.Benchmark)
public class AuditCostBenchmark {

    /** Rotated files the log keeps besides its current one (a long run writes several GB): deleted at the end. */
    private static final int LOG_FILES_KEPT = 2;

    private Decisions unaudited;
    private Decisions audited;
    private Decisions recordedOnly;
    private Audit audit;
    private DecisionLog log;
    private Path logFile;
    private byte[] request;
    private Thread logWriter;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        CompiledRuleBase ruleBase = RuleBaseBuilder.build(ImplementationDecider.KIND,
                RuleTestSupport.files(ImplementationDecider.KIND), ImplementationDecider.PHASES);
        PolicyDocument policy = PolicyParser.parse(BenchData.policyYaml().getBytes(StandardCharsets.UTF_8), "application/yaml");
        Snapshot recording = new Snapshot(policy, Map.of(ImplementationPolicyType.NAME, ruleBase), BenchData.catalog(),
                BenchData.typeInstances(), Settings.DEFAULT_PLATFORM);
        Snapshot silent = new Snapshot(policy, Map.of(ImplementationPolicyType.NAME, ruleBase.withoutRecording()),
                BenchData.catalog(), BenchData.typeInstances(), Settings.DEFAULT_PLATFORM);
        logFile = Files.createTempFile("arbiter-bench-decisions", ".log");
        log = new FileDecisionLog(logFile, 256L * 1024 * 1024, LOG_FILES_KEPT, 65_536, DecisionLog.Mode.BEST_EFFORT);
        audit = new Audit(log, new RecentDecisions(1_000), new Metrics(), false);
        PolicyTypeRegistry registry = PolicyTypeRegistry.discover();
        unaudited = new Decisions(registry, silent, new Audit(DecisionLog.OFF, new RecentDecisions(1_000), new Metrics(), false));
        audited = new Decisions(registry, recording, audit);
        recordedOnly = new Decisions(registry, recording, new Audit(DecisionLog.OFF, new RecentDecisions(1_000), new Metrics(), false));
        request = ("{\"interface\": {\"path\": \"" + BenchData.interfacePath(ImplementationDecisionBenchmark.EXACT_RULE_INTERFACE)
                + "\", \"revision\": \"" + BenchData.INTERFACE_REVISION + "\"}}").getBytes(StandardCharsets.UTF_8);
        ObjectNode check = audited.decide("implementation", request, "application/json");
        if (!"SELECTED".equals(check.path("outcome").asText()) || check.path("firedRules").isEmpty()
                || !unaudited.decide("implementation", request, "application/json").path("firedRules").isEmpty()) {
            throw new IllegalStateException("unexpected benchmark decision: " + check);
        }
    }

    /**
     * Waits until the decision log has written (or dropped) {@code records} records in all. The log writes on a thread
     * of its own: a harness that runs the cases in turns in one JVM (AuditCostInterleaved) waits at the end of the log
     * case's turn, so that the writing is charged to that case and not to whichever case runs next. The writer is woken
     * first: it wakes every few milliseconds by itself, and waiting out that idle interval would charge the log case
     * with time in which nothing was written (up to 5 ms on a turn of about 90).
     */
    void awaitLogged(long records) {
        Thread writer = logWriter();
        while (log.written() + log.dropped() + log.failed() < records) {
            LockSupport.unpark(writer);
            LockSupport.parkNanos(20_000);
        }
    }

    private Thread logWriter() {
        if (logWriter == null) {
            logWriter = Thread.getAllStackTraces().keySet().stream()
                    .filter(thread -> thread.getName().equals("arbiter-decision-log")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no decision log writer thread"));
        }
        return logWriter;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        audit.close();
        System.out.println("decision log: written " + audit.metrics().scrape().lines()
                .filter(line -> line.startsWith("arbiter_decision_log")).toList());
        Files.deleteIfExists(logFile);
        for (int rotated = 1; rotated <= LOG_FILES_KEPT; rotated++) {
            Files.deleteIfExists(logFile.resolveSibling(logFile.getFileName() + "." + rotated));
        }
    }

    /** The three cases' decisions, for serving them over HTTP (AuditCostOverHttpBenchmark). */
    Decisions unaudited() {
        return unaudited;
    }

    Decisions recordedOnly() {
        return recordedOnly;
    }

    Decisions audited() {
        return audited;
    }

    byte[] request() {
        return request.clone();
    }

    @Benchmark
    public byte[] withoutRecordingOrLog() {
        return unaudited.decideEncoded("implementation", request, "application/json").json();
    }

    /** The two costs apart: fired rules recorded and rendered, no log file. */
    @Benchmark
    public byte[] withRecordingOnly() {
        return recordedOnly.decideEncoded("implementation", request, "application/json").json();
    }

    @Benchmark
    public byte[] withRecordingAndLog() {
        return audited.decideEncoded("implementation", request, "application/json").json();
    }
}
