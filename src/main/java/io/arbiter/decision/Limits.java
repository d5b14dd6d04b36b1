package io.arbiter.decision;

/** Placeholder while measuring. */
public final class Limits {
    public static final int POLICIES = 2_000;
    public static final int ONE_OF_ITEMS = 100;
    public static final int IMPLEMENTATIONS = 1_000;
    public static final int EXPLAIN_PAIRS = 10_000;
    public static final int REVISION_LENGTH = 210_000;

    private Limits() {
    }
}
