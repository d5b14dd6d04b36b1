package io.arbiter.decision.implementation;

import io.arbiter.decision.merge.PolicyMergeFacts.*;

import io.arbiter.decision.implementation.ImplementationFacts.Absorbed;
import io.arbiter.decision.merge.PolicyMergeFacts.ConfiguredRank;
import io.arbiter.decision.merge.PolicyMergeFacts.DefaultRank;
import io.arbiter.decision.implementation.ImplementationFacts.InjectedTypeInstance;
import io.arbiter.decision.implementation.ImplementationFacts.InjectionSource;
import io.arbiter.decision.implementation.ImplementationFacts.InterfaceQuery;
import io.arbiter.decision.implementation.ImplementationFacts.MergedOwner;
import io.arbiter.decision.implementation.ImplementationFacts.OneOfItem;
import io.arbiter.decision.implementation.ImplementationFacts.PolicyRule;
import io.arbiter.decision.merge.PolicyMergeFacts.PolicySource;
import io.arbiter.decision.implementation.ImplementationFacts.Priority;
import io.arbiter.decision.implementation.ImplementationFacts.RankedItem;
import io.arbiter.decision.implementation.ImplementationFacts.SourceItem;
import io.arbiter.decision.merge.PolicyMergeFacts.SourceKind;
import io.arbiter.decision.merge.PolicyMergeFacts.SourceRank;
import io.arbiter.decision.implementation.ImplementationFacts.SourceRule;
import io.arbiter.decision.implementation.ImplementationFacts.SurvivingItem;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.engine.FiredRule;
import io.arbiter.model.Ref;
import io.arbiter.policy.Policy.ImplementationConstraints;
import io.arbiter.testing.RuleTestSupport;
import org.junit.jupiter.api.Test;
import org.kie.api.runtime.KieSession;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static io.arbiter.decision.implementation.Facts.GCP_SA;
import static io.arbiter.decision.implementation.Facts.K8S;
import static io.arbiter.decision.implementation.Facts.POSTGRES;
import static io.arbiter.decision.implementation.Facts.actionPolicy;
import static io.arbiter.decision.implementation.Facts.constraints;
import static io.arbiter.decision.implementation.Facts.defaultRequired;
import static io.arbiter.decision.implementation.Facts.globalPolicy;
import static io.arbiter.decision.implementation.Facts.required;
import static io.arbiter.decision.implementation.Facts.sourceItem;
import static io.arbiter.decision.implementation.Facts.sourceRule;
import static io.arbiter.decision.implementation.Facts.workflowPolicy;
import static io.arbiter.testing.RuleTestSupport.assertFired;
import static io.arbiter.testing.RuleTestSupport.assertFiredBefore;
import static io.arbiter.testing.RuleTestSupport.assertFiredTimes;
import static io.arbiter.testing.RuleTestSupport.assertNotFired;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Merging Action, Global and Workflow-step policies (rules/implementation/05-merge.drl and
 * decision-tables/implementation/policy-merge-order.drl.csv; policy-syntax section 5).
 */
class MergeRulesTest {

    private static final String ROW_ACTION = "Action policy";
    private static final String ROW_GLOBAL = "Global policy";
    private static final String ROW_WORKFLOW = "Workflow-step policy";
    private static final String CONFIGURED_RANK = "Configured policy order ranks a policy";
    private static final String TABLE_RANK = "Merge-order table ranks a policy when no order is configured";
    private static final String PLACED = "A oneOf item is placed by its policy's rank, then its position";
    private static final String ABSORBED = "An item with the same constraints as a higher policy's item is merged into the highest";
    private static final String SURVIVES = "An item not merged into another stays in the merged list";
    private static final String MERGED_OWNER = "A merged item injects what the items merged into it inject";
    private static final String JOINED = "Rules for the same Interface key join into one merged rule";
    private static final String INDEXED = "A surviving item takes its place in the merged oneOf list";
    private static final String ITEM_INJECT = "A resolved TypeInstance of an item is injected into the merged item";
    private static final String DEFAULT_INJECT = "A resolved default TypeInstance is injected into every item";

