package io.arbiter.impact;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.audit.DecisionRecord;
import io.arbiter.document.Documents;
import io.arbiter.runtime.Decisions;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The impact of a candidate global policy on the live service ({@code POST /v1/impact}, {@code PUT /v1/policy?dryRun=true}):
 * the live snapshot against the same snapshot with the candidate policy, over a sweep of the catalog and the
 * decisions of the recent-decision index. Nothing is applied, and nothing it decides is logged.
 */
public final class LiveImpact {

    /** How long an impact on the live service may decide: what is not decided by then is reported as not compared. */
    public static final java.time.Duration BUDGET = java.time.Duration.ofSeconds(30);

    private LiveImpact() {
    }

    /** What to compare: the catalog sweep, the recent decisions, and how many changes to list. */
    public record Scope(boolean sweep, boolean recent, int maxChanges) {

        public static final int DEFAULT_MAX_CHANGES = 100;
        public static final int MAX_CHANGES = 10_000;

        public Scope {
            if (maxChanges < 0 || maxChanges > MAX_CHANGES) {
                throw new IllegalArgumentException("limit must be between 0 and " + MAX_CHANGES + ", not " + maxChanges);
            }
            if (!sweep && !recent) {
                throw new IllegalArgumentException("sweep and recent are both false: there is nothing to compare");
            }
        }

        public static Scope all() {
            return new Scope(true, true, DEFAULT_MAX_CHANGES);
        }
    }

    /** Throws {@link io.arbiter.decision.DecisionException} ({@code INVALID_POLICY}) for a policy PUT would refuse. */
    public static ImpactReport ofPolicy(Decisions live, byte[] policy, String contentType, Scope scope) {
        return of(live, live.withCandidatePolicy(policy, contentType), scope);
    }

    /**
     * The impact of any candidate snapshot (another policy, edited decision tables or rule files, or both) against the
     * live one, over the same sweep and recent decisions.
     */
    public static ImpactReport of(Decisions live, io.arbiter.decision.Snapshot candidate, Scope scope) {
        var baseline = live.snapshot();
        List<Probe> probes = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        if (scope.sweep()) {
            probes.addAll(Probes.sweep(baseline.catalog()));
        }
        if (scope.recent()) {
            for (DecisionRecord record : live.audit().recentDecisions()) {
                Probes.replay(parse(record), "recent decision " + record.decisionId(), probes, skipped);
            }
        }
        // offline services over each snapshot: what they decide is not the live service's to log
        return ImpactAnalysis.run(new Decisions(live.registry(), baseline), new Decisions(live.registry(), candidate),
                probes, List.of(), skipped, scope.maxChanges(), BUDGET, ImpactAnalysis.Progress.NONE);
    }

    private static JsonNode parse(DecisionRecord record) {
        try {
            return Documents.jsonMapper().readTree(record.json());
        } catch (IOException e) {
            throw new IllegalStateException("the service's own decision record is not JSON", e);
        }
    }
}
