package io.arbiter.decision.implementation;

import io.arbiter.catalog.Catalog;
import io.arbiter.catalog.ManifestLoader;
import io.arbiter.runtime.Decisions;
import io.arbiter.decision.Snapshot;
import io.arbiter.decision.SnapshotFirings;
import io.arbiter.engine.FiredRule;
import io.arbiter.model.Ref;
import io.arbiter.testing.Fixtures;
import io.arbiter.testing.RuleTestSupport;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A request that carries only an Interface gets the decision the snapshot's rules derived for it once: it must be
 * the decision a request-time run of every phase makes, and reference the firings that run would have produced.
 */
class DerivedDecisionsTest {

    private static final String POSTGRES = "cap.interface.database.postgresql.install";

    @Test
    void everyInterfaceOfTheEmbeddedDefaultIsDecidedAsAtRequestTime() {
        assertDerivedEqualsRequestTime(Fixtures.snapshot(Fixtures.embeddedPolicy()), 2);
    }

    @Test
    void everyInterfaceOfTheHubManifestsIsDecidedAsAtRequestTime() {
        Catalog hub = ManifestLoader.load(Fixtures.requireHubManifests()).catalog();
        assertDerivedEqualsRequestTime(Fixtures.snapshot(Fixtures.embeddedPolicy(), hub, Fixtures.embeddedStore()), 20);
    }

    private static void assertDerivedEqualsRequestTime(Snapshot snapshot, int atLeast) {
        List<Ref> interfaces = interfaceRevisions(snapshot.catalog());
        assertTrue(interfaces.size() >= atLeast, "Interface revisions: " + interfaces);
        SnapshotFirings firings = snapshot.firings(); // nothing derived yet
        assertTrue(firings.firings().isEmpty(), firings.firings().keySet().toString());
        for (Ref ref : interfaces) {
            ImplementationRequest request = ImplementationRequest.forInterface(ref);
            ImplementationDecision derived;
            ImplementationDecision full;
            try {
                full = ImplementationDecider.decideAtRequestTime(request, snapshot);
            } catch (io.arbiter.decision.DecisionException refused) {
                io.arbiter.decision.DecisionException derivedRefusal = org.junit.jupiter.api.Assertions.assertThrows(
                        io.arbiter.decision.DecisionException.class, () -> ImplementationDecider.decide(request, snapshot));
                assertEquals(refused.problems(), derivedRefusal.problems(), ref.toString());
                continue;
            }
            derived = ImplementationDecider.decide(request, snapshot);
            assertEquals(full.outcome(), derived.outcome(), ref.toString());
            assertEquals(full.interfaceRef(), derived.interfaceRef(), ref.toString());
            assertEquals(full.rule(), derived.rule(), ref.toString());
            assertEquals(full.candidates(), derived.candidates(), ref.toString());
            assertEquals(full.selected(), derived.selected(), ref.toString());
            assertEquals(full.inject(), derived.inject(), ref.toString());
            assertEquals(full.backends(), derived.backends(), ref.toString());
            assertNotEquals(full.decisionId(), derived.decisionId());

            assertNull(full.snapshotFirings());
            assertEquals(List.of(), derived.firedRules(), ref + ": nothing fires at request time");
            SnapshotFirings.Reference reference = derived.snapshotFirings();
            assertEquals(snapshot.revision(), reference.revision());
            assertEquals(snapshot.revision(), derived.snapshotRevision());
            assertEquals(ref.toString(), reference.key());
            List<FiredRule> recorded = snapshot.firings().firings().get(reference.key());
            assertEquals(reference.count(), recorded.size(), ref.toString());
            assertEquals(sorted(full.firedRules()), sorted(recorded), ref + ": the referenced firings are the full run's");
        }
    }

    /** Firings compared by rule and facts: independent firings within a phase may come in another order. */
    private static List<String> sorted(List<FiredRule> firings) {
        return firings.stream().map(f -> f.rule() + " " + f.facts()).sorted().toList();
    }

    private static List<Ref> interfaceRevisions(Catalog catalog) {
        Set<Ref> known = new LinkedHashSet<>(catalog.interfaces());
        catalog.implementations().forEach(implementation -> known.addAll(implementation.implementsRefs()));
        return known.stream().filter(ref -> ref.revision() != null)
                .sorted(Comparator.comparing(Ref::toString)).toList();
    }

    @Test
    void anUnrevisionedRequestGetsTheDecisionOfTheHighestRevision() {
        Snapshot snapshot = Fixtures.snapshot(Fixtures.embeddedPolicy());
        String highest = snapshot.catalog().highestInterfaceRevision(POSTGRES).orElseThrow();

        ImplementationDecision decision = ImplementationDecider.decide(ImplementationRequest.forInterface(new Ref(POSTGRES, null)), snapshot);

        assertEquals(new Ref(POSTGRES, highest), decision.interfaceRef());
        assertEquals(POSTGRES + ":" + highest, decision.snapshotFirings().key());
    }

