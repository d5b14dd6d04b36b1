package io.arbiter.decision.rollout;

import io.arbiter.decision.rollout.RolloutFacts.Classified;
import io.arbiter.decision.rollout.RolloutFacts.ClusterState;
import io.arbiter.decision.rollout.RolloutFacts.Place;
import io.arbiter.decision.rollout.RolloutFacts.RolloutEntry;
import io.arbiter.decision.rollout.RolloutFacts.Status;
import io.arbiter.decision.rollout.RolloutFacts.Walk;
import io.arbiter.decision.rollout.RolloutFacts.TimeoutEntry;
import io.arbiter.engine.Fact;
import io.arbiter.engine.FactId;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The record walk of ocm-rollout.md section 3 (perCluster), as one plain function: the rules classify the records
 * and resolve the limits, call {@link #walk} (or {@link #unlimited} for All) and insert what it returns
 * (30-walks.drl); its lists are the walk phase's rollout and timeout lists. A walk is sequential (each step depends
 * on the failures and the rollout list so far), so it is written as a loop, not as rules.
 *
 * @param rolledOut the records that join the rollout list, in walk order
 * @param filled    the clusters without a record that fill the rollout list up to its size, by name
 * @param timedOut  the records past their deadline, in walk order
 * @param breach    whether the failures went beyond maxFailures
 */
@FactId("{phase} record walk: {rolledOut.size} records and {filled.size} new clusters to roll out, {timedOut.size} timed out, breach {breach}")
public record RecordWalk(Walk phase, List<RolloutEntry> rolledOut, List<RolloutEntry> filled,
                         List<TimeoutEntry> timedOut, boolean breach) implements Fact {

    /**
     * Walks the records by name (their record rank), until the rollout list holds {@code size} clusters. A record to
     * roll out joins the rollout list, one past its deadline the timeout list (a failure), one that is done is passed
     * over; failed records count as failures. Once the failures go beyond {@code maxFailures} the walk has breached: a
     * record still to apply is passed over, and no cluster without a record is added. A walk that reaches the end of
     * the records fills the rollout list with the clusters without a record, by name.
     *
     * @param records       every classified record of the rollout ({@link Classified})
     * @param withoutRecord the lists of clusters without a record, of every group the walk covers
     */
    public static RecordWalk walk(Walk phase, List<?> records, List<?> withoutRecord, int size, int maxFailures) {
        List<Classified> byName = new ArrayList<>(records.size());
        records.forEach(record -> byName.add((Classified) record));
        byName.sort(Comparator.comparingInt(Classified::recordRank));
        List<RolloutEntry> rolledOut = new ArrayList<>();
        List<TimeoutEntry> timedOut = new ArrayList<>();
        int failures = 0;
        boolean breach = false;
        for (int position = 0; position < byName.size(); position++) {
            breach |= failures > maxFailures;
            if (position > 0 && rolledOut.size() >= size) {
                return new RecordWalk(phase, rolledOut, List.of(), timedOut, breach);
            }
            Classified record = byName.get(position);
            switch (record.outcome()) {
                case ROLLOUT -> {
                    if (!(breach && record.toApply())) {
                        rolledOut.add(new RolloutEntry(phase, record.cluster(), Place.record(position), record.status(), record.recheckAt()));
                        failures += record.failure() ? 1 : 0;
                    }
                }
                case TIMEOUT -> {
                    timedOut.add(new TimeoutEntry(phase, record.cluster(), position));
                    failures++;
                }
                default -> failures += record.failure() ? 1 : 0;
            }
        }
        breach |= failures > maxFailures;
        if (breach) {
            return new RecordWalk(phase, rolledOut, List.of(), timedOut, true);
        }
        List<ClusterState> candidates = new ArrayList<>();
        withoutRecord.forEach(list -> ((List<?>) list).forEach(cluster -> candidates.add((ClusterState) cluster)));
        candidates.sort(Comparator.comparingInt(ClusterState::rank));
        List<RolloutEntry> filled = candidates.subList(0, Math.min(candidates.size(), Math.max(0, size - rolledOut.size())))
                .stream().map(cluster -> new RolloutEntry(phase, cluster, Place.newCluster(0, cluster.rank()), Status.ToApply, null))
                .toList();
        return new RecordWalk(phase, rolledOut, filled, timedOut, false);
    }

    /** The walk of All: every cluster may be in flight and every failure is tolerated, so nothing stops it. */
    public static RecordWalk unlimited(Walk phase, List<?> records, List<?> withoutRecord) {
        return walk(phase, records, List.of(withoutRecord), Integer.MAX_VALUE, Integer.MAX_VALUE);
    }
}
