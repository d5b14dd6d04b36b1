package io.arbiter.decision.rollout;

import io.arbiter.decision.rollout.RolloutFacts.Remediation;
import io.arbiter.decision.rollout.RolloutFacts.Status;
import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.decision.DecisionException;
import io.arbiter.document.Documents;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.engine.FiredRule;
import io.arbiter.testing.Fixtures;
import io.arbiter.testing.RuleTestSupport;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static io.arbiter.testing.RuleTestSupport.assertFired;
import static io.arbiter.testing.RuleTestSupport.assertFiredTimes;
import static io.arbiter.testing.RuleTestSupport.assertNotFired;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each rollout rule fires where it should and its neighbours do not. Requests are small YAML bodies of
 * {@code POST /v1/decisions/rollout}; {@code now} is 00:10:00 and the groups are g0 = [a, b], g1 = [c, d].
 */
class RolloutRulesTest {

    private static final CompiledRuleBase RULES = RuleTestSupport.ruleBase(RolloutDecider.KIND, RolloutDecider.PHASES);
    private static final String GROUPS = """
            now: "2026-01-01T00:10:00Z"
            decisionGroups:
              - {groupName: g0, groupIndex: 0, clusters: [a, b]}
              - {groupName: g1, groupIndex: 1, clusters: [c, d]}
            """;

    private static List<FiredRule> fired(String yaml) {
        return decide(yaml).firedRules();
    }

    private static RolloutDecision decide(String yaml) {
        return decideBody(GROUPS + yaml);
    }

    /** A whole request body, with groups of its own. */
    private static RolloutDecision decideBody(String yaml) {
        JsonNode body = Documents.parseYaml(yaml.getBytes(StandardCharsets.UTF_8)).tree();
        return RolloutDecider.decide(RolloutRequest.parse(body), RULES);
    }

    private static List<String> clusters(RolloutDecision decision) {
        return decision.toRollout().stream().map(RolloutDecision.ClusterEntry::cluster).toList();
    }

    // ---- groups, soak, removed --------------------------------------------------------------------

    @Test
    void mandatoryEntriesSelectGroupsByNameOrElseByIndex() {
        List<FiredRule> byName = fired("""
                strategy: {type: Progressive, progressive: {mandatoryDecisionGroups: [{groupName: g1, groupIndex: 0}]}}
                """);
        assertFiredTimes(byName, "A mandatory entry with a name selects every group of that name", 1);
        assertNotFired(byName, "A mandatory entry without a name selects the group of its index");
        assertFiredTimes(byName, "A group no mandatory entry selects is rolled out with the rest", 1);

        List<FiredRule> byIndex = fired("strategy: {type: Progressive, progressive: {mandatoryDecisionGroups: [{}]}}\n");
        assertFiredTimes(byIndex, "A mandatory entry without a name selects the group of its index", 1);
        assertNotFired(byIndex, "A mandatory entry with a name selects every group of that name");
        assertFired(byIndex, "The mandatory groups are walked first");
        assertNotFired(byIndex, "Without mandatory groups the rest of the rollout decides");
    }

    @Test
    void allDoesNotSoakAndProgressiveStrategiesDo() {
        List<FiredRule> all = fired("strategy: {type: All, all: {minSuccessTime: 5m}}\nclusters: [{name: a, status: Succeeded}]\n");
        assertFired(all, "All does not soak succeeded clusters");
        assertNotFired(all, "A progressive strategy soaks succeeded clusters for minSuccessTime");
        assertFired(all, "A succeeded cluster past its soak time is done");

        List<FiredRule> progressive = fired("strategy: {type: Progressive, progressive: {minSuccessTime: 5m}}\n"
                + "clusters: [{name: a, status: Succeeded, lastTransitionTime: \"2026-01-01T00:08:00Z\"}]\n");
        assertFired(progressive, "A progressive strategy soaks succeeded clusters for minSuccessTime");
        assertFired(progressive, "A succeeded cluster still soaking is rolled out");
        assertNotFired(progressive, "A succeeded cluster past its soak time is done");
    }

