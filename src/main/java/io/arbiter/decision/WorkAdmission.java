package io.arbiter.decision;

import io.arbiter.engine.PerThread;

import java.util.concurrent.Callable;
import java.util.function.LongPredicate;

/**
 * Admits a decision by the heap its work implies, known before any rule runs ({@link Work#heapBytes}). The server
 * bounds the heap its decisions hold at once: a request's body says little about it (a 16 KB implementation request
 * can imply as much work as its budget allows), so the decision asks for its work's share once the work is known, and
 * is refused for now when the server cannot give it. Offline tools decide without an admission: nothing is shared.
 */
public final class WorkAdmission {

    /** A decision the server cannot hold now beside the others it is deciding: to be retried shortly. */
    public static final class RefusedForNowException extends RuntimeException {
        private final long heapBytes;

        RefusedForNowException(Work work) {
            super("the server is deciding as much work as its memory allows: the " + work.target() + " decision this"
                    + " request asks for is " + "%,d".formatted(work.units()) + " units of work (about "
                    + (work.heapBytes() >> 20) + " MiB of heap); retry it shortly, or send a smaller request");
            this.heapBytes = work.heapBytes();
        }

        public long heapBytes() {
            return heapBytes;
        }
    }

    private static final PerThread<LongPredicate> CURRENT = new PerThread<>();

    private WorkAdmission() {
    }

    /**
     * Runs {@code decision} on this thread, each budgeted decision in it asking {@code reserve} for the heap its work
     * implies; the caller gives back what {@code reserve} granted once the response is written.
     */
    public static <T> T within(LongPredicate reserve, Callable<T> decision) throws Exception {
        return CURRENT.with(reserve, decision::call);
    }

    /** Called once a decision's work is known to be within its budget: refused for now when its heap cannot be had. */
    static void admit(Work work) {
        LongPredicate reserve = CURRENT.get();
        if (reserve != null && !reserve.test(work.heapBytes())) {
            throw new RefusedForNowException(work);
        }
    }
}
