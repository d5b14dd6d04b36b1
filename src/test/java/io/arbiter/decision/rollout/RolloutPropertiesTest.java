package io.arbiter.decision.rollout;

import io.arbiter.decision.rollout.RolloutFacts.Status;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.document.Documents;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.testing.RuleTestSupport;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Invariants of the rollout decision (issue 8) over random strategies, groups and cluster records: never more
 * clusters in flight than maxConcurrency, mandatory groups complete before others start, nothing new after a
 * breach, a cluster in at most one output list, clusters of groups a group walk has not reached never stop it;
 * and the response covers every group cluster once.
 */
class RolloutPropertiesTest {

    private static final CompiledRuleBase RULES = RuleTestSupport.ruleBase(RolloutDecider.KIND, RolloutDecider.PHASES);
    private static final long NOW = 1_767_226_200L; // 2026-01-01T00:10:00Z
    private static final List<String> STATUSES = List.of("ToApply", "Progressing", "Succeeded", "Failed", "TimeOut", "Skip");

    /** A generated request and what the test needs to know about it. */
    record Case(ObjectNode request, String type, Map<String, Integer> groupOf, Set<Integer> mandatoryGroups,
                Object maxConcurrency, long minSuccessSeconds, Map<String, ObjectNode> records) {
        @Override
        public String toString() {
            return request.toString();
        }
    }

    @Property(tries = 300)
    void neverMoreInFlightThanMaxConcurrency(@ForAll("cases") Case c) {
        RolloutDecision decision = decide(c);
        if (!c.type().equals("Progressive") || !c.mandatoryGroups().isEmpty()) {
            return;
        }
        int clusters = c.groupOf().size();
        int limit = resolve(c.maxConcurrency(), clusters, clusters);
        assertTrue(decision.toRollout().size() <= limit,
                "in flight " + decision.toRollout().size() + " > maxConcurrency " + limit + " for " + c);
    }

    @Property(tries = 300)
    void mandatoryGroupsCompleteBeforeOthersStart(@ForAll("cases") Case c) {
        RolloutDecision decision = decide(c);
        if (c.type().equals("All") || c.mandatoryGroups().isEmpty() || mandatoryInputTimeOut(c)) {
            return;
        }
        boolean otherStarted = decision.toRollout().stream().anyMatch(e -> e.status() == Status.ToApply
                && !c.mandatoryGroups().contains(e.groupIndex()));
        if (!otherStarted) {
            return;
        }
        c.groupOf().forEach((cluster, group) -> {
            if (c.mandatoryGroups().contains(group)) {
                assertTrue(done(c, c.records().get(cluster)),
                        "mandatory cluster " + cluster + " is not done, yet another group started: " + c);
            }
        });
    }

    @Property(tries = 300)
    void nothingNewAfterABreach(@ForAll("cases") Case c) {
        RolloutDecision decision = decide(c);
        if (!decision.maxFailureBreach()) {
            return;
        }
        assertEquals(Status.Failed, decision.aggregatedStatus(), c.toString());
        List<RolloutDecision.ClusterEntry> added = decision.toRollout().stream()
                .filter(e -> e.status() == Status.ToApply).toList();
        if (c.type().equals("Progressive") && !decidedByMandatoryGroups(c, decision)) {
            added.forEach(e -> assertTrue(c.records().containsKey(e.cluster()),
                    "cluster " + e.cluster() + " without a record added after a breach: " + c));
        } else {
            Set<Integer> groups = new HashSet<>();
            added.forEach(e -> groups.add(e.groupIndex()));
            assertTrue(groups.size() <= 1, "a breach, yet clusters of several groups added " + groups + ": " + c);
        }
    }

    @Property(tries = 300)
    void aClusterIsInAtMostOneOutputList(@ForAll("cases") Case c) {
        RolloutDecision decision = decide(c);
        List<String> listed = new ArrayList<>();
        decision.toRollout().forEach(e -> listed.add(e.cluster()));
        decision.timedOut().forEach(e -> listed.add(e.cluster()));
        decision.removed().forEach(e -> listed.add(e.cluster()));
        assertEquals(new HashSet<>(listed).size(), listed.size(), "a cluster listed twice " + listed + ": " + c);
        assertEquals(c.groupOf().keySet(), new HashSet<>(decision.clusterStatuses().stream()
                .map(RolloutDecision.ClusterStatus::cluster).toList()), "clusterStatuses cover the group clusters");
        assertEquals(c.groupOf().size(), decision.clusterStatuses().size(), "each group cluster once");
    }

