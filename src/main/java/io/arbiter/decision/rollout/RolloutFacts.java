package io.arbiter.decision.rollout;

import io.arbiter.engine.Fact;
import io.arbiter.engine.FactId;

import java.util.List;

/**
 * The facts of a rollout decision (ocm-rollout.md sections 1 to 3, seed 004). Inserted: the parsed strategy
 * ({@link Settings}, {@link LimitSpec}, {@link MandatoryEntry}), the decision groups and each group cluster with
 * its record, if any ({@link ClusterState}), and the records of clusters in no group ({@link StrayRecord}).
 * Everything else is derived by {@code rules/rollout/} and {@code decision-tables/rollout/}. Times are epoch
 * microseconds, durations microseconds.
 */
public final class RolloutFacts {

    public static final String ALL = "All";
    public static final String PROGRESSIVE = "Progressive";
    public static final String PROGRESSIVE_PER_GROUP = "ProgressivePerGroup";

    public static final String TO_APPLY = "ToApply";
    public static final String PROGRESSING = "Progressing";
    public static final String SUCCEEDED = "Succeeded";
    public static final String FAILED = "Failed";
    public static final String TIME_OUT = "TimeOut";
    public static final String SKIP = "Skip";

    /** The walk over the mandatory decision groups, and the walk over the others (or over every record). */
    public static final String MANDATORY = "mandatory";
    public static final String REST = "rest";

    /** The scope of a limit measured against every cluster rather than one group. */
    public static final int EVERY_GROUP = -1;

    private RolloutFacts() {
    }

    /** The clusters by name (their rank). */
    public static List<ClusterState> byRank(List<?> clusters) {
        return clusters.stream().map(ClusterState.class::cast).sorted(java.util.Comparator.comparingInt(ClusterState::rank))
                .toList();
    }

