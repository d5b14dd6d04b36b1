package io.arbiter.decision.rollout;

import io.arbiter.engine.Fact;
import io.arbiter.engine.FactId;

import java.util.ArrayList;
import java.util.List;

/**
 * The facts of a rollout decision (ocm-rollout.md sections 1 to 3, seed 004). Inserted: the parsed strategy
 * ({@link Settings}, {@link LimitSpec}, {@link MandatoryEntry}), the decision groups and each group cluster with
 * its record, if any ({@link ClusterState}), and the records of clusters in no group ({@link StrayRecord}).
 * Everything else is derived by {@code rules/rollout/} and {@code decision-tables/rollout/}. Times are epoch
 * microseconds, durations microseconds.
 */
public final class RolloutFacts {

    // Status, Strategy, Remediation and LimitField name their constants as the contract spells them, so that
    // requests, responses, fact ids and decision-table cells all read the same word (ToApply, enforce, maxFailures).

    /** A rollout status (ocm-rollout.md section 2). */
    public enum Status { ToApply, Progressing, Succeeded, Failed, TimeOut, Skip }

    /** A strategy's {@code type}. */
    public enum Strategy {
        All, Progressive, ProgressivePerGroup;

        /** The field of {@code strategy} that holds its settings: the type with a small initial ({@code progressive}). */
        public String field() {
            return Character.toLowerCase(name().charAt(0)) + name().substring(1);
        }
    }

    /** A remediation action. */
    public enum Remediation { enforce, inform }

    /** The walk over the mandatory decision groups, and the walk over the others (or over every record). */
    public enum Walk {
        MANDATORY, REST;

        /** As fact ids name it: {@code mandatory}, {@code rest}. */
        @Override
        public String toString() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** The limits a strategy sets, by the field that gives them. */
    public enum LimitField { maxFailures, maxConcurrency }

    /** How the status table treats a record's status (decision-tables/rollout/rollout-status.drl.csv). */
    public enum Treatment { NEW, SUCCEEDED, WATCHED, FINISHED }

    /** A record classified at now: to roll out (or keep watching), timed out now, or done. */
    public enum Outcome { ROLLOUT, TIMEOUT, DONE }

    /** The list of the decision a cluster is in: toRollout, timedOut, or neither. */
    public enum Listed {
        ROLLOUT("in toRollout"), TIMED_OUT("in timedOut"), NEITHER("in neither list");

        private final String text;

