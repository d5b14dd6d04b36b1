package io.arbiter.audit;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The most recent decisions by id, bounded by count and by the heap their records keep
 * ({@link DecisionRecord#retainedBytes}): the oldest is forgotten first. The newest decision is always kept. The audit's
 * records take {@link DecisionRecord#MAX_BYTES} at most, so the default 1,000 keep 16 MiB at worst; the byte bound
 * still holds a larger count, or a small heap's budget, to what it is given.
 */
public final class RecentDecisions {

    /** Default heap budget: a thousand typical implementation decisions take a few MB of it. */
    public static final long DEFAULT_MAX_BYTES = 64L * 1024 * 1024;

    private final int capacity;
    private final long maxBytes;
    private final LinkedHashMap<String, DecisionRecord> byId;
    private long retainedBytes;

    public RecentDecisions(int capacity) {
        this(capacity, DEFAULT_MAX_BYTES);
    }

    public RecentDecisions(int capacity, long maxBytes) {
        if (capacity < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("the recent-decision index needs room for one decision: capacity "
                    + capacity + ", bytes " + maxBytes);
        }
        this.capacity = capacity;
        this.maxBytes = maxBytes;
        this.byId = new LinkedHashMap<>(Math.min(capacity, 4_096) * 4 / 3 + 1);
    }

    public synchronized void add(DecisionRecord record) {
        DecisionRecord previous = byId.put(record.decisionId(), record);
        retainedBytes += record.retainedBytes() - (previous == null ? 0 : previous.retainedBytes());
        var eldest = byId.entrySet().iterator();
        while (byId.size() > 1 && (byId.size() > capacity || retainedBytes > maxBytes)) {
            retainedBytes -= eldest.next().getValue().retainedBytes();
            eldest.remove();
        }
    }

    public synchronized Optional<DecisionRecord> find(String decisionId) {
        return Optional.ofNullable(byId.get(decisionId));
    }

    /** The decisions kept now, oldest first. */
    public synchronized java.util.List<DecisionRecord> records() {
        return java.util.List.copyOf(byId.values());
    }

    /** How many decisions are kept now. */
    public synchronized int size() {
        return byId.size();
    }

    /** The estimated heap the kept decisions take. */
    public synchronized long retainedBytes() {
        return retainedBytes;
    }
}
