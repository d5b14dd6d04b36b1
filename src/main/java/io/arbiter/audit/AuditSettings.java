package io.arbiter.audit;

import java.nio.file.Path;

/**
 * Decision-log settings. With the file sink, a null {@code file} keeps no log (recent decisions and metrics still
 * work).
 *
 * @param maxBytes  size at which the file is rotated
 * @param keepFiles rotated files kept ({@code FILE.1} ... {@code FILE.N})
 * @param capacity        records buffered between decisions and the writer thread
 * @param recentDecisions decisions the recent-decision index keeps at most
 * @param memoryBytes     heap the log's buffer and the index may each keep; 0: {@link #memoryBudget} of the heap
 * @param sink            where the records go
 * @param kafka           the Kafka sink's settings; null for the other sinks
 */
public record AuditSettings(Path file, DecisionLog.Mode mode, boolean logParameters, long maxBytes, int keepFiles,
                            int capacity, int recentDecisions, long memoryBytes, Sink sink, KafkaSinkSettings kafka) {

    /** Where the decision records go, in words for the start-up log: a file, standard output, a topic, or nowhere. */
    public String destination() {
        return switch (sink) {
            case FILE -> file == null ? "nowhere (no --decision-log FILE; recent decisions and metrics are still kept)"
                    : "the file " + file.toAbsolutePath() + " (" + mode + ")";
            case STDOUT -> "standard output, one JSON line per decision (" + mode + ")";
            case KAFKA -> kafka.describe() + " (" + mode + ")";
        };
    }

    /** Where decision records go: {@code serve --decision-log-sink}. */
    public enum Sink {
        /** JSON lines in a file, rotated by size. */
        FILE,
        /** JSON lines on standard output, for the cluster's log collector. */
        STDOUT,
        /** Messages on a Kafka topic, acknowledged by every in-sync replica. */
        KAFKA
    }

    /**
     * Default rotation: a file of 64 MiB holds about 5,000 to 45,000 usual records (1.5 to 13 KB each), and 4,096
     * at worst (records of {@link DecisionRecord#MAX_BYTES}); the 5 rotated files keep 20,480 decisions at worst.
     */
    public static final long DEFAULT_MAX_BYTES = 64L * 1024 * 1024;
    public static final int DEFAULT_KEEP_FILES = 5;

    /** What the default retention must keep whatever the requests (issue 44): a burst of large answers flushed it. */
    public static final int MIN_DEFAULT_RETENTION = 20_000;

    public static final AuditSettings OFF = new AuditSettings(null, DecisionLog.Mode.BEST_EFFORT, false,
            DEFAULT_MAX_BYTES, DEFAULT_KEEP_FILES, 8192, 1_000, 0, Sink.FILE, null);

    public AuditSettings withFile(Path newFile, DecisionLog.Mode newMode, boolean newLogParameters) {
        return new AuditSettings(newFile, newMode, newLogParameters, maxBytes, keepFiles, capacity, recentDecisions,
                memoryBytes, Sink.FILE, null);
    }

    /** Records to standard output or Kafka instead of a file, in {@code newMode}. */
    public AuditSettings withSink(Sink newSink, KafkaSinkSettings newKafka, DecisionLog.Mode newMode,
                                  boolean newLogParameters) {
        if ((newSink == Sink.KAFKA) != (newKafka != null)) {
            throw new IllegalArgumentException("the Kafka sink, and only it, takes Kafka settings");
        }
        return new AuditSettings(newSink == Sink.FILE ? file : null, newMode, newLogParameters, maxBytes, keepFiles,
                capacity, recentDecisions, memoryBytes, newSink, newKafka);
    }

    /** Rotation: at {@code newMaxBytes}, keeping {@code newKeepFiles} rotated files. */
    public AuditSettings withRotation(long newMaxBytes, int newKeepFiles) {
        return new AuditSettings(file, mode, logParameters, newMaxBytes, newKeepFiles, capacity, recentDecisions,
                memoryBytes, sink, kafka);
    }

    public AuditSettings withRetention(int newRecentDecisions, long newMemoryBytes) {
        return new AuditSettings(file, mode, logParameters, maxBytes, keepFiles, capacity, newRecentDecisions,
                newMemoryBytes, sink, kafka);
    }

    /**
     * The decisions the file sink's rotated files keep at the least, whatever the requests: a file is rotated only
     * when the next line would take it past {@code maxBytes}, so each holds {@code maxBytes / MAX_BYTES} records of
     * the largest size. The live file holds more besides, from none just after a rotation.
     */
    public long worstCaseRetention() {
        return keepFiles * (maxBytes / DecisionRecord.MAX_BYTES);
    }

    public Audit open() {
        long memory = memoryBytes > 0 ? memoryBytes : memoryBudget(Runtime.getRuntime().maxMemory());
        DecisionLog log = switch (sink) {
            case FILE -> file == null ? DecisionLog.OFF
                    : new FileDecisionLog(file, maxBytes, keepFiles, capacity, memory, mode);
            case STDOUT -> StdoutDecisionLog.open(capacity, memory, mode);
            case KAFKA -> new KafkaDecisionLog(kafka, capacity, memory, mode);
        };
        return new Audit(log, new RecentDecisions(recentDecisions, memory), new Metrics(), logParameters);
    }

    /**
     * The heap the log's buffer may keep, and the recent-decision index: 64 MiB each, or an eighth of the heap when
     * that is less, so that together they never keep more than a quarter of a small container's heap.
     */
    static long memoryBudget(long maxHeap) {
        return Math.max(1, Math.min(QueuedDecisionLog.DEFAULT_BUFFER_BYTES, maxHeap / 8));
    }
}