    private static final Ref ANY_INTERFACE = new Ref("cap.*", null);
    private static final ImplementationConstraints BITNAMI = constraints("cap.implementation.bitnami.postgresql.install");
    private static final ImplementationConstraints CLOUDSQL = constraints("cap.implementation.gcp.cloudsql.postgresql.install");

    private final CompiledRuleBase ruleBase = RuleTestSupport.ruleBase(ImplementationDecider.KIND, ImplementationDecider.PHASES);

    /** What the merge derived, read from working memory. */
    private record Merged(Map<String, Rank> ranks, List<RankedItem> ranked, List<Absorbed> absorbed,
                          Set<MergedOwner> owners, List<SurvivingItem> survivors, List<PolicyRule> rules,
                          List<OneOfItem> items, List<InjectedTypeInstance> injected, List<DefaultRank> defaultRanks,
                          List<FiredRule> fired) {

        /** The merged oneOf list of a rule key, by index: the ids of the source items. */
        List<String> oneOf(String ruleKey) {
            return items.stream().filter(item -> item.ruleId().equals(ruleKey))
                    .sorted(Comparator.comparingInt(OneOfItem::index)).map(OneOfItem::id).toList();
        }

        /** Source ids, highest policy first. */
        List<String> sourceOrder() {
            return ranks.entrySet().stream().sorted(Map.Entry.comparingByValue()).map(Map.Entry::getKey).toList();
        }
    }

    private Merged merge(List<Object> facts) {
        List<Object> all = new ArrayList<>(facts);
        all.add(new InterfaceQuery(POSTGRES));
        var run = ruleBase.run(all, ImplementationDecider.PHASES, session -> new Merged(
                objects(session, SourceRank.class).stream().collect(Collectors.toMap(SourceRank::sourceId, SourceRank::rank)),
                objects(session, RankedItem.class),
                objects(session, Absorbed.class),
                Set.copyOf(objects(session, MergedOwner.class)),
                objects(session, SurvivingItem.class),
                objects(session, PolicyRule.class),
                objects(session, OneOfItem.class),
                objects(session, InjectedTypeInstance.class),
                objects(session, DefaultRank.class),
                null));
        Merged m = run.result();
        return new Merged(m.ranks(), m.ranked(), m.absorbed(), m.owners(), m.survivors(), m.rules(), m.items(),
                m.injected(), m.defaultRanks(), run.firedRules());
    }

    private static <T> List<T> objects(KieSession session, Class<T> type) {
        return session.getObjects(type::isInstance).stream().map(type::cast).toList();
    }

    // ---- merge order ----

    @Test
    void mergeOrderTableRanksActionThenGlobalThenWorkflowSteps() {
        PolicySource action = actionPolicy();
        PolicySource global = globalPolicy();
        PolicySource firstStep = workflowPolicy(0);
        PolicySource secondStep = workflowPolicy(1);

        Merged merged = merge(List.of(secondStep, global, firstStep, action));

        assertFiredTimes(merged.fired(), ROW_ACTION, 1);
        assertFiredTimes(merged.fired(), ROW_GLOBAL, 1);
        assertFiredTimes(merged.fired(), ROW_WORKFLOW, 1);
        assertFiredTimes(merged.fired(), TABLE_RANK, 4);
        assertNotFired(merged.fired(), CONFIGURED_RANK);
        assertFiredBefore(merged.fired(), ROW_ACTION, TABLE_RANK);
        assertEquals(Set.of(new DefaultRank(SourceKind.ACTION, 1), new DefaultRank(SourceKind.GLOBAL, 2),
                new DefaultRank(SourceKind.WORKFLOW, 3)), Set.copyOf(merged.defaultRanks()));
        assertEquals(List.of("actionPolicy", "global", "workflowPolicies[0]", "workflowPolicies[1]"), merged.sourceOrder());
        assertEquals(Map.of("actionPolicy", new Rank(1, 0), "global", new Rank(2, 0), "workflowPolicies[0]", new Rank(3, 0),
                        "workflowPolicies[1]", new Rank(3, 1)),
                merged.ranks());
    }

