package io.arbiter.http;

import io.vertx.ext.web.RoutingContext;

/**
 * The request bytes the server holds at once, bounded by its heap and shared by every event loop. What a request holds
 * grows with its body. While the body arrives it is held whole: four hundred connections each sending 1 MiB and then
 * stalling ran a 256 MiB server out of memory. While it is decided it is held many times over: a 1 MiB list of empty
 * objects parses into a 30 MiB tree, and into twice that again while its problems are located, and eight of them at
 * once ran the same server out of memory. A request past a bound is answered 413 with {@code Retry-After}.
 *
 * @param arriving      bodies of more than {@link #SMALL} bytes being received, by the length they announce
 * @param arrivingSmall bodies of at most {@link #SMALL} bytes being received: large bodies never hold them back
 * @param deciding      bodies being decided; small ones are not counted, since the worker threads bound what they take
 */
record RequestMemory(InFlightBytes arriving, InFlightBytes arrivingSmall, InFlightBytes deciding) {

    /** A usual request is smaller than this: twenty workers deciding such requests take a few MiB. */
    static final int SMALL = 16 * 1024;

    /** Heap per body byte being received: the buffer it grows in (up to twice its size), the copy handed on, and room to spare. */
    static final int HEAP_PER_ARRIVING_BYTE = 32;

    /** Heap per body byte being decided: room for the worst ratio measured (about 100) twice over. */
    static final int HEAP_PER_DECIDED_BYTE = 256;

    /**
     * What a decision whose work holds {@code heapBytes} counts against {@link #deciding}, in the bytes that bound
     * counts: its heap twice over, as a body's worst ratio is counted twice over ({@link #HEAP_PER_DECIDED_BYTE}).
     * A decision at its work budget ({@code Limits.DECISION_HEAP}, 64 MiB) counts 512 KiB: a 512 MiB heap decides
     * four at once, with each one's body.
     */
    static long decidingBytesFor(long heapBytes) {
        return heapBytes * 2 / HEAP_PER_DECIDED_BYTE;
    }

    /** The bounds for a heap of {@code maxHeap} bytes: for 1 GiB, 32 MiB arriving of each size and 4 MiB decided. */
    static RequestMemory forHeap(long maxHeap) {
        return new RequestMemory(new InFlightBytes(maxHeap / HEAP_PER_ARRIVING_BYTE, 0),
                new InFlightBytes(maxHeap / HEAP_PER_ARRIVING_BYTE, 0), new InFlightBytes(maxHeap / HEAP_PER_DECIDED_BYTE, SMALL));
    }

    /**
     * Answers a request past a bound, to be sent again shortly: 413 with {@code Retry-After}, the contract's status for
     * a body too large, here for now (RFC 9110, 15.5.14).
     */
    static void refuseForNow(RoutingContext ctx, String doing, InFlightBytes bound, long bytes) {
        ctx.response().putHeader("Retry-After", "1");
        Responses.fail(ctx, new ApiError(413, "PAYLOAD_TOO_LARGE", "the server is " + doing + " as many request bytes as"
                + " its memory allows (" + bound.bound() + "): retry this " + bytes + "-byte request shortly"));
    }

    /** Where a body of {@code bytes} is counted while it arrives. */
    InFlightBytes arrivingFor(long bytes) {
        return bytes <= SMALL ? arrivingSmall : arriving;
    }
}