    @Test
    void aRecordOfAClusterInNoGroupIsRemoved() {
        RolloutDecision decision = decide("clusters: [{name: gone, status: Progressing}, {name: a, status: Progressing}]\n");
        assertFiredTimes(decision.firedRules(), "A record of a cluster in no decision group is removed", 1);
        assertEquals(List.of("gone"), decision.removed().stream().map(RolloutDecision.RemovedCluster::cluster).toList());
    }

    // ---- limits ---------------------------------------------------------------------------------

    @Test
    void limitsAreMeasuredAgainstWhatEachStrategySays() {
        assertFired(fired("strategy: {type: All}\n"), "All rolls out every cluster at once and tolerates every failure");
        List<FiredRule> progressive = fired("strategy: {type: Progressive}\n");
        assertFired(progressive, "Progressive measures maxFailures against every cluster");
        assertFired(progressive, "Progressive measures maxConcurrency against the clusters outside mandatory groups");
        assertNotFired(progressive, "ProgressivePerGroup measures maxFailures against each group");
        List<FiredRule> perGroup = fired("strategy: {type: ProgressivePerGroup, progressivePerGroup: {mandatoryDecisionGroups: [{}]}}\n");
        assertFiredTimes(perGroup, "ProgressivePerGroup measures maxFailures against each group", 1);
        assertFiredTimes(perGroup, "Mandatory groups tolerate no failures", 1);
        assertNotFired(perGroup, "Progressive measures maxFailures against every cluster");
    }

    @Test
    void aLimitIsACountOrAPercentageOrUnset() {
        List<FiredRule> count = fired("strategy: {type: Progressive, progressive: {maxConcurrency: 2}}\n");
        assertFiredTimes(count, "A count limit is taken as given", 1);
        assertNotFired(count, "A percentage limit is rounded up against its total");
        assertFiredTimes(count, "An unset limit takes its default", 1); // maxFailures
        assertFiredTimes(count, "A limit within its total is used as given", 1);

        RolloutDecision percent = decide("strategy: {type: Progressive, progressive: {maxConcurrency: \"26%\"}}\n");
        assertFiredTimes(percent.firedRules(), "A percentage limit is rounded up against its total", 1);
        assertNotFired(percent.firedRules(), "A count limit is taken as given");
        assertEquals(2, percent.toRollout().size(), "26% of 4 clusters rounds up to 2");
    }

    @Test
    void aLimitOfZeroTakesItsDefaultAndOneAboveItsTotalIsClamped() {
        RolloutDecision zero = decide("strategy: {type: Progressive, progressive: {maxConcurrency: 0}}\n");
        assertFired(zero.firedRules(), "A limit of zero or less takes its default");
        assertNotFired(zero.firedRules(), "A limit above its total is clamped to the total");
        assertEquals(4, zero.toRollout().size(), "maxConcurrency 0 is no limit");

        RolloutDecision above = decide("""
                strategy: {type: Progressive, progressive: {maxFailures: 9}}
                clusters: [{name: a, status: Failed}, {name: b, status: Failed}]
                """);
        assertFired(above.firedRules(), "A limit above its total is clamped to the total");
        assertNotFired(above.firedRules(), "A limit within its total is used as given");
        assertEquals(false, above.maxFailureBreach(), "maxFailures 9 over 4 clusters tolerates 4 (difference 1)");
    }

    // ---- status table and classification ---------------------------------------------------------

    @Test
    void eachStatusHasItsRow() {
        List<FiredRule> fired = fired("""
                strategy: {type: All}
                clusters:
                  - {name: a, status: ToApply}
                  - {name: b, status: Progressing}
                  - {name: c, status: Skip}
                  - {name: e, status: TimeOut}
                """);
        assertFiredTimes(fired, "ToApply is applied next", 1);
        assertFiredTimes(fired, "Progressing is watched against its deadline", 1);
        assertFiredTimes(fired, "Skip is done", 1);
        assertNotFired(fired, "TimeOut is done and is a failure"); // e is in no group: removed, never classified
        assertNotFired(fired, "Failed is watched against its deadline and is a failure");
        assertFiredTimes(fired, "A cluster to apply is rolled out", 1);
        assertFiredTimes(fired, "A finished cluster is done", 1);
        assertFiredTimes(fired, "A watched cluster without a deadline is rolled out", 1);
    }

