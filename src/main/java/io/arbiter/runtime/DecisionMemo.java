package io.arbiter.runtime;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Finished decisions by snapshot and request, the most recently used kept within a bound of bytes: the same rules on
 * the same facts fire the same way, so a repeated request of a type that decides from its request and the snapshot
 * alone ({@link io.arbiter.policytype.PolicyType#decidesFromRequestAndSnapshot}) is answered from here, with the
 * same response and the same record as the first time, but for its own decision id. Private to the process and
 * derived from content: a replica without it decides the same.
 */
final class DecisionMemo {

    /** A request as it was received, under one snapshot: its bytes decide what it parses to. */
    record Key(String snapshotRevision, String target, String contentType, byte[] body, int hash) {
        static Key of(String snapshotRevision, String target, String contentType, byte[] body) {
            int hash = 31 * (31 * (31 * snapshotRevision.hashCode() + target.hashCode())
                    + String.valueOf(contentType).hashCode()) + Arrays.hashCode(body);
            return new Key(snapshotRevision, target, contentType, body, hash);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && hash == key.hash && snapshotRevision.equals(key.snapshotRevision)
                    && target.equals(key.target) && java.util.Objects.equals(contentType, key.contentType)
                    && Arrays.equals(body, key.body);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** A decision of at most this many bytes (request and envelope) is kept; a larger one is decided each time. */
    static final int MAX_ENTRY_BYTES = 64 * 1024;

    private final long capacityBytes;
    private long heldBytes;
    private long hits;
    private final LinkedHashMap<Key, Decisions.Finished> byKey = new LinkedHashMap<>(256, 0.75f, true);

    DecisionMemo(long capacityBytes) {
        this.capacityBytes = capacityBytes;
    }

    synchronized Decisions.Finished get(Key key) {
        return get(key, finished -> true);
    }

    /** The decision kept for {@code key} if there is one and it is {@code usable} (a hit), else null. */
    synchronized Decisions.Finished get(Key key, java.util.function.Predicate<Decisions.Finished> usable) {
        Decisions.Finished finished = byKey.get(key);
        if (finished == null || !usable.test(finished)) {
            return null;
        }
        hits++;
        return finished;
    }

    synchronized long hits() {
        return hits;
    }

    synchronized long heldBytes() {
        return heldBytes;
    }

    synchronized void put(Key key, Decisions.Finished finished) {
        long bytes = bytes(key, finished);
        if (bytes > MAX_ENTRY_BYTES || byKey.containsKey(key)) {
            return;
        }
        byKey.put(key, finished);
        heldBytes += bytes;
        var eldest = byKey.entrySet().iterator();
        while (heldBytes > capacityBytes && eldest.hasNext()) {
            Map.Entry<Key, Decisions.Finished> entry = eldest.next();
            heldBytes -= bytes(entry.getKey(), entry.getValue());
            eldest.remove();
        }
    }

    /**
     * What an entry holds, about: the request's bytes, the logged request's and the envelope's, and as much again for
     * the firings the envelope was encoded from.
     */
    private static long bytes(Key key, Decisions.Finished finished) {
        return key.body().length + finished.logged().request().length + finished.logged().ruleSources().length
                + 2L * finished.envelope().length();
    }
}
