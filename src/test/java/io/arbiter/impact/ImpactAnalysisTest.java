package io.arbiter.impact;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.document.Documents;
import io.arbiter.runtime.Decisions;
import io.arbiter.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ImpactAnalysisTest {

    private static final String DENY_POSTGRES = """
            interface:
              default:
                inject:
                  requiredTypeInstances:
                    - id: c268d3f5-8834-434b-bea2-b677793611c5
              rules:
                - interface: {path: cap.interface.database.postgresql.install}
                  oneOf: []
                - interface: {path: cap.*}
                  oneOf:
                    - implementationConstraints:
                        requires:
                          - path: cap.core.type.platform.kubernetes
                    - implementationConstraints: {}
            """;

    private static Decisions baseline() {
        return Fixtures.decisions(Fixtures.snapshot(Fixtures.embeddedPolicy()));
    }

    private static Decisions candidate(String policy) {
        return Fixtures.decisions(Fixtures.snapshot(Fixtures.policy(policy)));
    }

    @Test
    void theSweepDecidesEveryInterfaceAndTypeRevisionAndNamesWhatChanged() {
        Decisions baseline = baseline();
        List<Probe> sweep = Probes.sweep(baseline.snapshot().catalog());
        int interfaces = baseline.snapshot().catalog().interfaces().size();
        int types = baseline.snapshot().catalog().typeRefs().size();

        ImpactReport report = ImpactAnalysis.run(baseline, candidate(DENY_POSTGRES), sweep, List.of(), 100, ImpactAnalysis.Progress.NONE);

        assertEquals(interfaces + types, report.decisions());
        assertEquals(1, report.changed(), report.toString());
        assertEquals(new ImpactReport.Tally(interfaces, 1, 0, 0), report.byKind().get("implementation"));
        assertEquals(new ImpactReport.Tally(types, 0, 0, 0), report.byKind().get("backend"));
        ImpactReport.Change change = report.changes().get(0);
        assertEquals(List.of("cap.interface.database.postgresql.install:0.1.0"), change.subjects());
        assertEquals("SELECTED", change.outcomeBefore());
        assertEquals("DENIED", change.outcomeAfter());
        assertEquals("cap.implementation.bitnami.postgresql.install", change.fields().get("selected").before().path("path").asText());
        assertTrue(change.fields().get("selected").after().isNull());
        assertTrue(change.firedOnlyAfter().stream().anyMatch(rule -> rule.endsWith("Outcome DENIED when the rule's oneOf is empty")
                || rule.contains("DENIED")), change.firedOnlyAfter().toString());
        assertNull(change.test());
    }

    @Test
    void anUnchangedCandidateChangesNothing() {
        Decisions baseline = baseline();
        ImpactReport report = ImpactAnalysis.run(baseline, baseline(), Probes.sweep(baseline.snapshot().catalog()),
                List.of(), 100, ImpactAnalysis.Progress.NONE);
        assertEquals(0, report.changed());
        assertEquals(0, report.refired());
        assertEquals(List.of(), report.changes());
    }

    @Test
    void replayedRequestsCountOncePerLoggedDecisionAndRefusalsAreCompared() throws Exception {
        List<Probe> probes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            probes.add(Probes.replay(record("d" + i, "implementation",
                    "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\"}}")));
        }
        probes.add(Probes.replay(record("bad", "implementation", "{\"interface\": {\"path\": 7}}")));
        probes.add(Probes.replay(record("gone", "no-such-target", "{}")));
        assertNull(Probes.replay(Documents.jsonMapper().readTree("{\"decisionId\": \"x\", \"endpoint\": \"implementation\"}")),
                "a record without a request is no probe");

        List<String> progress = new ArrayList<>();
        ImpactReport report = ImpactAnalysis.run(baseline(), candidate(DENY_POSTGRES), probes, List.of("line 9: not JSON"), 100,
                (done, total) -> {
                    synchronized (progress) {
                        progress.add(done + "/" + total);
                    }
                });

        assertEquals(5, report.decisions());
        assertEquals(3, report.changed());
        assertEquals(3, progress.size(), "three distinct requests are decided: " + progress);
        ImpactReport.Change change = report.changes().get(0);
        assertEquals(3, change.count());
        assertEquals(List.of("d0", "d1", "d2"), change.subjects());
        assertEquals("replay", change.source());
        assertEquals(new ImpactReport.Tally(5, 3, 0, 0), report.bySource().get("replay"));
        assertEquals(List.of("line 9: not JSON"), report.skipped());
    }

    @Test
    void changesBeyondTheLimitAreCountedNotListed() {
        Decisions baseline = baseline();
        ImpactReport report = ImpactAnalysis.run(baseline, candidate("interface: {rules: []}"),
                Probes.sweep(baseline.snapshot().catalog()), List.of(), 1, ImpactAnalysis.Progress.NONE);
        assertEquals(2, report.changed(), "both Interfaces lose their rule");
        assertEquals(1, report.changes().size());
        assertEquals(1, report.changesOmitted());
        assertThrows(IllegalArgumentException.class, () -> ImpactAnalysis.run(baseline, baseline, List.of(), List.of(), -1,
                ImpactAnalysis.Progress.NONE));
    }

    @Test
    void theJsonReportHasTheIssuesShape() throws Exception {
        Decisions baseline = baseline();
        ImpactReport report = ImpactAnalysis.run(baseline, candidate(DENY_POSTGRES), Probes.sweep(baseline.snapshot().catalog()),
                List.of(), 100, ImpactAnalysis.Progress.NONE);
        JsonNode json = Documents.jsonMapper().readTree(Documents.jsonMapper().writeValueAsBytes(report));
        assertEquals(report.decisions(), json.path("decisions").asInt());
        assertEquals(1, json.path("changed").asInt());
        assertEquals(1, json.path("byKind").path("implementation").path("changed").asInt());
        assertEquals("DENIED", json.path("changes").path(0).path("fields").path("outcome").path("after").asText());
        assertTrue(json.path("changes").path(0).path("test").isMissingNode(), "no test field for a sweep change");
    }

    private static JsonNode record(String id, String endpoint, String request) throws Exception {
        return Documents.jsonMapper().readTree(("{\"decisionId\": \"" + id + "\", \"endpoint\": \"" + endpoint
                + "\", \"request\": " + request + "}").getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void kindsThatReadNothingTheCandidateChangedAreCountedUnaffectedWithoutDeciding() throws Exception {
        Decisions baseline = baseline();
        Decisions candidate = candidate(DENY_POSTGRES);
        List<Probe> probes = List.of(Probes.replay(record("r1", "rollout", "{\"clusters\": 7}")),
                Probes.replay(record("d1", "dependencies", "{}")));

        ImpactReport report = ImpactAnalysis.run(baseline, candidate, probes, List.of(), 100, ImpactAnalysis.Progress.NONE);

        assertEquals(2, report.unaffected(), "a global policy is not read by rollout or dependency decisions: " + report);
        assertEquals(new ImpactReport.Tally(1, 0, 0, 1), report.byKind().get("rollout"));
        assertTrue(ImpactAnalysis.readsNothingChanged(baseline, candidate, "rollout"));
        assertTrue(!ImpactAnalysis.readsNothingChanged(baseline, candidate, "implementation"), "implementation reads the policy");
        assertTrue(!ImpactAnalysis.readsNothingChanged(baseline, candidate, "backend"), "backend reads the policy");
        assertTrue(!ImpactAnalysis.readsNothingChanged(baseline, candidate, "no-such-target"), "an unknown target is refused, not skipped");
    }

    @Test
    void whatIsNotDecidedWithinTheBudgetIsReportedAsNotCompared() {
        Decisions baseline = baseline();
        List<Probe> sweep = Probes.sweep(baseline.snapshot().catalog());

        ImpactReport report = ImpactAnalysis.run(baseline, candidate(DENY_POSTGRES), sweep, List.of(), 100,
                java.time.Duration.ZERO, ImpactAnalysis.Progress.NONE);

        assertEquals(sweep.size(), report.notCompared());
        assertEquals(0, report.decisions());
        assertTrue(report.skipped().get(0).contains("budget of 0 s"), report.skipped().toString());
    }
}
