package io.arbiter.decision;

/**
 * A part of a snapshot (policy, catalog, TypeInstances, rules) that cannot be loaded. The message names the part
 * and says why in words of our own: it is shown on {@code /readyz} after a rejected reload and printed at start-up.
 */
public final class SnapshotLoadException extends RuntimeException {

    public SnapshotLoadException(String message) {
        super(message);
    }

    public SnapshotLoadException(String message, Throwable cause) {
        super(message, cause);
    }
}