    @Test
    void aStatusOutsideTheSixIsRefusedAtItsField() {
        DecisionException refused = assertThrows(DecisionException.class,
                () -> decide("clusters: [{name: a, status: Progressing}, {name: b, status: Weird}]\n"));
        assertEquals(DecisionException.Code.INVALID_REQUEST, refused.code());
        assertEquals("$.clusters[1].status", refused.problems().get(0).path(), refused.problems().toString());
    }

    @Test
    void aWatchedClusterIsRolledOutUntilItsDeadlineThenTimesOut() {
        List<FiredRule> fired = fired("""
                strategy: {type: All, all: {progressDeadline: 90s}}
                clusters:
                  - {name: a, status: Failed, lastTransitionTime: "2026-01-01T00:09:00Z"}
                  - {name: b, status: Progressing, lastTransitionTime: "2026-01-01T00:08:00Z"}
                """);
        assertFiredTimes(fired, "Failed is watched against its deadline and is a failure", 1);
        assertFiredTimes(fired, "A watched cluster within its deadline is rolled out", 1);
        assertFiredTimes(fired, "A watched cluster past its deadline times out", 1);
        assertNotFired(fired, "A watched cluster without a deadline is rolled out");
    }

    // ---- the group walk --------------------------------------------------------------------------

    @Test
    void theMandatoryWalkDecidesWhileAGroupItReachedHasClustersToRollOut() {
        RolloutDecision decision = decide("strategy: {type: ProgressivePerGroup, progressivePerGroup: {mandatoryDecisionGroups: [{groupName: g1}]}}\n");
        List<FiredRule> fired = decision.firedRules();
        assertFiredTimes(fired, "A group with clusters to start holds its walk back", 2); // g1 mandatory, g0 the rest
        assertFiredTimes(fired, "A group walk reaches every group no earlier group of the walk holds back", 1);
        assertFired(fired, "A group walk rolls out the clusters without a record or to apply of each group it reaches");
        assertFired(fired, "The mandatory walk decides while a group it reached has clusters to roll out");
        assertNotFired(fired, "After the mandatory walk the rest of the rollout decides");
        assertNotFired(fired, "ProgressivePerGroup walks the other groups one by one");
        assertEquals(List.of("c", "d"), clusters(decision));
    }

    @Test
    void theMandatoryWalkDecidesWhileAGroupItReachedHasClustersTimingOut() {
        List<FiredRule> fired = fired("""
                strategy: {type: ProgressivePerGroup, progressivePerGroup: {progressDeadline: 1m, mandatoryDecisionGroups: [{}]}}
                clusters:
                  - {name: a, status: Progressing, lastTransitionTime: "2026-01-01T00:00:00Z"}
                  - {name: b, status: Succeeded}
                """);
        assertFired(fired, "A group walk reports every record past its deadline");
        assertFiredTimes(fired, "A group beyond its maxFailures holds its walk back", 1);
        assertFired(fired, "The mandatory walk decides while a group it reached has clusters timing out");
        assertFired(fired, "A group walk that reaches a group beyond its maxFailures breaches");
        assertNotFired(fired, "The mandatory walk decides while a group it reached has clusters to roll out");
    }

    @Test
    void theMandatoryWalkLooksOnlyAtTheMandatoryGroups() {
        RolloutDecision decision = decide("""
                strategy: {type: ProgressivePerGroup, progressivePerGroup: {progressDeadline: 1m, mandatoryDecisionGroups: [{}]}}
                clusters:
                  - {name: a, status: Succeeded}
                  - {name: b, status: Skip}
                  - {name: c, status: Progressing, lastTransitionTime: "2026-01-01T00:09:30Z"}
                  - {name: d, status: Failed, lastTransitionTime: "2026-01-01T00:00:00Z"}
                """);
        assertNotFired(decision.firedRules(), "The mandatory walk decides while a group it reached has clusters to roll out");
        assertNotFired(decision.firedRules(), "The mandatory walk decides while a group it reached has clusters timing out");
        assertFired(decision.firedRules(), "After the mandatory walk the rest of the rollout decides");
        assertEquals(List.of("c"), clusters(decision), "g1's records in flight are the rest's to watch");
        assertEquals(List.of("d"), decision.timedOut().stream().map(RolloutDecision.ClusterEntry::cluster).toList());
        assertTrue(decision.maxFailureBreach(), "d timed out in g1, which the rest's walk reaches: 1 > 0");
    }