    @Test
    void mergeOrderTableRowFiresOnlyForKindsThatTakePart() {
        Merged merged = merge(List.of(globalPolicy()));

        assertFiredTimes(merged.fired(), ROW_GLOBAL, 1);
        assertNotFired(merged.fired(), ROW_ACTION);
        assertNotFired(merged.fired(), ROW_WORKFLOW);
        assertFiredTimes(merged.fired(), TABLE_RANK, 1);
        assertEquals(Map.of("global", new Rank(2, 0)), merged.ranks());
    }

    @Test
    void configuredPolicyOrderReplacesTheTable() {
        List<Object> facts = List.of(actionPolicy(), globalPolicy(), workflowPolicy(0), workflowPolicy(1),
                new ConfiguredRank(SourceKind.WORKFLOW, 1), new ConfiguredRank(SourceKind.ACTION, 2),
                new ConfiguredRank(SourceKind.GLOBAL, 3));

        Merged merged = merge(facts);

        assertFiredTimes(merged.fired(), CONFIGURED_RANK, 4);
        assertNotFired(merged.fired(), TABLE_RANK);
        assertEquals(List.of("workflowPolicies[0]", "workflowPolicies[1]", "actionPolicy", "global"), merged.sourceOrder());
        assertEquals(Map.of("workflowPolicies[0]", new Rank(1, 0), "workflowPolicies[1]", new Rank(1, 1),
                        "actionPolicy", new Rank(2, 0), "global", new Rank(3, 0)),
                merged.ranks());
    }

    // ---- items ----

    @Test
    void itemsArePlacedByPolicyRankThenPosition() {
        PolicySource action = actionPolicy();
        PolicySource global = globalPolicy();
        SourceRule actionRule = sourceRule(action, 0, POSTGRES);
        SourceRule globalRule = sourceRule(global, 0, POSTGRES);
        SourceItem global0 = sourceItem(globalRule, 0, BITNAMI);
        SourceItem action0 = sourceItem(actionRule, 0, CLOUDSQL);
        SourceItem action1 = sourceItem(actionRule, 1, ImplementationConstraints.ANY);

        Merged merged = merge(List.of(global, action, globalRule, actionRule, global0, action0, action1));

        assertFiredTimes(merged.fired(), PLACED, 3);
        Map<String, Priority> priorities = merged.ranked().stream()
                .collect(Collectors.toMap(ranked -> ranked.item().id(), RankedItem::priority));
        assertEquals(Map.of(action0.id(), new Priority(new Rank(1, 0), 0), action1.id(), new Priority(new Rank(1, 0), 1),
                global0.id(), new Priority(new Rank(2, 0), 0)), priorities);
        assertNotFired(merged.fired(), ABSORBED);
        assertFiredTimes(merged.fired(), SURVIVES, 3);
        assertNotFired(merged.fired(), MERGED_OWNER);
    }

    @Test
    void equalItemsOfDifferentPoliciesMergeIntoTheHighest() {
        PolicySource action = actionPolicy();
        PolicySource global = globalPolicy();
        PolicySource step = workflowPolicy(0);
        SourceRule actionRule = sourceRule(action, 0, POSTGRES);
        SourceRule globalRule = sourceRule(global, 0, POSTGRES);
        SourceRule stepRule = sourceRule(step, 0, POSTGRES);
        SourceItem actionItem = sourceItem(actionRule, 0, BITNAMI);
        SourceItem globalItem = sourceItem(globalRule, 0, constraints(BITNAMI.path()));
        SourceItem stepItem = sourceItem(stepRule, 0, constraints(BITNAMI.path()));
        SourceItem globalOther = sourceItem(globalRule, 1, CLOUDSQL);

        Merged merged = merge(List.of(action, global, step, actionRule, globalRule, stepRule,
                actionItem, globalItem, stepItem, globalOther));

        assertFiredTimes(merged.fired(), ABSORBED, 2);
        // Into the highest: the Workflow-step item merges into the Action item, not into the Global one.
        assertEquals(Set.of(new Absorbed(globalItem, actionItem), new Absorbed(stepItem, actionItem)),
                Set.copyOf(merged.absorbed()));
        assertFiredTimes(merged.fired(), SURVIVES, 2);
        assertEquals(Set.of(actionItem.id(), globalOther.id()),
                merged.survivors().stream().map(s -> s.item().id()).collect(Collectors.toSet()));
        assertFiredTimes(merged.fired(), MERGED_OWNER, 2);
        assertEquals(Set.of(new MergedOwner(actionItem.id(), actionItem.id()), new MergedOwner(globalOther.id(), globalOther.id()),
                new MergedOwner(globalItem.id(), actionItem.id()), new MergedOwner(stepItem.id(), actionItem.id())),
                merged.owners());
        assertFiredBefore(merged.fired(), ABSORBED, SURVIVES);
    }

