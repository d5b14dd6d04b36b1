package io.arbiter.decision.merge;

import io.arbiter.engine.Fact;
import io.arbiter.engine.FactId;

import java.util.Comparator;

/**
 * Facts shared by every policy type that merges Action, Global and Workflow-step policies (policy-syntax 5):
 * which policies take part and how they rank. The ranking is {@code decision-tables/policy-merge/} and
 * {@code rules/policy-merge/}, loaded into each such type's rule base.
 */
public final class PolicyMergeFacts {

    private PolicyMergeFacts() {
    }

    /** Where a policy comes from; the precedence table ranks the kinds (default: ACTION, GLOBAL, WORKFLOW). */
    public enum SourceKind { ACTION, GLOBAL, WORKFLOW }

    /**
     * One policy taking part in the merge. {@code ordinal} orders policies of one kind (workflow steps: the first
     * listed first); {@code location} is where it sits in the request ({@code $.actionPolicy}) or {@code $} for
     * the global policy.
     */
    @FactId("policy {id}") public record PolicySource(String id, SourceKind kind, int ordinal, String location) implements Fact {}

    /** A server-configured rank for a kind of policy ({@code serve --policy-order}); overrides the table. */
    @FactId("configured rank {kind}={rank}") public record ConfiguredRank(SourceKind kind, int rank) implements Fact {}

    /** The default rank of a kind of policy, from the merge-order table. */
    @FactId("default rank {kind}={rank}") public record DefaultRank(SourceKind kind, int rank) implements Fact {}

    /** How high a policy stands in the merge: lower first. */
    @FactId("rank {sourceId}={rank}") public record SourceRank(String sourceId, Rank rank) implements Fact {}

    /**
     * A policy's place in the merge: the rank of its kind, then its {@code ordinal} among policies of that kind.
     * Compared field by field, so no count of policies can spill from one field into the other. Written
     * {@code 3/1}.
     */
    public record Rank(int kind, int ordinal) implements Comparable<Rank> {
        private static final Comparator<Rank> ORDER = Comparator.comparingInt(Rank::kind).thenComparingInt(Rank::ordinal);

        @Override
        public int compareTo(Rank other) {
            return ORDER.compare(this, other);
        }

        @Override
        public String toString() {
            return kind + "/" + ordinal;
        }
    }
}
