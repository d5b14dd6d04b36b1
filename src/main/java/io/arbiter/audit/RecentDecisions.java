package io.arbiter.audit;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The most recent decisions by id, bounded: the oldest is forgotten first. */
public final class RecentDecisions {

    private final Map<String, DecisionRecord> byId;

    public RecentDecisions(int capacity) {
        this.byId = new LinkedHashMap<>(capacity * 4 / 3 + 1, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, DecisionRecord> eldest) {
                return size() > capacity;
            }
        };
    }

    public synchronized void add(DecisionRecord record) {
        byId.put(record.decisionId(), record);
    }

    public synchronized Optional<DecisionRecord> find(String decisionId) {
        return Optional.ofNullable(byId.get(decisionId));
    }
}