    /**
     * A policy's rank and an item's position are compared apart: a position of 1,000 or more does not reach into
     * the next policy's rank (a packed {@code rank * 1000 + index} made the first step's item 1000 tie with the
     * second step's item 0, and its item 1001 come after it).
     */
    @Test
    void aLongOneOfListDoesNotReachIntoTheNextPolicysRank() {
        PolicySource firstStep = workflowPolicy(0);
        PolicySource secondStep = workflowPolicy(1);
        SourceRule firstRule = sourceRule(firstStep, 0, POSTGRES);
        SourceRule secondRule = sourceRule(secondStep, 0, POSTGRES);
        SourceItem first1000 = sourceItem(firstRule, 1000, BITNAMI);
        SourceItem first1001 = sourceItem(firstRule, 1001, CLOUDSQL);
        SourceItem second0 = sourceItem(secondRule, 0, constraints(BITNAMI.path()));
        SourceItem second1 = sourceItem(secondRule, 1, ImplementationConstraints.ANY);

        Merged merged = merge(List.of(firstStep, secondStep, firstRule, secondRule, first1000, first1001, second0, second1));

        assertEquals(List.of(new Absorbed(second0, first1000)), merged.absorbed());
        assertEquals(List.of(first1000.id(), first1001.id(), second1.id()), merged.oneOf(POSTGRES.toString()));
    }

    @Test
    void equalItemsWithinOnePolicyStayTwoItems() {
        PolicySource global = globalPolicy();
        SourceRule rule = sourceRule(global, 0, POSTGRES);
        SourceItem first = sourceItem(rule, 0, BITNAMI);
        SourceItem second = sourceItem(rule, 1, constraints(BITNAMI.path()));

        Merged merged = merge(List.of(global, rule, first, second));

        assertNotFired(merged.fired(), ABSORBED);
        assertNotFired(merged.fired(), MERGED_OWNER);
        assertFiredTimes(merged.fired(), SURVIVES, 2);
        assertEquals(List.of(first.id(), second.id()), merged.oneOf(POSTGRES.toString()));
        assertEquals(2, merged.rules().get(0).oneOfCount());
    }

    // ---- the merged rules and their oneOf lists ----

    @Test
    void rulesForOneKeyJoinIntoOneMergedRuleWithTheHigherPolicysItemsFirst() {
        PolicySource action = actionPolicy();
        PolicySource global = globalPolicy();
        SourceRule actionRule = sourceRule(action, 0, POSTGRES);
        SourceRule globalRule = sourceRule(global, 0, POSTGRES);
        SourceRule catchAll = sourceRule(global, 1, ANY_INTERFACE);
        SourceItem global0 = sourceItem(globalRule, 0, BITNAMI);
        SourceItem global1 = sourceItem(globalRule, 1, ImplementationConstraints.ANY);
        SourceItem action0 = sourceItem(actionRule, 0, CLOUDSQL);
        SourceItem action1 = sourceItem(actionRule, 1, constraints(BITNAMI.path()));
        SourceItem catchAll0 = sourceItem(catchAll, 0, ImplementationConstraints.ANY);

        Merged merged = merge(List.of(global, action, globalRule, actionRule, catchAll,
                global0, global1, action0, action1, catchAll0));

        assertFiredTimes(merged.fired(), JOINED, 2);
        PolicyRule postgres = merged.rules().stream().filter(r -> r.id().equals(POSTGRES.toString())).findFirst().orElseThrow();
        assertEquals(new PolicyRule(POSTGRES.toString(), 0, POSTGRES, 3), postgres);
        assertEquals(2, merged.rules().size());
        assertTrue(merged.rules().contains(new PolicyRule("cap.*", 0, ANY_INTERFACE, 1)));

        // global0 is merged into action1; what stays is action0, action1, global1, in that order.
        assertEquals(List.of(new Absorbed(global0, action1)), merged.absorbed());
        assertFiredTimes(merged.fired(), INDEXED, 4);
        assertEquals(List.of(action0.id(), action1.id(), global1.id()), merged.oneOf(POSTGRES.toString()));
        assertEquals(List.of(catchAll0.id()), merged.oneOf("cap.*"));
        OneOfItem first = merged.items().stream().filter(i -> i.id().equals(action0.id())).findFirst().orElseThrow();
        assertEquals(new OneOfItem(action0.id(), POSTGRES.toString(), 0, CLOUDSQL.path(), List.of(), List.of()), first);
        assertFiredBefore(merged.fired(), JOINED, "Rule key names the Interface path and revision");
    }

