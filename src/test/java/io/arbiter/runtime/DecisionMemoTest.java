package io.arbiter.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.audit.Audit;
import io.arbiter.audit.DecisionRecord;
import io.arbiter.decision.implementation.ImplementationPolicyType;
import io.arbiter.document.Documents;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.engine.RuleBaseBuilder;
import io.arbiter.policytype.Decision;
import io.arbiter.policytype.DecisionCall;
import io.arbiter.policytype.PolicyType;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.policytype.PolicyTypeVersion;
import io.arbiter.policytype.RuleSet;
import io.arbiter.policytype.Target;
import io.arbiter.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A repeated request is answered from the runtime's memo exactly as it was decided, but for its decision id. */
class DecisionMemoTest {

    private static final byte[] ACTION = """
            {"interface": {"path": "cap.interface.database.postgresql.install", "revision": "0.1.0"},
             "actionPolicy": {"interface": {"rules": [{"interface": {"path": "cap.interface.database.postgresql.install"},
               "oneOf": [{"implementationConstraints": {"path": "cap.implementation.bitnami.postgresql.install"}}]}]}}}
            """.getBytes(StandardCharsets.UTF_8);

    @Test
    void aRepeatedRequestHasTheSameResponseAndRecordButItsOwnId() {
        Audit audit = Audit.inMemory();
        Decisions decisions = new Decisions(PolicyTypeRegistry.discover(), Fixtures.snapshot(Fixtures.embeddedPolicy()), audit);

        ObjectNode first = decisions.decide("implementation", ACTION, "application/json");
        ObjectNode second = decisions.decide("implementation", ACTION, "application/json");

        assertNotEquals(first.path("decisionId"), second.path("decisionId"));
        assertEquals("SELECTED", first.path("outcome").asText());
        assertEquals(withoutId(first), withoutId(second));
        List<DecisionRecord> records = audit.recentDecisions();
        assertEquals(2, records.size());
        assertEquals(comparable(records.get(0)), comparable(records.get(1)));
        assertEquals(second.path("decisionId"), record(records.get(1)).path("result").path("decisionId"));
        assertTrue(audit.metrics().scrape().contains("arbiter_decision_memo_hits 1.0"), audit.metrics().scrape());
    }

    @Test
    void aRepeatedRequestIsTakenFromTheMemoWithoutDecidingOnlyOnceItWasDecidedAndWhenItsRecordNeedNotBeAwaited(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        Audit audit = Audit.inMemory();
        Decisions decisions = new Decisions(PolicyTypeRegistry.discover(), Fixtures.snapshot(Fixtures.embeddedPolicy()), audit);
        assertTrue(decisions.decideIfMemoised("implementation", ACTION, "application/json").isEmpty());
        assertTrue(audit.recentDecisions().isEmpty(), "nothing is recorded for a request the memo does not hold");

        ObjectNode decided = decisions.decide("implementation", ACTION, "application/json");
        ObjectNode memoised = decisions.decideIfMemoised("implementation", ACTION, "application/json").orElseThrow().response();

        assertEquals(withoutId(decided), withoutId(memoised));
        assertNotEquals(decided.path("decisionId"), memoised.path("decisionId"));
        List<DecisionRecord> records = audit.recentDecisions();
        assertEquals(2, records.size());
        assertEquals(comparable(records.get(0)), comparable(records.get(1)));
        assertTrue(decisions.decideIfMemoised("implementation", ACTION, "application/json; charset=utf-8").isEmpty());

        Audit required = new Audit(new io.arbiter.audit.FileDecisionLog(dir.resolve("decisions.log"), 1 << 20, 1, 16,
                io.arbiter.audit.DecisionLog.Mode.REQUIRED), new io.arbiter.audit.RecentDecisions(10),
                new io.arbiter.audit.Metrics(), false);
        try {
            Decisions awaiting = new Decisions(PolicyTypeRegistry.discover(), Fixtures.snapshot(Fixtures.embeddedPolicy()), required);
            awaiting.decide("implementation", ACTION, "application/json");
            assertTrue(awaiting.decideIfMemoised("implementation", ACTION, "application/json").isEmpty(),
                    "a REQUIRED log's record is awaited, which a thread that must not block cannot do");
        } finally {
            required.close();
        }
    }

    @Test
    void aRepeatWhoseRecordMustBeSummarisedIsLeftToAWorker() {
        Audit audit = Audit.inMemory();
        Decisions decisions = new Decisions(PolicyTypeRegistry.discover(), Fixtures.snapshot(Fixtures.embeddedPolicy()), audit);
        StringBuilder typeRefs = new StringBuilder();
        for (int i = 0; i < 70; i++) {
            typeRefs.append(i == 0 ? "" : ",").append("{\"path\": \"cap.type.example.t").append(i).append("\", \"revision\": \"0.1.0\"}");
        }
        byte[] body = ("{\"typeRefs\": [" + typeRefs + "]}").getBytes(StandardCharsets.UTF_8);

        byte[] first = decisions.decideEncoded("backend", body, "application/json").json();
        assertTrue(first.length > io.arbiter.audit.DecisionRecord.MAX_BYTES, "the response is larger than a record: " + first.length);
        assertTrue(decisions.decideIfMemoised("backend", body, "application/json").isEmpty());
        decisions.decideEncoded("backend", body, "application/json");
        assertTrue(audit.metrics().scrape().contains("arbiter_decision_memo_hits 1.0"), "the worker takes it from the memo");
    }

