package io.arbiter.http;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The request bytes being decided at once, bounded. What a decision holds grows with its request, many times over
 * for a body of small values: a 1 MiB list of empty objects parses into a 30 MiB tree, and into twice that again
 * while its problems are located. Eight of them at once ran a 256 MiB server out of memory. A request that would take
 * the bytes in flight past the bound is refused at once (413 with {@code Retry-After}), unless none are in flight: any request
 * the body limit lets in is decided when it is alone. Requests of at most {@link #SMALL} bytes, the usual ones, are
 * not counted, so that large ones never hold them back: the worker threads bound what they take.
 */
final class InFlightBytes {

    /** Heap per request byte in flight: room for the worst ratio measured (about 100) twice over. */
    static final int HEAP_PER_BYTE = 256;

    /** A request this small is always decided: twenty workers deciding such requests take a few MiB. */
    static final int SMALL = 16 * 1024;

    private final long bound;
    private final AtomicLong taken = new AtomicLong();

    InFlightBytes(long bound) {
        this.bound = bound;
    }

    /** The bound for a heap of {@code maxHeap} bytes: a 1 GiB heap decides 4 MiB of requests at once. */
    static InFlightBytes forHeap(long maxHeap) {
        return new InFlightBytes(maxHeap / HEAP_PER_BYTE);
    }

    long bound() {
        return bound;
    }

    /** Takes {@code bytes} for a request, or answers false when others are in flight and the bound would be passed. */
    boolean take(long bytes) {
        if (bytes <= SMALL) {
            return true;
        }
        while (true) {
            long now = taken.get();
            if (now > 0 && now + bytes > bound) {
                return false;
            }
            if (taken.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    /** Gives back what {@link #take} took, once the request is answered. */
    void give(long bytes) {
        if (bytes > SMALL) {
            taken.addAndGet(-bytes);
        }
    }
}