    /** {@code a + b}, saturating instead of overflowing (a Go duration may be ~292 years). */
    public static long plus(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? (a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : sum;
    }

    /**
     * The request's strategy: {@code deadline} is null when there is none ({@code ""} or {@code "None"}).
     * {@code minSuccess} is as given; whether the strategy soaks at all is the rules' call.
     */
    public record Settings(String type, boolean progressive, String remediationAction, long now, long minSuccess,
                           Long deadline, String factId) implements Fact {
        /** Its fact id is built once: most rollout rules match the settings. */
        public Settings(String type, String remediationAction, long now, long minSuccess, Long deadline) {
            this(type, !ALL.equals(type), remediationAction, now, minSuccess, deadline,
                    "strategy " + type + ", remediationAction " + remediationAction);
        }
    }

    /** {@code maxFailures} or {@code maxConcurrency} as given: a count or a percentage (exactly one is set). */
    public record LimitSpec(String field, Integer count, Double percent) implements Fact {
        @Override
        public String factId() {
            return field + " " + (count != null ? count.toString() : percent + "%");
        }
    }

    /** {@code mandatoryDecisionGroups[position]}: a name, or else an index ({@code {}} means index 0). */
    @FactId("mandatoryDecisionGroups[{position}]")
    public record MandatoryEntry(int position, String groupName, int groupIndex) implements Fact {
    }

    /** A decision group; {@code order} is its place in ascending {@code groupIndex}. */
    public record Group(int groupIndex, String groupName, int order, int size) implements Fact {
        @Override
        public String factId() {
            return "group " + groupIndex + (groupName.isEmpty() ? "" : " " + groupName);
        }
    }

    /**
     * A cluster of a decision group with its rollout record, if it has one ({@code status} null otherwise).
     * {@code rank} is its place among all group clusters by name; {@code recordRank} its place among the group
     * clusters that have a record, by name (-1 without a record); {@code recordIndex} the record's index in the
     * request's {@code clusters}.
     */
    public record ClusterState(String name, int groupIndex, int groupOrder, int rank, int recordIndex, int recordRank,
                               String status, Long lastTransition, String factId) implements Fact {
        /**
         * Its fact id is built once: a 5,000-cluster rollout records tens of thousands of firings naming clusters,
         * and the recorder caches only a decision's first facts.
         */
        public ClusterState(String name, int groupIndex, int groupOrder, int rank, int recordIndex, int recordRank,
                            String status, Long lastTransition) {
            this(name, groupIndex, groupOrder, rank, recordIndex, recordRank, status, lastTransition, "cluster " + name);
        }

        /** When the current status began: its transition time, or now when the record has none. */
        public long since(long now) {
            return lastTransition != null ? lastTransition : now;
        }
    }

    /** A status a record can have (the request schema admits no other); the status table reads each once. */
    @FactId("status {name}")
    public record RecordStatus(String name) implements Fact {
        public static final List<String> ALL_STATUSES = List.of(TO_APPLY, PROGRESSING, SUCCEEDED, FAILED, TIME_OUT, SKIP);
    }

    /** A record whose cluster is in no decision group. */
    @FactId("clusters[{index}] {cluster}")
    public record StrayRecord(int index, String cluster, String status) implements Fact {
    }

    // ---- derived -----------------------------------------------------------------------------------------

    /** A group the walk of {@code phase} covers: {@code mandatory} or {@code rest}. */
    @FactId("{phase} {group.factId}")
    public record PhaseGroup(String phase, Group group) implements Fact {
    }

    /** How long a succeeded cluster soaks before it frees its place ({@code All} does not soak). */
    @FactId("soak {duration}µs")
    public record SoakTime(long duration) implements Fact {
    }

    /** A limit to resolve: {@code field} measured against {@code total}, with {@code fallback} for unset or ≤ 0. */
    public record LimitQuery(String field, int scope, int total, int fallback) implements Fact {
        @Override
        public String factId() {
            return field + (scope == EVERY_GROUP ? "" : " of group " + scope) + " over " + total;
        }
    }

    /** A limit as given, before defaults and clamping. */
    @FactId("{query.factId} = {value}")
    public record LimitCandidate(LimitQuery query, int value) implements Fact {
    }

    /** A resolved limit. */
    public record Limit(String field, int scope, int value) implements Fact {
        @Override
        public String factId() {
            return field + (scope == EVERY_GROUP ? "" : " of group " + scope) + " = " + value;
        }
    }

    /** The status table's reading of a record status: NEW, SUCCEEDED, WATCHED or FINISHED; whether it is a failure. */
    @FactId("{status} is {kind}")
    public record StatusTreatment(String status, String kind, boolean failure) implements Fact {
    }

    /**
     * A record classified at {@code now}: ROLLOUT (to roll out or keep watching), TIMEOUT (its deadline passed
     * now) or DONE; {@code status} after classification; {@code recheckAt} when a soak ends or a deadline passes.
     */
    public record Classified(ClusterState cluster, int groupIndex, int recordRank, String outcome, String status,
                             Long recheckAt, boolean failure, String factId) implements Fact {
        public Classified(ClusterState cluster, int groupIndex, int recordRank, String outcome, String status,
                          Long recheckAt, boolean failure) {
            this(cluster, groupIndex, recordRank, outcome, status, recheckAt, failure,
                    cluster.factId() + " " + outcome + " " + status);
        }

        public boolean toApply() {
            return TO_APPLY.equals(cluster.status());
        }
    }

    /** The clusters of a group of the walk of {@code phase} without a record, and those whose record is ToApply, by name. */
    @FactId("{group.factId}: {withoutRecord.size} without a record, {toApply.size} to apply")
    public record NewClusters(String phase, Group group, List<ClusterState> withoutRecord, List<ClusterState> toApply)
            implements Fact {
    }

    /** Starts the per-group walk of a phase. */
    @FactId("{phase} group walk")
    public record GroupWalkStart(String phase) implements Fact {
    }

    /**
     * A group of a group walk that holds the walk back: a cluster of it is in flight ({@code why}: a record still
     * in flight, or clusters to start). Tolerated Failed clusters are not in flight.
     */
    @FactId("{phase} {group.factId} in flight: {why}")
    public record GroupInFlight(String phase, Group group, String why) implements Fact {
    }

    /** A group of a group walk whose failures are beyond its maxFailures: it holds the walk back. */
    @FactId("{phase} {group.factId} beyond its maxFailures")
    public record GroupBreach(String phase, Group group) implements Fact {
    }

    /** A group the walk of {@code phase} reaches: no earlier group of the walk holds it back. */
    @FactId("{phase} walk reaches {group.factId}")
    public record GroupReached(String phase, Group group) implements Fact {
    }

    /**
     * A cluster in the rollout list of a phase. Order: {@code section} 0 (records) before 1 (new clusters), then
     * {@code key}.
     */
    @FactId("{phase} rollout {cluster.name}")
    public record RolloutEntry(String phase, ClusterState cluster, int section, long key, String status, Long recheckAt)
            implements Fact {
    }

    /** A cluster whose deadline passed, in the timeout list of a phase, ordered by {@code key}. */
    @FactId("{phase} timeout {cluster.name}")
    public record TimeoutEntry(String phase, ClusterState cluster, long key) implements Fact {
    }

    /** The failures of a phase went beyond its maxFailures. */
    @FactId("{phase} breach")
    public record Breach(String phase) implements Fact {
    }

    /** The phase whose lists are the decision. */
    @FactId("decided by the {phase} walk")
    public record Decided(String phase) implements Fact {
    }

    /** A record of a cluster in no decision group: reported as removed. */
    @FactId("removed {record.cluster}")
    public record Removed(StrayRecord record) implements Fact {
    }

    /** The policy's aggregated rollout status. */
    @FactId("aggregated {status}")
    public record AggregatedStatus(String status) implements Fact {
    }

    /** A situation a cluster can be in after the walk (seed 004 policy layer); the treatment table reads them. */
    @FactId("situation {name}")
    public record Situation(String name) implements Fact {
        public static final String UPDATED_NOW = "updated now";
        public static final String WATCHED = "watched";
        public static final String TIMED_OUT_NOW = "timed out now";
        public static final String SKIPPED = "skipped";
        public static final String ROLLED_OUT_BEFORE = "rolled out before";
        public static final String WAITING = "waiting its turn";
        public static final List<String> ALL_SITUATIONS = List.of(UPDATED_NOW, WATCHED, TIMED_OUT_NOW, SKIPPED,
                ROLLED_OUT_BEFORE, WAITING);

    }

    /** The rollout status a cluster in {@code situation} reports; {@code as recorded}: the status it has. */
    @FactId("{situation} reports {status}")
    public record ReportedStatus(String situation, String status) implements Fact {
        public static final String AS_RECORDED = "as recorded";

    }

    /** The remediation action the replicated policy of a cluster in {@code situation} gets. */
    @FactId("{situation} gets {action}")
    public record ActionFor(String situation, String action) implements Fact {
    }
}