    /**
     * Difference 4 (issue 25): clusters of groups a group walk has not walked yet never stop it. Cut a
     * ProgressivePerGroup walk (the mandatory groups by index, then the others by index) after some group and put
     * every cluster beyond the cut in flight: what the decision says about the clusters before the cut stays the
     * same. The reference stops at the first finished group whenever anything is in flight, so there the clusters
     * before the cut wait (a group under way starts no late cluster, a failing one reports no breach).
     */
    @Property(tries = 300)
    void clustersOfGroupsNotWalkedYetNeverStopTheWalk(@ForAll("perGroupCases") Case c,
                                                       @ForAll @IntRange(min = 1, max = 6) int cut) {
        List<Integer> walk = new ArrayList<>(new java.util.TreeSet<>(c.mandatoryGroups()));
        new java.util.TreeSet<>(c.groupOf().values()).stream().filter(g -> !c.mandatoryGroups().contains(g)).forEach(walk::add);
        Set<Integer> walked = new HashSet<>(walk.subList(0, Math.min(cut, walk.size())));

        ObjectNode later = c.request().deepCopy();
        ArrayNode records = later.putArray("clusters");
        c.request().path("clusters").forEach(record -> {
            Integer group = c.groupOf().get(record.path("name").asText());
            if (group == null || walked.contains(group)) {
                records.add(record.deepCopy());
            }
        });
        c.groupOf().forEach((cluster, group) -> {
            if (!walked.contains(group)) {
                records.addObject().put("name", cluster).put("status", "Progressing").put("lastTransitionTime", "2026-01-01T00:09:59Z");
            }
        });
        RolloutDecision decision = decide(c);
        RolloutDecision laterInFlight = RolloutDecider.decide(RolloutRequest.parse(later), RULES);
        assertEquals(entriesOf(decision, walked), entriesOf(laterInFlight, walked),
                "groups " + walked + " walked first; then in flight beyond them: " + later + "\noriginal: " + c);
    }

    /** What a decision lists for the clusters of {@code groups}, in order. */
    private static List<String> entriesOf(RolloutDecision decision, Set<Integer> groups) {
        List<String> entries = new ArrayList<>();
        decision.toRollout().stream().filter(e -> groups.contains(e.groupIndex()))
                .forEach(e -> entries.add(e.cluster() + " " + e.status()));
        decision.timedOut().stream().filter(e -> groups.contains(e.groupIndex()))
                .forEach(e -> entries.add(e.cluster() + " timed out"));
        return entries;
    }

    // ---- what the properties need to know independently of the rules ----------------------------------

    /** size(v, total, default) of ocm-rollout.md section 1, with difference 1's clamp. */
    private static int resolve(Object value, int total, int fallback) {
        if (value == null) {
            return fallback;
        }
        int size = value instanceof Integer count ? count
                : (int) Math.ceil(Double.parseDouble(((String) value).replace("%", "")) / 100 * total);
        return size <= 0 ? fallback : Math.min(size, total);
    }

    /** A mandatory cluster is done when its record needs no more watching: Skip, TimeOut, Succeeded and soaked. */
    private static boolean done(Case c, ObjectNode record) {
        if (record == null) {
            return false;
        }
        String status = record.path("status").asText();
        if (status.equals("Skip") || status.equals("TimeOut")) {
            return true;
        }
        if (!status.equals("Succeeded")) {
            return false;
        }
        if (c.minSuccessSeconds() == 0) {
            return true;
        }
        return record.has("lastTransitionTime") && offset(record) + c.minSuccessSeconds() <= 0;
    }

    /**
     * A mandatory cluster recorded as TimeOut breaches its group but leaves the phase's lists empty, so the
     * reference (and Arbiter) go on with the other groups (ocm-rollout.md section 3, scenario 440).
     */
    private static boolean mandatoryInputTimeOut(Case c) {
        return c.groupOf().entrySet().stream().anyMatch(e -> c.mandatoryGroups().contains(e.getValue())
                && c.records().containsKey(e.getKey())
                && c.records().get(e.getKey()).path("status").asText().equals("TimeOut"));
    }

    private static boolean decidedByMandatoryGroups(Case c, RolloutDecision decision) {
        return decision.toRollout().stream().anyMatch(e -> c.mandatoryGroups().contains(e.groupIndex()))
                || decision.timedOut().stream().anyMatch(e -> c.mandatoryGroups().contains(e.groupIndex()));
    }

    private static long offset(ObjectNode record) {
        return java.time.Instant.parse(record.get("lastTransitionTime").asText()).getEpochSecond() - NOW;
    }

    private static RolloutDecision decide(Case c) {
        return RolloutDecider.decide(RolloutRequest.parse(c.request()), RULES);
    }

    // ---- generators ----------------------------------------------------------------------------------

