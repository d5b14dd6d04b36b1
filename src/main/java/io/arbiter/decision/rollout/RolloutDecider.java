package io.arbiter.decision.rollout;

import io.arbiter.decision.rollout.RolloutDecision.ClusterEntry;
import io.arbiter.decision.rollout.RolloutDecision.ClusterStatus;
import io.arbiter.decision.rollout.RolloutDecision.RemovedCluster;
import io.arbiter.decision.rollout.RolloutFacts.*;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.engine.RuleBaseException;
import org.kie.api.runtime.KieSession;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static io.arbiter.engine.CompiledRuleBase.factsOf;

/**
 * Decides a rollout: {@link RolloutRequest} parses the request into facts, the rules of {@code rules/rollout/} and
 * {@code decision-tables/rollout/} classify the records, walk the groups or the records and treat each cluster,
 * and this class renders what they derived.
 */
public final class RolloutDecider {

    public static final String KIND = "rollout";
    public static final List<String> PHASES = io.arbiter.engine.Phases.of(KIND);

    private static final long MICROS_PER_SECOND = 1_000_000L;

    private RolloutDecider() {
    }

    /** What one run of the rule base produced. */
    public record Result(List<Decided> decided, List<RolloutEntry> rollout, List<TimeoutEntry> timeouts,
                         List<Breach> breaches, List<Removed> removed, List<AggregatedStatus> aggregated,
                         List<SituationOf> situations, List<ReportedStatus> reported, List<ActionFor> actions) {
    }

    /** What the rules derived: a group walk inserts its entries one by one, a record walk as its lists. */
    public static Result read(KieSession session) {
        List<RolloutEntry> rollout = factsOf(session, RolloutEntry.class);
        List<TimeoutEntry> timeouts = factsOf(session, TimeoutEntry.class);
        for (RecordWalk walk : factsOf(session, RecordWalk.class)) {
            rollout.addAll(walk.rolledOut());
            rollout.addAll(walk.filled());
            timeouts.addAll(walk.timedOut());
        }
        return new Result(factsOf(session, Decided.class), rollout, timeouts, factsOf(session, Breach.class),
                factsOf(session, Removed.class), factsOf(session, AggregatedStatus.class),
                factsOf(session, SituationOf.class), factsOf(session, ReportedStatus.class),
                factsOf(session, ActionFor.class));
    }

    public static RolloutDecision decide(RolloutRequest request, CompiledRuleBase ruleBase) {
        request.work().requireWithinBudget();
        CompiledRuleBase.Run<Result> run = ruleBase.run(request.facts(), PHASES, RolloutDecider::read);
        Result result = run.result();
        if (result.decided().size() != 1 || result.aggregated().size() != 1) {
            throw new IllegalStateException("the rollout rules decided " + result.decided() + " with aggregated status "
                    + result.aggregated() + "; exactly one of each was expected");
        }
        Walk phase = result.decided().get(0).phase();
        Map<Placement, Situation> situationAt = new HashMap<>();
        result.situations().forEach(s -> situationAt.put(s.placement(), s.situation()));
        Map<Situation, Reported> reported = new EnumMap<>(Situation.class);
        result.reported().forEach(r -> reported.put(r.situation(), r.status()));
        Map<Situation, Remediation> actions = new EnumMap<>(Situation.class);
        result.actions().forEach(a -> actions.put(a.situation(), a.action()));

        List<RolloutEntry> rollout = result.rollout().stream().filter(e -> e.phase() == phase)
                .sorted(Comparator.comparing(RolloutEntry::place)).toList();
        List<TimeoutEntry> timeouts = result.timeouts().stream().filter(e -> e.phase() == phase)
                .sorted(Comparator.comparingInt(TimeoutEntry::position)).toList();

        Situation[] situationByRank = new Situation[request.clusters().size()]; // a cluster's rank is its place by name
        List<ClusterEntry> toRollout = new ArrayList<>();
        Long recheck = null;
        long now = request.settings().now();
        for (RolloutEntry entry : rollout) {
            Situation situation = situation(situationAt, Listed.ROLLOUT, entry.status());
            situationByRank[entry.cluster().rank()] = situation;
            toRollout.add(new ClusterEntry(entry.cluster().name(), entry.cluster().groupIndex(), entry.status(),
                    actions.get(situation)));
            if (entry.recheckAt() != null && entry.recheckAt() - now > 0 && (recheck == null || entry.recheckAt() - now < recheck)) {
                recheck = entry.recheckAt() - now;
            }
        }
        List<ClusterEntry> timedOut = new ArrayList<>();
        for (TimeoutEntry entry : timeouts) {
            Situation situation = situation(situationAt, Listed.TIMED_OUT, entry.cluster().status());
            situationByRank[entry.cluster().rank()] = situation;
            timedOut.add(new ClusterEntry(entry.cluster().name(), entry.cluster().groupIndex(), Status.TimeOut,
                    actions.get(situation)));
        }
        List<ClusterStatus> statuses = new ArrayList<>();
        for (ClusterState cluster : request.clusters()) {
            Situation situation = situationByRank[cluster.rank()];
            if (situation == null) {
                situation = situation(situationAt, Listed.NEITHER, cluster.status());
            }
            Reported status = reported.get(situation);
            statuses.add(new ClusterStatus(cluster.name(), status == null ? null : status.of(cluster.status()),
                    actions.get(situation)));
        }
        List<RemovedCluster> removed = result.removed().stream().map(Removed::record)
                .sorted(Comparator.comparingInt(StrayRecord::index))
                .map(r -> new RemovedCluster(r.cluster(), r.status())).toList();
        boolean breach = result.breaches().stream().anyMatch(b -> b.phase() == phase);
        return new RolloutDecision(toRollout, timedOut, removed, breach, seconds(recheck),
                statuses, result.aggregated().get(0).status(), run.firedRules());
    }