    @Test
    void ruleWhoseItemsAllMergeAwayKeepsAnEmptyCount() {
        PolicySource action = actionPolicy();
        PolicySource global = globalPolicy();
        SourceRule actionRule = sourceRule(action, 0, POSTGRES);
        SourceRule globalRule = sourceRule(global, 0, POSTGRES);
        SourceItem actionItem = sourceItem(actionRule, 0, BITNAMI);
        SourceItem globalItem = sourceItem(globalRule, 0, constraints(BITNAMI.path()));

        Merged merged = merge(List.of(action, global, actionRule, globalRule, actionItem, globalItem));

        assertFiredTimes(merged.fired(), JOINED, 1);
        assertEquals(List.of(new PolicyRule(POSTGRES.toString(), 0, POSTGRES, 1)), merged.rules());
        assertFiredTimes(merged.fired(), INDEXED, 1);
        assertEquals(List.of(actionItem.id()), merged.oneOf(POSTGRES.toString()));
    }

    // ---- what the merged items inject (for matching) ----

    @Test
    void resolvedTypeInstancesOfMergedItemsAreInjectedIntoTheSurvivor() {
        PolicySource action = actionPolicy();
        PolicySource global = globalPolicy();
        SourceRule actionRule = sourceRule(action, 0, POSTGRES);
        SourceRule globalRule = sourceRule(global, 0, POSTGRES);
        SourceItem actionItem = sourceItem(actionRule, 0, BITNAMI);
        SourceItem globalItem = sourceItem(globalRule, 0, constraints(BITNAMI.path()));

        Merged merged = merge(List.of(action, global, actionRule, globalRule, actionItem, globalItem,
                required(actionItem, 0, "k8s-1", K8S),
                required(globalItem, 0, "sa-1", GCP_SA),
                required(globalItem, 1, "unknown", null)));

        assertFiredTimes(merged.fired(), ITEM_INJECT, 2);
        assertNotFired(merged.fired(), DEFAULT_INJECT);
        assertEquals(Set.of(new InjectedTypeInstance(actionItem.id(), "k8s-1", K8S, InjectionSource.RULE_INJECT),
                new InjectedTypeInstance(actionItem.id(), "sa-1", GCP_SA, InjectionSource.RULE_INJECT)),
                Set.copyOf(merged.injected()));
    }

    @Test
    void resolvedDefaultTypeInstancesAreInjectedIntoEveryItem() {
        PolicySource action = actionPolicy();
        PolicySource global = globalPolicy();
        SourceRule globalRule = sourceRule(global, 0, POSTGRES);
        SourceItem globalItem = sourceItem(globalRule, 0, BITNAMI);

        Merged merged = merge(List.of(action, global, globalRule, globalItem,
                defaultRequired(global, 0, "sa-1", GCP_SA),
                defaultRequired(action, 0, "k8s-1", K8S),
                defaultRequired(global, 1, "unknown", null)));

        assertFiredTimes(merged.fired(), DEFAULT_INJECT, 2);
        assertNotFired(merged.fired(), ITEM_INJECT);
        assertEquals(Set.of(new InjectedTypeInstance(null, "sa-1", GCP_SA, InjectionSource.DEFAULT_INJECT),
                new InjectedTypeInstance(null, "k8s-1", K8S, InjectionSource.DEFAULT_INJECT)),
                Set.copyOf(merged.injected()));
    }
}
