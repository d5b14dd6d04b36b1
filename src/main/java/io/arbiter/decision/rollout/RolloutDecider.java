package io.arbiter.decision.rollout;

import io.arbiter.decision.rollout.RolloutDecision.ClusterEntry;
import io.arbiter.decision.rollout.RolloutDecision.ClusterStatus;
import io.arbiter.decision.rollout.RolloutDecision.RemovedCluster;
import io.arbiter.decision.rollout.RolloutFacts.*;
import io.arbiter.engine.CompiledRuleBase;
import org.kie.api.runtime.KieSession;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.arbiter.engine.CompiledRuleBase.factsOf;

/**
 * Decides a rollout: {@link RolloutRequest} parses the request into facts, the rules of {@code rules/rollout/} and
 * {@code decision-tables/rollout/} classify the records, walk the groups or the records and treat each cluster,
 * and this class renders what they derived.
 */
public final class RolloutDecider {

    public static final String KIND = "rollout";
    public static final List<String> PHASES = List.of("rollout-groups", "rollout-rest-groups", "rollout-limits",
            "rollout-limit-values", "rollout-limit-bounds", "rollout-status", "rollout-classify",
            "rollout-new-clusters", "rollout-group-state", "rollout-start", "rollout-walk", "rollout-aggregate",
            "rollout-aggregate-otherwise", "rollout-treatment");

    private static final long MICROS_PER_SECOND = 1_000_000L;

    private RolloutDecider() {
    }

    /** What one run of the rule base produced. */
    public record Result(List<Decided> decided, List<RolloutEntry> rollout, List<TimeoutEntry> timeouts,
                         List<Breach> breaches, List<Removed> removed, List<AggregatedStatus> aggregated,
                         List<ReportedStatus> reported, List<ActionFor> actions) {
    }

    public static Result read(KieSession session) {
        return new Result(factsOf(session, Decided.class), factsOf(session, RolloutEntry.class),
                factsOf(session, TimeoutEntry.class), factsOf(session, Breach.class), factsOf(session, Removed.class),
                factsOf(session, AggregatedStatus.class), factsOf(session, ReportedStatus.class),
                factsOf(session, ActionFor.class));
    }

    public static RolloutDecision decide(RolloutRequest request, CompiledRuleBase ruleBase) {
        CompiledRuleBase.Run<Result> run = ruleBase.run(request.facts(), PHASES, RolloutDecider::read);
        Result result = run.result();
        if (result.decided().size() != 1 || result.aggregated().size() != 1) {
            throw new IllegalStateException("the rollout rules decided " + result.decided() + " with aggregated status "
                    + result.aggregated() + "; exactly one of each was expected");
        }
        Walk phase = result.decided().get(0).phase();
        Map<Situation, Reported> reported = new EnumMap<>(Situation.class);
        result.reported().forEach(r -> reported.put(r.situation(), r.status()));
        Map<Situation, Remediation> actions = new EnumMap<>(Situation.class);
        result.actions().forEach(a -> actions.put(a.situation(), a.action()));

        List<RolloutEntry> rollout = result.rollout().stream().filter(e -> e.phase() == phase)
                .sorted(Comparator.comparing(RolloutEntry::place)).toList();
        List<TimeoutEntry> timeouts = result.timeouts().stream().filter(e -> e.phase() == phase)
                .sorted(Comparator.comparingInt(TimeoutEntry::position)).toList();

        Map<String, Situation> situations = new HashMap<>();
        List<ClusterEntry> toRollout = new ArrayList<>();
        Long recheck = null;
        long now = request.settings().now();
        for (RolloutEntry entry : rollout) {
            Situation situation = entry.status() == Status.ToApply ? Situation.UPDATED_NOW : Situation.WATCHED;
            situations.put(entry.cluster().name(), situation);
            toRollout.add(new ClusterEntry(entry.cluster().name(), entry.cluster().groupIndex(), entry.status(),
                    actions.get(situation)));
            if (entry.recheckAt() != null && entry.recheckAt() - now > 0 && (recheck == null || entry.recheckAt() - now < recheck)) {
                recheck = entry.recheckAt() - now;
            }
        }
        List<ClusterEntry> timedOut = new ArrayList<>();
        for (TimeoutEntry entry : timeouts) {
            situations.put(entry.cluster().name(), Situation.TIMED_OUT_NOW);
            timedOut.add(new ClusterEntry(entry.cluster().name(), entry.cluster().groupIndex(), Status.TimeOut,
                    actions.get(Situation.TIMED_OUT_NOW)));
        }
        List<ClusterStatus> statuses = new ArrayList<>();
        for (ClusterState cluster : request.clusters()) {
            Situation situation = situations.getOrDefault(cluster.name(), situationOf(cluster));
            Reported status = reported.get(situation);
            statuses.add(new ClusterStatus(cluster.name(), status == null ? null : status.of(cluster.status()),
                    actions.get(situation)));
        }
        List<RemovedCluster> removed = result.removed().stream().map(Removed::record)
                .sorted(Comparator.comparingInt(StrayRecord::index))
                .map(r -> new RemovedCluster(r.cluster(), r.status())).toList();
        boolean breach = result.breaches().stream().anyMatch(b -> b.phase() == phase);
        return new RolloutDecision(UUID.randomUUID().toString(), toRollout, timedOut, removed, breach, seconds(recheck),
                statuses, result.aggregated().get(0).status(), run.firedRules(), ruleBase.revision());
    }

    /** Where a cluster in neither list stands: as its record says. */
    private static Situation situationOf(ClusterState cluster) {
        if (cluster.status() == null || cluster.status() == Status.ToApply) {
            return Situation.WAITING;
        }
        return cluster.status() == Status.Skip ? Situation.SKIPPED : Situation.ROLLED_OUT_BEFORE;
    }

    /** Whole seconds as an integer, fractions as a decimal. */
    private static Number seconds(Long micros) {
        if (micros == null) {
            return null;
        }
        if (micros % MICROS_PER_SECOND == 0) {
            return micros / MICROS_PER_SECOND;
        }
        return micros / (double) MICROS_PER_SECOND;
    }
}
