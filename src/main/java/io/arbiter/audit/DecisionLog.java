package io.arbiter.audit;

/** Where decision records go. Appending never blocks a decision for long. */
public interface DecisionLog extends AutoCloseable {

    /** How the log behaves when it cannot keep up. */
    enum Mode {
        /** Drop the record and count it: decisions are never refused because of the log. */
        BEST_EFFORT,
        /** Refuse the decision (503) rather than lose its record: for audits that must be complete. */
        REQUIRED
    }

    /**
     * Accepts a record for writing; in REQUIRED mode throws {@link DecisionLogUnavailableException} when it cannot.
     * {@code retainedBytes} is about how much heap the record keeps until it is written: the buffer is bounded by it.
     */
    void append(DecisionRecord record, long retainedBytes);

    /** Records dropped so far (BEST_EFFORT mode). */
    long dropped();

    /** Records written so far. */
    long written();

    @Override
    void close();

    DecisionLog OFF = new DecisionLog() {
        @Override
        public void append(DecisionRecord record, long retainedBytes) {
        }

        @Override
        public long dropped() {
            return 0;
        }

        @Override
        public long written() {
            return 0;
        }

        @Override
        public void close() {
        }
    };
}