    @Test
    void afterTheMandatoryWalkTheRestDecides() {
        RolloutDecision decision = decide("""
                strategy: {type: ProgressivePerGroup, progressivePerGroup: {mandatoryDecisionGroups: [{}]}}
                clusters: [{name: a, status: Succeeded}, {name: b, status: Skip}]
                """);
        assertFired(decision.firedRules(), "After the mandatory walk the rest of the rollout decides");
        assertFired(decision.firedRules(), "ProgressivePerGroup walks the other groups one by one");
        assertEquals(List.of("c", "d"), clusters(decision));
    }

    @Test
    void aGroupWalkStopsAfterAGroupWithARecordStillInFlight() {
        RolloutDecision decision = decide("""
                strategy: {type: ProgressivePerGroup, progressivePerGroup: {maxFailures: 1, progressDeadline: 1m}}
                clusters:
                  - {name: a, status: Progressing, lastTransitionTime: "2026-01-01T00:00:00Z"}
                  - {name: b, status: Progressing, lastTransitionTime: "2026-01-01T00:09:50Z"}
                """);
        assertFired(decision.firedRules(), "A group walk starts with every record in flight");
        assertFiredTimes(decision.firedRules(), "A group with a record still in flight holds its walk back", 1);
        assertFiredTimes(decision.firedRules(), "A group walk reaches every group no earlier group of the walk holds back", 1);
        assertNotFired(decision.firedRules(), "A group beyond its maxFailures holds its walk back");
        assertEquals(List.of("b"), clusters(decision), "a timed out (tolerated); b still in flight holds g1 back (difference 2)");
    }

    @Test
    void aGroupWalkPassesAGroupWithOnlyToleratedFailuresAndStartsTheNext() {
        RolloutDecision decision = decide("""
                strategy: {type: ProgressivePerGroup, progressivePerGroup: {maxFailures: 1}}
                clusters: [{name: a, status: Failed}, {name: b, status: Succeeded}]
                """);
        assertNotFired(decision.firedRules(), "A group with a record still in flight holds its walk back");
        assertFiredTimes(decision.firedRules(), "A group with clusters to start holds its walk back", 1); // g1
        assertEquals(List.of("a", "c", "d"), clusters(decision), "a is watched; g1 starts");
    }

    @Test
    void recordsOfAGroupNotReachedYetDoNotStopTheWalk() {
        RolloutDecision decision = decideBody("""
                now: "2026-01-01T00:10:00Z"
                strategy: {type: ProgressivePerGroup, progressivePerGroup: {}}
                decisionGroups:
                  - {groupName: g0, groupIndex: 0, clusters: [a, b]}
                  - {groupName: g1, groupIndex: 1, clusters: [c, d]}
                  - {groupName: g2, groupIndex: 2, clusters: [e]}
                clusters:
                  - {name: a, status: Succeeded}
                  - {name: b, status: Succeeded}
                  - {name: c, status: Progressing}
                  - {name: d, status: ToApply}
                  - {name: e, status: Failed}
                """);
        assertEquals(List.of("c", "e", "d"), clusters(decision), "d (ToApply) of the group under way starts now");
        assertFiredTimes(decision.firedRules(), "A group walk reaches every group no earlier group of the walk holds back", 2);
        assertFiredTimes(decision.firedRules(), "A group beyond its maxFailures holds its walk back", 1); // g2
        assertNotFired(decision.firedRules(), "A group walk that reaches a group beyond its maxFailures breaches");
        assertTrue(!decision.maxFailureBreach(), "g2 fails, but the walk has not reached it");
    }

    // ---- the record walk -------------------------------------------------------------------------

    @Test
    void theRecordWalkStopsAtItsSize() {
        RolloutDecision decision = decide("""
                strategy: {type: Progressive, progressive: {maxConcurrency: 2}}
                clusters: [{name: a, status: Succeeded}, {name: b, status: Progressing}]
                """);
        List<FiredRule> fired = decision.firedRules();
        assertFiredTimes(fired, "Progressive walks the records by name", 1);
        assertNotFired(fired, "All takes every record and every cluster without a record at once");
        assertNotFired(fired, "Failures beyond maxFailures breach the record walk");
        assertTrue(decision.timedOut().isEmpty());
        assertEquals(List.of("b", "c"), decision.toRollout().stream().map(RolloutDecision.ClusterEntry::cluster).toList(),
                "a is done; b joins; c fills the list to its size, d does not");
    }

