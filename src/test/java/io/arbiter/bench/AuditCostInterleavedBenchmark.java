package io.arbiter.bench;

import org.openjdk.jmh.annotations.AuxCounters;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.concurrent.TimeUnit;

/**
 * {@link AuditCostBenchmark}'s three cases in one JMH fork, interleaved: an invocation is a turn of
 * {@value #DECISIONS_PER_TURN} decisions of each case, the cases' order rotating every invocation, and each case's
 * time goes to an auxiliary counter. On a small shared host JMH's forks differ from one another by more than auditing
 * costs (the baseline's throughput moved by 70% between rounds of {@code bench/audit-cost.sh}); here the cases share
 * the fork's compiled code and neighbours, iteration by iteration. {@link AuditCostSummary} reads the counters: per
 * iteration, each audited case's time over the baseline's. The log case's turn lasts until its records are written
 * ({@link AuditCostBenchmark#awaitLogged}), so the log's thread is charged to it. Run {@code bash bench/audit-cost.sh}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = BenchData.AS_DEPLOYED)
@Warmup(iterations = 20, time = 3)
@Measurement(iterations = 20, time = 3)
public class AuditCostInterleavedBenchmark {

    static final int DECISIONS_PER_TURN = 100;

    /** Nanoseconds each case took in this iteration, over the same number of decisions. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Turns {
        public long withoutRecordingOrLogNanos;
        public long withRecordingOnlyNanos;
        public long withRecordingAndLogNanos;
        private int rotation;
        private long logged = 1; // AuditCostBenchmark.setUp decided once with the log

        @Setup(Level.Iteration)
        public void reset() {
            withoutRecordingOrLogNanos = 0;
            withRecordingOnlyNanos = 0;
            withRecordingAndLogNanos = 0;
        }
    }

    @Benchmark
    public void turnOfEachCase(AuditCostBenchmark cases, Turns turns, Blackhole sink) {
        for (int k = 0; k < 3; k++) {
            int c = (k + turns.rotation) % 3;
            long started = System.nanoTime();
            for (int i = 0; i < DECISIONS_PER_TURN; i++) {
                sink.consume(switch (c) {
                    case 0 -> cases.withoutRecordingOrLog();
                    case 1 -> cases.withRecordingOnly();
                    default -> cases.withRecordingAndLog();
                });
            }
            if (c == 2) {
                turns.logged += DECISIONS_PER_TURN;
                cases.awaitLogged(turns.logged);
            }
            long nanos = System.nanoTime() - started;
            switch (c) {
                case 0 -> turns.withoutRecordingOrLogNanos += nanos;
                case 1 -> turns.withRecordingOnlyNanos += nanos;
                default -> turns.withRecordingAndLogNanos += nanos;
            }
        }
        turns.rotation++;
    }
}