    /**
     * The situation the situation table gave a list and status: {@link #requireCoverage} refused rules that leave
     * one without, so a decision always finds it.
     */
    private static Situation situation(Map<Placement, Situation> situationAt, Listed listed, Status status) {
        Situation situation = situationAt.get(new Placement(listed, status));
        if (situation == null) {
            throw new IllegalStateException("the cluster-situation table has no row for a cluster " + listed
                    + (status == null ? " without a record" : " as " + status));
        }
        return situation;
    }

    /**
     * Refuses rules whose situation table leaves a list and status a cluster can have without a situation, or whose
     * treatment table leaves a situation without a status to report or an action under some strategy and root
     * remediation action: a decision would answer a 500 or report nothing for such a cluster. Tried once for every
     * case when the rule base is built, so an analyst's edit that drops a row fails the start-up, the reload or the
     * lint, not a decision.
     */
    public static void requireCoverage(CompiledRuleBase ruleBase) {
        requireSituations(ruleBase);
        requireTreatments(ruleBase);
    }

    /** The situations a treatment run gave a status to report, and those it gave an action. */
    private record Treated(Set<Situation> reported, Set<Situation> acted) {
    }

    private static void requireTreatments(CompiledRuleBase ruleBase) {
        List<String> missing = new ArrayList<>();
        for (Strategy strategy : Strategy.values()) {
            for (Remediation remediation : Remediation.values()) {
                List<Object> facts = new ArrayList<>();
                facts.add(new Settings(strategy, remediation, 0, 0, null));
                for (Situation situation : Situation.values()) {
                    facts.add(new Treat(situation));
                }
                Treated treated = ruleBase.run(facts, PHASES, session -> new Treated(
                        factsOf(session, ReportedStatus.class).stream().map(ReportedStatus::situation).collect(Collectors.toSet()),
                        factsOf(session, ActionFor.class).stream().map(ActionFor::situation).collect(Collectors.toSet())))
                        .result();
                for (Situation situation : Situation.values()) {
                    if (!treated.reported().contains(situation) || !treated.acted().contains(situation)) {
                        missing.add(situation + " (" + strategy + ", remediationAction " + remediation + ")");
                    }
                }
            }
        }
        if (!missing.isEmpty()) {
            throw new RuleBaseException("the rule base '" + ruleBase.name() + "' gives no status or no remediation action"
                    + " to a cluster " + String.join(", ", missing) + ": the cluster-treatment decision table needs a row"
                    + " for each");
        }
    }

    private static void requireSituations(CompiledRuleBase ruleBase) {
        List<Placement> every = Placement.every();
        Set<Placement> situated = ruleBase.run(every, PHASES, session -> factsOf(session, SituationOf.class)).result()
                .stream().map(SituationOf::placement).collect(Collectors.toSet());
        List<String> missing = every.stream().filter(placement -> !situated.contains(placement))
                .map(Placement::factId).toList();
        if (!missing.isEmpty()) {
            throw new RuleBaseException("the rule base '" + ruleBase.name() + "' gives no situation to a cluster "
                    + String.join(", ", missing) + ": the cluster-situation decision table needs a row for each");
        }
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