    @Test
    void theRecordWalkStopsBeforeARecordOnceTheListIsFull() {
        RolloutDecision decision = decide("""
                strategy: {type: Progressive, progressive: {maxConcurrency: 1, progressDeadline: 1m}}
                clusters:
                  - {name: a, status: Progressing, lastTransitionTime: "2026-01-01T00:09:30Z"}
                  - {name: b, status: Failed, lastTransitionTime: "2026-01-01T00:00:00Z"}
                """);
        List<FiredRule> fired = decision.firedRules();
        assertFiredTimes(fired, "Progressive walks the records by name", 1);
        assertNotFired(fired, "Failures beyond maxFailures breach the record walk");
        assertEquals(List.of("a"), clusters(decision), "no cluster without a record fills a full list");
        assertTrue(decision.timedOut().isEmpty(), "b is not examined: the list is full after a");
    }

    @Test
    void afterABreachTheRecordWalkPassesOverRecordsToApplyAndAddsNoNewCluster() {
        RolloutDecision decision = decide("""
                strategy: {type: Progressive, progressive: {progressDeadline: 1m}}
                clusters:
                  - {name: a, status: Failed, lastTransitionTime: "2026-01-01T00:00:00Z"}
                  - {name: b, status: ToApply}
                """);
        List<FiredRule> fired = decision.firedRules();
        assertFired(fired, "Failures beyond maxFailures breach the record walk");
        assertEquals(List.of("a"), decision.timedOut().stream().map(RolloutDecision.ClusterEntry::cluster).toList());
        assertTrue(decision.toRollout().isEmpty(), "b, to apply, is passed over; no cluster without a record is added");
        assertTrue(decision.maxFailureBreach());
    }

    // ---- All ------------------------------------------------------------------------------------

    @Test
    void allTakesEveryRecordInFlightAndEveryClusterWithoutARecordInOneWalkWithoutLimits() {
        RolloutDecision decision = decide("""
                strategy: {type: All, all: {progressDeadline: 1m}}
                clusters:
                  - {name: d, status: Failed, lastTransitionTime: "2026-01-01T00:00:00Z"}
                  - {name: c, status: Progressing, lastTransitionTime: "2026-01-01T00:09:30Z"}
                  - {name: a, status: Succeeded, lastTransitionTime: "2026-01-01T00:00:00Z"}
                """);
        List<FiredRule> fired = decision.firedRules();
        assertFiredTimes(fired, "All takes every record and every cluster without a record at once", 1);
        assertNotFired(fired, "Progressive walks the records by name");
        assertNotFired(fired, "Failures beyond maxFailures breach the record walk");
        assertEquals(List.of("c", "b"), decision.toRollout().stream().map(RolloutDecision.ClusterEntry::cluster).toList(),
                "records first, then clusters without a record by name");
        assertEquals(List.of("d"), decision.timedOut().stream().map(RolloutDecision.ClusterEntry::cluster).toList());
        assertTrue(!decision.maxFailureBreach(), "All never breaches");
    }

    @Test
    void allWithEveryClusterRecordedAddsNoClusterWithoutARecord() {
        RolloutDecision decision = decideBody("""
                now: "2026-01-01T00:10:00Z"
                decisionGroups: [{groupName: g0, groupIndex: 0, clusters: [a, b, c, d]}]
                strategy: {type: All}
                clusters: [{name: a, status: ToApply}, {name: b, status: Succeeded}, {name: c, status: Skip}, {name: d, status: Failed}]
                """);
        assertFiredTimes(decision.firedRules(), "All takes every record and every cluster without a record at once", 1);
        assertEquals(List.of("a", "d"), clusters(decision), "b and c are done; no cluster is without a record");
        assertTrue(decision.timedOut().isEmpty());
    }

