package io.arbiter.audit;

import java.time.Instant;

/** Where decision records go. Appending never blocks a decision for long. */
public interface DecisionLog extends AutoCloseable {

    /** How the log behaves when it cannot keep up. */
    enum Mode {
        /** Drop the record and count it: decisions are never refused because of the log. */
        BEST_EFFORT,
        /** Refuse the decision (503) rather than lose its record: for audits that must be complete. */
        REQUIRED
    }

    /** What the deciding thread holds for a record it appended. */
    @FunctionalInterface
    interface Receipt {
        /**
         * In REQUIRED mode, returns once the record is written and throws {@link DecisionLogUnavailableException}
         * when it was not (it could not be written, or not within a bounded wait). In BEST_EFFORT mode, returns at once.
         */
        void awaitWritten();
    }

    /** The receipt of a record nobody waits for. */
    Receipt NOT_AWAITED = () -> {
    };

    /**
     * The log's state, for {@code /readyz}, {@code /v1/status} and {@code /metrics}.
     *
     * @param enabled     whether there is a log file at all
     * @param writerAlive whether the thread that writes the file runs
     * @param writable    false from a failed write of the file (or, REQUIRED, a record not written in time) until a
     *                    write succeeds, or {@link QueuedDecisionLog#UNWRITABLE_FOR} has passed (then decisions find out
     *                    again)
     * @param written     records written to the file
     * @param dropped     records not taken because the buffer was full (REQUIRED: their decisions were refused)
     * @param failed      records that could not be written: a failed write, or not written in time
     * @param lastError   the latest of those failures, in our words; null if none
     * @param lastErrorAt when it happened; null if none
     */
    record Health(boolean enabled, Mode mode, boolean writerAlive, boolean writable, long written, long dropped,
                  long failed, String lastError, Instant lastErrorAt) {

        /** Whether decisions can be answered: a required log that cannot write would refuse every one of them. */
        public boolean ready() {
            return !enabled || mode != Mode.REQUIRED || (writerAlive && writable);
        }

        /** Why not {@link #ready}, in our words. */
        public String notReadyReason() {
            if (!writerAlive) {
                return "the decision log is required and its writer has stopped";
            }
            return "the decision log is required and cannot be written (" + lastError + ")";
        }
    }

    /**
     * Accepts a record for writing; in REQUIRED mode throws {@link DecisionLogUnavailableException} when it cannot
     * queue it, and the returned receipt tells whether it was written. The buffer is bounded by the records'
     * {@link DecisionRecord#retainedBytes}.
     */
    Receipt append(DecisionRecord record);

    Health health();

    /** Whether a decision waits for its record to be written ({@link Mode#REQUIRED}). */
    default boolean waitsForWrites() {
        return false;
    }

    /** Records not taken so far because the buffer was full. */
    default long dropped() {
        return health().dropped();
    }

    /** Records written so far. */
    default long written() {
        return health().written();
    }

    /** Records that could not be written so far. */
    default long failed() {
        return health().failed();
    }

    @Override
    void close();

    DecisionLog OFF = new DecisionLog() {
        @Override
        public Receipt append(DecisionRecord record) {
            return NOT_AWAITED;
        }

        @Override
        public Health health() {
            return new Health(false, Mode.BEST_EFFORT, false, true, 0, 0, 0, null, null);
        }

        @Override
        public void close() {
        }
    };
}