        Listed(String text) {
            this.text = text;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    /**
     * A situation a cluster can be in after the walk (seed 004 policy layer): the situation table
     * (decision-tables/rollout/cluster-situation.drl.csv) says which, the treatment table what it means.
     */
    public enum Situation {
        UPDATED_NOW("updated now"), WATCHED("watched"), TIMED_OUT_NOW("timed out now"), SKIPPED("skipped"),
        ROLLED_OUT_BEFORE("rolled out before"), WAITING("waiting its turn");

        private final String text;

        Situation(String text) {
            this.text = text;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    /** The rollout status the treatment table has a cluster report: a status, or the one it has. */
    public enum Reported {
        AS_RECORDED(null), ToApply(Status.ToApply), Progressing(Status.Progressing), TimeOut(Status.TimeOut),
        Skip(Status.Skip);

        private final Status status;

        Reported(Status status) {
            this.status = status;
        }

        /** The status reported by a cluster whose record has {@code recorded} (null without a record). */
        public Status of(Status recorded) {
            return this == AS_RECORDED ? recorded : status;
        }

        @Override
        public String toString() {
            return this == AS_RECORDED ? "as recorded" : status.toString();
        }
    }

    /** The remediation action the treatment table gives a cluster's replicated policy: the root policy's, or inform. */
    public enum Gets {
        ROOT, INFORM;

        public Remediation of(Settings settings) {
            return this == ROOT ? settings.remediationAction() : Remediation.inform;
        }
    }

    /** The constant of {@code type} named {@code wire}, or null when there is none. */
    public static <E extends Enum<E>> E fromWire(Class<E> type, String wire) {
        for (E value : type.getEnumConstants()) {
            if (value.name().equals(wire)) {
                return value;
            }
        }
        return null;
    }

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
    public record Settings(Strategy type, boolean progressive, Remediation remediationAction, long now, long minSuccess,
                           Long deadline, String factId) implements Fact {
        /** Its fact id is built once: most rollout rules match the settings. */
        public Settings(Strategy type, Remediation remediationAction, long now, long minSuccess, Long deadline) {
            this(type, type != Strategy.All, remediationAction, now, minSuccess, deadline,
                    "strategy " + type + ", remediationAction " + remediationAction);
        }
    }

    /** {@code maxFailures} or {@code maxConcurrency} as given: a count or a percentage (exactly one is set). */
    public record LimitSpec(LimitField field, Integer count, Double percent) implements Fact {
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
                               Status status, Long lastTransition, String factId) implements Fact {
        /**
         * Its fact id is built once: a 5,000-cluster rollout records thousands of firings naming clusters.
         */
        public ClusterState(String name, int groupIndex, int groupOrder, int rank, int recordIndex, int recordRank,
                            Status status, Long lastTransition) {
            this(name, groupIndex, groupOrder, rank, recordIndex, recordRank, status, lastTransition, "cluster " + name);
        }

        /** When the current status began: its transition time, or now when the record has none. */
        public long since(long now) {
            return lastTransition != null ? lastTransition : now;
        }
    }

    /**
     * A list and a status a cluster of the request may have in it ({@code status} null: a cluster without a
     * record); the situation table reads each once.
     */
    public record Placement(Listed listed, Status status) implements Fact {

        /**
         * Every list and status a cluster can have: a record of any status in any list, and no record in neither list
         * (a cluster without a record that is rolled out enters toRollout as ToApply).
         */
        public static List<Placement> every() {
            List<Placement> every = new ArrayList<>();
            for (Listed listed : Listed.values()) {
                for (Status status : Status.values()) {
                    every.add(new Placement(listed, status));
                }
            }
            every.add(new Placement(Listed.NEITHER, null));
            return every;
        }

        @Override
        public String factId() {
            return listed + (status == null ? " without a record" : " as " + status);
        }
    }

    /** The situation of the clusters at {@code placement}. */
    @FactId("{placement.factId}: {situation}") public record SituationOf(Placement placement, Situation situation) implements Fact {}

    /** A status some record of the request has; the status table reads each once. */
    @FactId("status {status}") public record RecordStatus(Status status) implements Fact {}

    /** A record whose cluster is in no decision group. */
    @FactId("clusters[{index}] {cluster}") public record StrayRecord(int index, String cluster, Status status) implements Fact {}

    // ---- derived -----------------------------------------------------------------------------------------

    /** A group the walk of {@code phase} covers: {@code mandatory} or {@code rest}. */
    @FactId("{phase} {group.factId}") public record PhaseGroup(Walk phase, Group group) implements Fact {}

    /** How long a succeeded cluster soaks before it frees its place ({@code All} does not soak). */
    @FactId("soak {duration}µs") public record SoakTime(long duration) implements Fact {}

    /** A limit to resolve: {@code field} measured against {@code total}, with {@code fallback} for unset or ≤ 0. */
    public record LimitQuery(LimitField field, int scope, int total, int fallback) implements Fact {
        @Override
        public String factId() {
            return field + (scope == EVERY_GROUP ? "" : " of group " + scope) + " over " + total;
        }
    }

    /** A limit as given, before defaults and clamping. */
    @FactId("{query.factId} = {value}") public record LimitCandidate(LimitQuery query, int value) implements Fact {}

    /** A resolved limit. */
    public record Limit(LimitField field, int scope, int value) implements Fact {
        @Override
        public String factId() {
            return field + (scope == EVERY_GROUP ? "" : " of group " + scope) + " = " + value;
        }
    }

    /** The status table's reading of a record status, and whether it is a failure. */
    @FactId("{status} is {kind}") public record StatusTreatment(Status status, Treatment kind, boolean failure) implements Fact {}

    /**
     * A record classified at {@code now}: its outcome, its {@code status} after classification, and
     * {@code recheckAt}, when a soak ends or a deadline passes.
     */
    public record Classified(ClusterState cluster, int groupIndex, int recordRank, Outcome outcome, Status status,
                             Long recheckAt, boolean failure, String factId) implements Fact {
        public Classified(ClusterState cluster, int groupIndex, int recordRank, Outcome outcome, Status status,
                          Long recheckAt, boolean failure) {
            this(cluster, groupIndex, recordRank, outcome, status, recheckAt, failure,
                    cluster.factId() + " " + outcome + " " + status);
        }

        public boolean toApply() {
            return cluster.status() == Status.ToApply;
        }
    }

    /** The clusters of a group of the walk of {@code phase} without a record, and those whose record is ToApply, by name. */
    @FactId("{group.factId}: {withoutRecord.size} without a record, {toApply.size} to apply")
    public record NewClusters(Walk phase, Group group, List<ClusterState> withoutRecord, List<ClusterState> toApply)
            implements Fact {
    }

    /** Starts the per-group walk of a phase. */
    @FactId("{phase} group walk") public record GroupWalkStart(Walk phase) implements Fact {}

    /**
     * A group of a group walk that holds the walk back: a cluster of it is in flight ({@code why}: a record still
     * in flight, or clusters to start). Tolerated Failed clusters are not in flight.
     */
    @FactId("{phase} {group.factId} in flight: {why}") public record GroupInFlight(Walk phase, Group group, String why) implements Fact {}

    /** A group of a group walk whose failures are beyond its maxFailures: it holds the walk back. */
    @FactId("{phase} {group.factId} beyond its maxFailures") public record GroupBreach(Walk phase, Group group) implements Fact {}

    /** A group the walk of {@code phase} reaches: no earlier group of the walk holds it back. */
    @FactId("{phase} walk reaches {group.factId}") public record GroupReached(Walk phase, Group group) implements Fact {}

    /**
     * A cluster's place in a rollout list: the records ({@code section} 0) before the clusters new to the rollout
     * (1), then by the order of their group in a group walk (0 otherwise), then by {@code position}. Compared field
     * by field, so no field spills into another.
     */
    public record Place(int section, int group, int position) implements Comparable<Place> {
        private static final java.util.Comparator<Place> ORDER = java.util.Comparator.comparingInt(Place::section)
                .thenComparingInt(Place::group).thenComparingInt(Place::position);

        /** A record, at {@code position} among the records of its walk. */
        public static Place record(int position) {
            return new Place(0, 0, position);
        }

        /** A cluster without a record (or to apply) of the group of order {@code group}, at its {@code rank} by name. */
        public static Place newCluster(int group, int rank) {
            return new Place(1, group, rank);
        }

        @Override
        public int compareTo(Place other) {
            return ORDER.compare(this, other);
        }
    }

    /** A cluster in the rollout list of a phase, at its {@code place}. */
    @FactId("{phase} rollout {cluster.name}")
    public record RolloutEntry(Walk phase, ClusterState cluster, Place place, Status status, Long recheckAt)
            implements Fact {
    }

    /** A cluster whose deadline passed, in the timeout list of a phase, ordered by {@code position}. */
    @FactId("{phase} timeout {cluster.name}") public record TimeoutEntry(Walk phase, ClusterState cluster, int position) implements Fact {}

    /** The failures of a phase went beyond its maxFailures. */
    @FactId("{phase} breach") public record Breach(Walk phase) implements Fact {}

    /** The phase whose lists are the decision. */
    @FactId("decided by the {phase} walk") public record Decided(Walk phase) implements Fact {}

    /** A record of a cluster in no decision group: reported as removed. */
    @FactId("removed {record.cluster}") public record Removed(StrayRecord record) implements Fact {}

    /** The policy's aggregated rollout status. */
    @FactId("aggregated {status}") public record AggregatedStatus(Status status) implements Fact {}

    /** A situation for the treatment table to treat: one of each is inserted with every request. */
    @FactId("situation {situation}") public record Treat(Situation situation) implements Fact {}

    /** The rollout status a cluster in {@code situation} reports; {@code as recorded}: the status it has. */
    @FactId("{situation} reports {status}") public record ReportedStatus(Situation situation, Reported status) implements Fact {}

    /** The remediation action the replicated policy of a cluster in {@code situation} gets. */
    @FactId("{situation} gets {action}") public record ActionFor(Situation situation, Remediation action) implements Fact {}
}
