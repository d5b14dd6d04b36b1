package io.arbiter.http;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Request bytes held at once, bounded ({@link RequestMemory} says which and how many). A request that would take the
 * bytes held past the bound is refused, unless none are held: any request the body limit lets in is served when it is
 * alone. Requests of at most {@code uncounted} bytes are not counted, so that large ones never hold them back.
 */
final class InFlightBytes {

    private final long bound;
    private final long uncounted;
    private final AtomicLong taken = new AtomicLong();
    private final Runnable changed;

    InFlightBytes(long bound, long uncounted) {
        this(bound, uncounted, () -> { });
    }

    /** @param changed run after each change of the bytes taken, on the thread that made it (a test waits for it) */
    InFlightBytes(long bound, long uncounted, Runnable changed) {
        this.bound = bound;
        this.uncounted = uncounted;
        this.changed = changed;
    }

    long bound() {
        return bound;
    }

    /** Takes {@code bytes} for a request, or answers false when others are held and the bound would be passed. */
    boolean take(long bytes) {
        if (bytes <= uncounted) {
            return true;
        }
        while (true) {
            long now = taken.get();
            if (now > 0 && now + bytes > bound) {
                return false;
            }
            if (taken.compareAndSet(now, now + bytes)) {
                changed.run();
                return true;
            }
        }
    }

    /** Gives back what {@link #take} took, once the request is done with them. */
    void give(long bytes) {
        if (bytes > uncounted) {
            taken.addAndGet(-bytes);
            changed.run();
        }
    }

    /** The bytes taken now (for tests and diagnostics). */
    long taken() {
        return taken.get();
    }
}