    @Test
    void aRolloutOverMoreFactsThanAPooledSessionTakesIsDecidedInAFreshSessionAlike() {
        StringBuilder yaml = new StringBuilder("now: \"2026-01-01T00:10:00Z\"\nstrategy: {type: All}\ndecisionGroups:\n");
        List<String> names = new java.util.ArrayList<>();
        for (int g = 0; g < 12; g++) {
            yaml.append("  - {groupName: g").append(g).append(", groupIndex: ").append(g).append(", clusters: [");
            for (int c = 0; c < 100; c++) {
                String name = String.format("c-%02d-%03d", g, c);
                names.add(name);
                yaml.append(c == 0 ? "" : ", ").append(name);
            }
            yaml.append("]}\n");
        }
        JsonNode body = Documents.parseYaml(yaml.toString().getBytes(StandardCharsets.UTF_8)).tree();
        RolloutRequest request = RolloutRequest.parse(body);
        assertTrue(request.facts().size() > CompiledRuleBase.POOLED_SESSION_MAX_FACTS);

        RolloutDecision first = RolloutDecider.decide(request, RULES);
        decide("strategy: {type: All}\n"); // a pooled decision in between
        RolloutDecision second = RolloutDecider.decide(request, RULES);

        assertEquals(names, first.toRollout().stream().map(RolloutDecision.ClusterEntry::cluster).toList());
        assertEquals(first.toRollout(), second.toRollout());
        assertEquals(first.firedRules().size(), second.firedRules().size());
    }

    // ---- aggregated status and the policy layer -----------------------------------------------------

    @Test
    void theAggregatedStatusIsFailedSucceededOrProgressing() {
        List<FiredRule> failed = fired("strategy: {type: Progressive}\nclusters: [{name: a, status: Failed}]\n");
        assertFired(failed, "A rollout that breached maxFailures has failed");
        assertNotFired(failed, "Any other rollout is progressing");

        List<FiredRule> succeeded = fired("""
                strategy: {type: All}
                clusters: [{name: a, status: Succeeded}, {name: b, status: Skip}, {name: c, status: Succeeded}, {name: d, status: Succeeded}]
                """);
        assertFired(succeeded, "A rollout where every cluster succeeded or was skipped has succeeded");
        assertNotFired(succeeded, "Any other rollout is progressing");

        List<FiredRule> progressing = fired("strategy: {type: All}\nclusters: [{name: a, status: Succeeded}]\n");
        assertFired(progressing, "Any other rollout is progressing");
        assertNotFired(progressing, "A rollout where every cluster succeeded or was skipped has succeeded");
    }

    @Test
    void enforcingProgressivelyInformsWaitingClustersFirst() {
        RolloutDecision decision = decide("""
                remediationAction: enforce
                strategy: {type: Progressive, progressive: {maxConcurrency: 1}}
                clusters: [{name: d, status: Skip}]
                """);
        assertFired(decision.firedRules(), "Waiting while enforcing progressively is informed first");
        assertNotFired(decision.firedRules(), "Waiting otherwise gets the policy as is");
        assertFired(decision.firedRules(), "Skipped while enforcing progressively keeps informing");
        assertNotFired(decision.firedRules(), "Skipped");
        assertEquals(List.of(new RolloutDecision.ClusterStatus("a", Status.Progressing, Remediation.enforce),
                new RolloutDecision.ClusterStatus("b", Status.ToApply, Remediation.inform),
                new RolloutDecision.ClusterStatus("c", Status.ToApply, Remediation.inform),
                new RolloutDecision.ClusterStatus("d", Status.Skip, Remediation.inform)), decision.clusterStatuses());
    }