    @Provide
    Arbitrary<Case> cases() {
        return cases(Arbitraries.of("All", "Progressive", "ProgressivePerGroup"));
    }

    @Provide
    Arbitrary<Case> perGroupCases() {
        return cases(Arbitraries.just("ProgressivePerGroup"));
    }

    private static Arbitrary<Case> cases(Arbitrary<String> type) {
        Arbitrary<List<Integer>> groupSizes = Arbitraries.integers().between(0, 5).list().ofMinSize(1).ofMaxSize(5);
        Arbitrary<Object> limit = Arbitraries.oneOf(Arbitraries.just(null), Arbitraries.integers().between(-1, 8).map(i -> (Object) i),
                Arbitraries.integers().between(0, 150).map(p -> (Object) (p + "%")));
        Arbitrary<String> deadline = Arbitraries.of("None", "", "0s", "30s", "90s", "200s");
        Arbitrary<Integer> minSuccess = Arbitraries.of(0, 30, 90);
        Arbitrary<Long> seed = Arbitraries.longs();
        return Combinators.combine(type, groupSizes, limit, limit, deadline, minSuccess, seed)
                .as((t, sizes, maxFailures, maxConcurrency, pd, mst, s) -> build(t, sizes, maxFailures, maxConcurrency, pd, mst, s));
    }

    private static Case build(String type, List<Integer> sizes, Object maxFailures, Object maxConcurrency, String deadline,
                              int minSuccess, long seed) {
        java.util.Random random = new java.util.Random(seed);
        ObjectNode body = Documents.jsonMapper().createObjectNode();
        body.put("remediationAction", random.nextBoolean() ? "enforce" : "inform");
        body.put("now", "2026-01-01T00:10:00Z");
        ObjectNode strategy = body.putObject("strategy").put("type", type);
        String field = switch (type) {
            case "All" -> "all";
            case "Progressive" -> "progressive";
            default -> "progressivePerGroup";
        };
        ObjectNode config = strategy.putObject(field).put("progressDeadline", deadline).put("minSuccessTime", minSuccess + "s");
        put(config, "maxFailures", maxFailures);
        if (type.equals("Progressive")) {
            put(config, "maxConcurrency", maxConcurrency);
        }
        ArrayNode groups = body.putArray("decisionGroups");
        Map<String, Integer> groupOf = new HashMap<>();
        List<Integer> indexes = new ArrayList<>();
        int index = 0;
        int cluster = 0;
        for (int size : sizes) {
            index += 1 + (random.nextInt(4) == 0 ? 1 : 0);
            indexes.add(index);
            ObjectNode group = groups.addObject().put("groupName", random.nextInt(3) == 0 ? "canary" : "g" + index)
                    .put("groupIndex", index);
            ArrayNode names = group.putArray("clusters");
            for (int i = 0; i < size; i++) {
                String name = "c" + (char) ('a' + random.nextInt(26)) + cluster++;
                names.add(name);
                groupOf.put(name, index);
            }
        }
        Set<Integer> mandatory = new HashSet<>();
        if (!type.equals("All") && random.nextBoolean()) {
            ArrayNode entries = config.putArray("mandatoryDecisionGroups");
            if (random.nextBoolean()) {
                entries.addObject().put("groupName", "canary");
                for (int g = 0; g < groups.size(); g++) {
                    if (groups.get(g).path("groupName").asText().equals("canary")) {
                        mandatory.add(groups.get(g).path("groupIndex").asInt());
                    }
                }
            } else {
                int chosen = indexes.get(random.nextInt(indexes.size()));
                entries.addObject().put("groupIndex", chosen);
                mandatory.add(chosen);
            }
        }
        ArrayNode clusters = body.putArray("clusters");
        Map<String, ObjectNode> records = new HashMap<>();
        List<String> names = new ArrayList<>(groupOf.keySet());
        names.add("stray-" + random.nextInt(3));
        for (String name : names) {
            if (random.nextInt(3) == 0) {
                continue;
            }
            ObjectNode record = clusters.addObject().put("name", name).put("status", STATUSES.get(random.nextInt(STATUSES.size())));
            if (random.nextInt(5) != 0) {
                record.put("lastTransitionTime", java.time.Instant.ofEpochSecond(NOW - random.nextInt(301)).toString());
            }
            records.put(name, record);
        }
        return new Case(body, type, groupOf, mandatory, maxConcurrency, minSuccess, records);
    }

    private static void put(ObjectNode config, String field, Object value) {
        if (value instanceof Integer count) {
            config.put(field, count);
        } else if (value instanceof String text) {
            config.put(field, text);
        }
    }
}