    @Test
    void theSnapshotDecisionRecordsItsTrialsAndAnExplanationIsMadeAtRequestTime() {
        Snapshot snapshot = Fixtures.snapshot(Fixtures.embeddedPolicy());
        Ref postgres = new Ref(POSTGRES, "0.1.0");

        ImplementationDecider.decide(ImplementationRequest.forInterface(postgres), snapshot);
        List<FiredRule> withSnapshot = snapshot.firings().firings().get(postgres.toString());
        ImplementationDecision explained = ImplementationDecider.decide(
                new ImplementationRequest(postgres, null, List.of(), null, null, true), snapshot);

        RuleTestSupport.assertFired(withSnapshot, "Global policy");
        RuleTestSupport.assertFired(withSnapshot, "Outcome SELECTED when a oneOf item won");
        RuleTestSupport.assertFired(withSnapshot, "A Hub storage injected for an aliased requirement is that alias's backend");
        RuleTestSupport.assertFired(withSnapshot, "Implementation of the Interface is tried for each oneOf item");
        assertNull(explained.snapshotFirings(), "an explanation is made at request time");
        RuleTestSupport.assertFired(explained.firedRules(), "Implementation of the Interface is tried for each oneOf item");
        RuleTestSupport.assertFired(explained.firedRules(), "Outcome SELECTED when a oneOf item won");
    }

    @Test
    void aRequestCarryingAPolicyIsDecidedAtRequestTime() {
        Snapshot snapshot = Fixtures.snapshot(Fixtures.embeddedPolicy());
        ImplementationDecision decision = ImplementationDecider.decide(new ImplementationRequest(new Ref(POSTGRES, "0.1.0"),
                Fixtures.policy("interface: {rules: [{interface: {path: " + POSTGRES + "}, oneOf: []}]}").policy(),
                List.of(), null, null, false), snapshot);

        assertEquals(ImplementationFacts.Outcome.DENIED, decision.outcome());
        assertNull(decision.snapshotFirings());
        RuleTestSupport.assertFired(decision.firedRules(), "Outcome DENIED when the applicable rule has an empty oneOf");
    }

    /**
     * A policy replacement derives the new snapshot's decisions before it swaps: every decision made meanwhile comes
     * whole from one snapshot (its revision and its outcome agree), and the replaced snapshot's firings stay
     * resolvable for the {@value Decisions#RETIRED_SNAPSHOTS} replacements that follow.
     */
    @Test
    void aReplacementSwapsTheDerivedDecisionsAtomically() throws Exception {
        String denying = "interface: {rules: [{interface: {path: cap.*}, oneOf: []}]}";
        String selecting = "interface: {rules: [{interface: {path: cap.*}, oneOf: [{implementationConstraints: {}}]}]}";
        Decisions decisions = Fixtures.decisions(Fixtures.snapshot(Fixtures.policy(selecting)));
        byte[] request = ("{\"interface\": {\"path\": \"" + POSTGRES + "\", \"revision\": \"0.1.0\"}}").getBytes(StandardCharsets.UTF_8);
        String first = decisions.decide("implementation", request, "application/json").path("snapshotRevision").asText();

        Map<String, Set<String>> outcomesByRevision = new ConcurrentHashMap<>();
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread decider = new Thread(() -> {
            try {
                while (!done.get()) {
                    var decision = decisions.decide("implementation", request, "application/json");
                    outcomesByRevision.computeIfAbsent(decision.path("snapshotRevision").asText(), r -> ConcurrentHashMap.newKeySet())
                            .add(decision.path("outcome").asText());
                }
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        decider.start();
        List<String> revisions = new ArrayList<>(List.of(first));
        for (int i = 0; i < 4; i++) {
            String yaml = i % 2 == 0 ? denying : selecting;
            decisions.replacePolicy(yaml.getBytes(StandardCharsets.UTF_8), "application/yaml", java.util.Optional.empty());
            revisions.add(decisions.snapshot().revision());
        }
        done.set(true);
        decider.join(60_000);
        assertNull(failure.get());

        assertEquals(2, Set.copyOf(revisions).size(), "two policies, two snapshot revisions: " + revisions);
        outcomesByRevision.forEach((revision, outcomes) -> assertEquals(1, outcomes.size(),
                "decisions of snapshot " + revision + " all come from it: " + outcomes));
        String denied = revisions.get(1);
        assertFalse(outcomesByRevision.getOrDefault(first, Set.of()).contains("DENIED"), outcomesByRevision.toString());
        assertTrue(Set.of("DENIED").equals(outcomesByRevision.getOrDefault(denied, Set.of("DENIED"))), outcomesByRevision.toString());
        assertTrue(decisions.snapshotFirings(denied).isPresent());
        assertTrue(decisions.snapshotFirings(first).orElseThrow().firings().containsKey(POSTGRES + ":0.1.0"));
        RuleTestSupport.assertFired(decisions.snapshotFirings(denied).orElseThrow().firings().get(POSTGRES + ":0.1.0"),
                "Outcome DENIED when the applicable rule has an empty oneOf");
    }

    @Test
    void onlyTheLastReplacedSnapshotsKeepTheirFirings() {
        Decisions decisions = Fixtures.decisions(Fixtures.snapshot(Fixtures.embeddedPolicy()));
        String first = decisions.snapshot().revision();
        for (int i = 0; i <= Decisions.RETIRED_SNAPSHOTS; i++) {
            String yaml = "interface: {rules: [{interface: {path: cap.interface.x" + i + "}, oneOf: []}]}";
            decisions.replacePolicy(yaml.getBytes(StandardCharsets.UTF_8), "application/yaml", java.util.Optional.empty());
            if (i < Decisions.RETIRED_SNAPSHOTS) {
                assertTrue(decisions.snapshotFirings(first).isPresent(), "after " + (i + 1) + " replacements");
            }
        }
        assertFalse(decisions.snapshotFirings(first).isPresent());
        assertTrue(decisions.snapshotFirings(decisions.snapshot().revision()).isPresent());
    }
}