    @Test
    void theSituationTableSaysWhereEachClusterStandsByItsListAndRecord() {
        RolloutDecision decision = decide("""
                remediationAction: enforce
                strategy: {type: Progressive, progressive: {maxConcurrency: 1}}
                clusters: [{name: a, status: ToApply}, {name: b, status: ToApply}]
                """);
        List<FiredRule> fired = decision.firedRules();
        assertEquals(List.of("a"), clusters(decision));
        assertFiredTimes(fired, "Rolled out from ToApply is updated now", 1);
        assertFiredTimes(fired, "To apply and in neither list is waiting", 1);
        assertFiredTimes(fired, "Without a record and in neither list is waiting", 1);
        assertNotFired(fired, "Any other record in neither list was rolled out before");
        assertNotFired(fired, "Skipped and in neither list stays skipped");
        assertEquals(List.of("in neither list as ToApply"), fired.stream()
                .filter(f -> RuleTestSupport.name(f).equals("To apply and in neither list is waiting"))
                .flatMap(f -> f.facts().stream()).toList());
        // a (updated now) reports Progressing; b (a ToApply record) and c, d (no record) wait and are informed first
        assertEquals(List.of(new RolloutDecision.ClusterStatus("a", Status.Progressing, Remediation.enforce),
                new RolloutDecision.ClusterStatus("b", Status.ToApply, Remediation.inform),
                new RolloutDecision.ClusterStatus("c", Status.ToApply, Remediation.inform),
                new RolloutDecision.ClusterStatus("d", Status.ToApply, Remediation.inform)), decision.clusterStatuses());

        List<FiredRule> done = fired("""
                strategy: {type: Progressive, progressive: {maxConcurrency: 1}}
                clusters: [{name: a, status: Succeeded}, {name: b, status: Skip}]
                """);
        assertFiredTimes(done, "Any other record in neither list was rolled out before", 1);
        assertFiredTimes(done, "Skipped and in neither list stays skipped", 1);
        assertNotFired(done, "To apply and in neither list is waiting");
    }

    @Test
    void aTreatmentRowMatchesTheSettingsOnce() {
        List<FiredRule> fired = fired("""
                remediationAction: enforce
                strategy: {type: Progressive, progressive: {maxConcurrency: 1}}
                clusters: [{name: d, status: Skip}]
                """);
        List<String> facts = fired.stream()
                .filter(f -> RuleTestSupport.name(f).equals("Skipped while enforcing progressively keeps informing"))
                .flatMap(f -> f.facts().stream()).toList();
        assertEquals(List.of("situation skipped", "strategy Progressive, remediationAction enforce"), facts);
    }

    @Test
    void informingGivesEveryClusterThePolicyAsIs() {
        RolloutDecision decision = decide("""
                remediationAction: inform
                strategy: {type: Progressive, progressive: {maxConcurrency: 1}}
                clusters: [{name: d, status: Skip}]
                """);
        assertFired(decision.firedRules(), "Waiting otherwise gets the policy as is");
        assertNotFired(decision.firedRules(), "Waiting while enforcing progressively is informed first");
        assertFired(decision.firedRules(), "Skipped");
        decision.clusterStatuses().forEach(status -> assertEquals(Remediation.inform, status.remediationAction()));
        assertEquals(Status.Progressing, decision.clusterStatuses().get(1).rolloutStatus());
    }

    // ---- every rule is exercised ------------------------------------------------------------------

    @Test
    void everyRolloutRuleFiresInSomeScenario() throws IOException {
        Set<String> fired = new TreeSet<>();
        try (Stream<Path> files = Files.list(Fixtures.SCENARIOS)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).toList()) {
                JsonNode scenario = Documents.parseYaml(Files.readAllBytes(file)).tree();
                if (!scenario.path("target").asText().equals("rollout") || scenario.path("expect").has("status")) {
                    continue;
                }
                RolloutDecider.decide(RolloutRequest.parse(scenario.path("request")), RULES).firedRules()
                        .forEach(rule -> fired.add(io.arbiter.testing.RuleTestSupport.name(rule)));
            }
        }
        Set<String> never = new TreeSet<>();
        RULES.kieBase().getKiePackages().forEach(pkg -> pkg.getRules().stream()
                .filter(rule -> !((org.drools.base.definitions.rule.impl.RuleImpl) rule).isQuery())
                .forEach(rule -> never.add(rule.getName())));
        assertTrue(never.size() > 50, "the rollout rules: " + never);
        never.removeAll(fired);
        assertEquals(Set.of(), never, "rollout rules no scenario fires");
    }

    @Test
    void thePackagedSituationTableGivesEveryPlacementASituation() {
        RolloutDecider.requireCoverage(RULES);

        var situated = RuleTestSupport.fire(RULES, RolloutFacts.Placement.every(),
                session -> CompiledRuleBase.factsOf(session, RolloutFacts.SituationOf.class)).result();
        assertEquals(RolloutFacts.Placement.every().size(), situated.size(), situated.toString());
    }
}