    @Test
    void aDecisionIsNotAnsweredFromTheMemoUnderAnotherSnapshot() {
        Decisions decisions = new Decisions(PolicyTypeRegistry.discover(), Fixtures.snapshot(Fixtures.embeddedPolicy()));
        byte[] interfaceOnly = "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\"}}"
                .getBytes(StandardCharsets.UTF_8);
        assertEquals("SELECTED", decisions.decide("implementation", interfaceOnly, "application/json").path("outcome").asText());

        decisions.swap(Fixtures.snapshot(Fixtures.policy("""
                interface:
                  rules:
                    - interface: {path: cap.interface.database.postgresql.install}
                      oneOf: []
                """)));

        assertEquals("DENIED", decisions.decide("implementation", interfaceOnly, "application/json").path("outcome").asText());
    }

    @Test
    void onlyTypesThatDecideFromTheRequestAndSnapshotAloneAreMemoised() {
        for (boolean alone : new boolean[]{true, false}) {
            Counting type = new Counting(alone);
            Decisions decisions = new Decisions(new PolicyTypeRegistry(List.of(type)), Fixtures.snapshot(Fixtures.embeddedPolicy()));
            decisions.decide("implementation", ACTION, "application/json");
            decisions.decide("implementation", ACTION, "application/json");
            decisions.decide("implementation", ACTION, "application/json; charset=utf-8");
            assertEquals(alone ? 2 : 3, type.decided.get(), "decided from the request and snapshot alone: " + alone);
        }
    }

    @Test
    void theMemoKeepsTheMostRecentlyUsedWithinItsBytesAndNoEntryLargerThanItsBound() {
        DecisionMemo memo = new DecisionMemo(10_000);
        Decisions.Finished small = finished(1_500); // about 3 KB held
        DecisionMemo.Key first = key("1");
        memo.put(first, small);
        memo.put(key("2"), small);
        memo.get(first); // used more recently than "2"
        memo.put(key("3"), small);
        memo.put(key("4"), small); // a fourth entry of ~3 KB is one too many for 10,000 bytes

        assertEquals(small, memo.get(first));
        assertEquals(null, memo.get(key("2")));
        assertEquals(small, memo.get(key("4")));
        assertTrue(memo.heldBytes() <= 10_000, memo.heldBytes() + " bytes held");

        memo.put(key("large"), finished(DecisionMemo.MAX_ENTRY_BYTES));
        assertEquals(null, memo.get(key("large")));
    }

    private static DecisionMemo.Key key(String body) {
        return DecisionMemo.Key.of("s-1", "implementation", "application/json", body.getBytes(StandardCharsets.UTF_8));
    }

    private static Decisions.Finished finished(int envelopeBytes) {
        return new Decisions.Finished(new Envelope.Encoded(new byte[envelopeBytes]), "SELECTED", "p", List.of(),
                new Audit.Logged("sha256:0", 2, new byte[2], false, new byte[2]), io.arbiter.policytype.Masks.NONE);
    }

    /** The implementation type, counting its decisions, saying whether it decides from the request and snapshot alone. */
    private static final class Counting implements PolicyType {
        private final PolicyType type = new ImplementationPolicyType();
        private final boolean alone;
        final AtomicInteger decided = new AtomicInteger();

        Counting(boolean alone) {
            this.alone = alone;
        }

        @Override public String name() { return type.name(); }
        @Override public String description() { return type.description(); }
        @Override public List<PolicyTypeVersion> versions() { return type.versions(); }
        @Override public List<Target> targets() { return type.targets(); }
        @Override public RuleSet ruleSet() { return type.ruleSet(); }
        @Override public CompiledRuleBase buildRuleBase(List<RuleBaseBuilder.RuleFile> files) { return type.buildRuleBase(files); }
        @Override public boolean decidesFromRequestAndSnapshot() { return alone; }

        @Override
        public Decision decide(DecisionCall call) {
            decided.incrementAndGet();
            return type.decide(call);
        }
    }

    private static JsonNode withoutId(ObjectNode response) {
        ObjectNode copy = response.deepCopy();
        copy.remove("decisionId");
        return copy;
    }

    private static JsonNode comparable(DecisionRecord record) {
        ObjectNode line = record(record);
        line.remove(List.of("decisionId", "timestamp", "durationMicros"));
        ((ObjectNode) line.path("result")).remove("decisionId");
        return line;
    }

    private static ObjectNode record(DecisionRecord record) {
        try {
            return (ObjectNode) Documents.jsonMapper().readTree(Optional.of(record.json()).get());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }
}
