package io.arbiter.analysis;

import com.fasterxml.jackson.databind.node.NullNode;
import io.arbiter.catalog.Catalog;
import io.arbiter.catalog.Revisions;
import io.arbiter.decision.DecisionException;
import io.arbiter.decision.Snapshot;
import io.arbiter.decision.implementation.ImplementationDecider;
import io.arbiter.decision.implementation.ImplementationDecision;
import io.arbiter.decision.implementation.ImplementationDecision.ItemExplanation;
import io.arbiter.decision.implementation.ImplementationRequest;
import io.arbiter.document.Problem;
import io.arbiter.engine.DecisionDeadline;
import io.arbiter.model.Implementation;
import io.arbiter.model.Ref;
import io.arbiter.model.Requirement;
import io.arbiter.policy.Policy;
import io.arbiter.policy.PolicyDocument;
import io.arbiter.policy.PolicyParser;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What the implementation policy does for this catalog and TypeInstance store, found by running decisions with the
 * service's own rules (with their explanation phase), never by matching in Java:
 * <ul>
 *   <li>each rule alone, for every catalog Interface its key names (as the rule-key rules say): which
 *       Implementations each oneOf item matches (items that match nothing; items whose matches all match an earlier
 *       item, which can never win);</li>
 *   <li>each item alone: what a decision that selects by it would refuse (parameters against the Implementation's
 *       schema, undeclared additional TypeInstances...), and injected TypeInstances it hands over to no one;</li>
 *   <li>the policy in its place (global, or action/workflow merged with the live global policy): rules that apply
 *       alone but never decide, because a higher-precedence key wins, and items that match but never win, because
 *       a higher-priority policy's item wins first.</li>
 * </ul>
 * Paths are the policy's own ({@code $.interface.rules[0].oneOf[1]}).
 */
final class ImplementationPolicyAnalysis {

    /** Decisions one analysis may run: a policy of many rules times a large catalog stops here, with a warning. */
    static final int MAX_DECISIONS = 5_000;

    private final Policy policy;
    private final PolicyLint.Role role;
    private final Snapshot snapshot;
    private final List<Finding> findings = new ArrayList<>();
    private final java.time.Duration budget;
    private final long endNanos;
    private int decisions;
    private boolean truncated;

    private ImplementationPolicyAnalysis(Policy policy, PolicyLint.Role role, Snapshot snapshot, java.time.Duration budget) {
        this.policy = policy;
        this.role = role;
        this.snapshot = snapshot;
        this.budget = budget;
        this.endNanos = System.nanoTime() + budget.toNanos();
    }

    /** {@code budget}: how long the analysis may take; past it, it stops and says so. */
    static List<Finding> analyse(Policy policy, PolicyLint.Role role, Snapshot snapshot, java.time.Duration budget) {
        ImplementationPolicyAnalysis analysis = new ImplementationPolicyAnalysis(policy, role, snapshot, budget);
        analysis.run();
        return analysis.findings;
    }

    /** What one rule does alone, per Interface it applies to. */
    private record RuleAlone(List<Ref> appliesTo, Map<Integer, Set<String>> matches, Map<Integer, Set<String>> reasons) {
    }

    private void run() {
        List<Ref> interfaces = catalogInterfaces(snapshot.catalog());
        Map<Ref, Set<Ref>> namedBy = ImplementationDecider.named(
                policy.rules().stream().map(Policy.InterfaceRule::interfaceRef).toList(), interfaces, snapshot);
        Map<Integer, RuleAlone> alone = new LinkedHashMap<>();
        for (int i = 0; i < policy.rules().size() && !truncated; i++) {
            Policy.InterfaceRule rule = policy.rules().get(i);
            String at = "$.interface.rules[" + i + "]";
            Set<Ref> names = namedBy.getOrDefault(rule.interfaceRef(), Set.of());
            List<Ref> named = interfaces.stream().filter(names::contains).toList();
            if (named.isEmpty()) {
                findings.add(Finding.warning("unknown-interface", Problem.at(at + ".interface",
                        "no Interface of the catalog is named by " + rule.interfaceRef() + " under any kind of rule key"
                                + " (rules/implementation/10-rule-keys.drl): this rule decides nothing here")));
                continue;
            }
            RuleAlone result = alone(i, rule, named);
            alone.put(i, result);
            if (!result.appliesTo().isEmpty()) { // empty only when a limit left its decisions out
                items(i, rule, result);
            }
        }
        if (!truncated) {
            inPlace(alone);
        }
        if (truncated) {
            findings.add(Finding.warning("analysis-truncated", Problem.at("$", "the analysis stopped after " + decisions
                    + " decisions (at most " + MAX_DECISIONS + ", within " + budget.toMillis() + " ms): the other findings"
                    + " cover part of the policy")));
        }
    }

    private RuleAlone alone(int index, Policy.InterfaceRule rule, List<Ref> named) {
        Policy single = new Policy(defaults(), List.of(rule), List.of());
        List<Ref> appliesTo = new ArrayList<>();
        Map<Integer, Set<String>> matches = new LinkedHashMap<>();
        Map<Integer, Set<String>> reasons = new LinkedHashMap<>();
        for (Ref ref : named) {
            ImplementationDecider.Analysis analysis = decide(single, null, ref, true);
            if (analysis == null || analysis.decision().rule() == null) {
                continue;
            }
            appliesTo.add(ref);
            for (ItemExplanation item : analysis.decision().explanation()) {
                Set<String> matched = matches.computeIfAbsent(item.oneOfIndex(), j -> new TreeSet<>());
                item.matched().forEach(impl -> matched.add(ref + " by " + impl));
                // an Implementation of another path than the item names says nothing about the item
                List<ImplementationDecision.RejectedImplementation> rejected = item.rejected().stream()
                        .filter(r -> r.reasons().stream().noneMatch(reason -> reason.startsWith("path "))).toList();
                (rejected.isEmpty() ? item.rejected() : rejected).forEach(r -> reasons.computeIfAbsent(item.oneOfIndex(),
                        j -> new LinkedHashSet<>()).add(r.implementation() + ": " + String.join("; ", r.reasons())));
            }
        }
        return new RuleAlone(appliesTo, matches, reasons);
    }

    /** Items that match nothing, items that can never win, and what each item alone would be refused for. */
    private void items(int i, Policy.InterfaceRule rule, RuleAlone alone) {
        Set<String> earlier = new TreeSet<>();
        for (int j = 0; j < rule.oneOf().size() && !truncated; j++) {
            String at = "$.interface.rules[" + i + "].oneOf[" + j + "]";
            Set<String> matched = alone.matches().getOrDefault(j, Set.of());
            if (matched.isEmpty()) {
                findings.add(Finding.warning("unsatisfiable-item", Problem.at(at, "no Implementation satisfies this item"
                        + " with this catalog and TypeInstance store (" + sample(List.copyOf(alone.reasons().getOrDefault(j, Set.of())))
                        + ")")));
            } else if (earlier.containsAll(matched)) {
                findings.add(Finding.warning("unreachable-item", Problem.at(at, "can never win: every Implementation it"
                        + " matches also matches an earlier item of this rule (" + sample(List.copyOf(matched)) + ")")));
            }
            earlier.addAll(matched);
            if (!matched.isEmpty()) {
                itemAlone(i, j, rule, alone.appliesTo());
            }
        }
    }

    /** The item alone in its rule: what a decision selecting by it refuses, and injections nobody takes. */
    private void itemAlone(int i, int j, Policy.InterfaceRule rule, List<Ref> appliesTo) {
        Policy.OneOfItem item = rule.oneOf().get(j);
        Policy single = new Policy(defaults(), List.of(new Policy.InterfaceRule(rule.interfaceRef(), List.of(item))),
                List.of());
        String at = "$.interface.rules[" + i + "].oneOf[" + j + "]";
        Set<Problem> refused = new LinkedHashSet<>();
        Map<String, Set<String>> unused = new LinkedHashMap<>();
        for (Ref ref : appliesTo) {
            ImplementationDecider.Analysis analysis = decide(single, null, ref, false);
            if (analysis == null || analysis.decision().selected() == null) {
                continue;
            }
            ImplementationDecision decision = analysis.decision();
            for (Problem problem : analysis.problems()) {
                String path = problem.path().replace("$.interface.rules[0].oneOf[0]", at);
                refused.add(Problem.at(path, "deciding " + decision.interfaceRef() + " selects " + decision.selected()
                        + ": " + problem.problem()));
            }
            if (analysis.problems().isEmpty()) {
                unusedInjections(item, decision, unused);
            }
        }
        refused.forEach(problem -> findings.add(Finding.error("decision-refuses", problem)));
        unused.forEach((k, reasons) -> findings.add(Finding.warning(
                reasons.stream().anyMatch(r -> r.contains("without an alias")) ? "injection-without-alias" : "unused-injection",
                Problem.at(at + ".inject.requiredTypeInstances[" + k + "]", String.join("; ", reasons)))));
    }

    /**
     * A required TypeInstance the item injects that the decision did not hand over: the selected Implementation does
     * not require its Type, or requires it without an alias (only aliased requirements take injections).
     */
    private void unusedInjections(Policy.OneOfItem item, ImplementationDecision decision, Map<String, Set<String>> unused) {
        Set<String> handedOver = decision.inject().requiredTypeInstances().stream()
                .map(ImplementationDecision.RequiredTypeInstance::id).collect(Collectors.toSet());
        Implementation selected = snapshot.catalog().implementations().stream()
                .filter(impl -> impl.ref().equals(decision.selected())).findFirst().orElse(null);
        List<Policy.RequiredTypeInstance> required = item.inject().requiredTypeInstances();
        for (int k = 0; k < required.size(); k++) {
            String id = required.get(k).id();
            Ref type = snapshot.typeInstances().find(id).map(ti -> ti.typeRef()).orElse(null);
            if (type == null || selected == null || handedOver.contains(id)) {
                continue;
            }
            List<Requirement> ofType = selected.requirements().stream().filter(r -> r.typeRef().equals(type)).toList();
            String reason = ofType.isEmpty()
                    ? "TypeInstance " + id + " (" + type + ") is injected, but " + selected.ref() + " (selected for "
                    + decision.interfaceRef() + ") does not require " + type
                    : "TypeInstance " + id + " (" + type + ") is injected, but " + selected.ref() + " requires " + type
                    + " without an alias, so nothing hands it over";
            unused.computeIfAbsent(String.valueOf(k), key -> new LinkedHashSet<>()).add(reason);
        }
    }

    /**
     * The policy where it is used: rules that apply alone but never decide (a higher-precedence key of this or the
     * global policy wins), and items that match but never win because an item of a higher-priority policy wins first.
     */
    private void inPlace(Map<Integer, RuleAlone> alone) {
        String own = switch (role) {
            case GLOBAL -> "interface.rules[";
            case ACTION -> "$.actionPolicy.interface.rules[";
            case WORKFLOW -> "$.workflowPolicies[0].interface.rules[";
        };
        Map<Ref, ImplementationDecider.Analysis> byInterface = new LinkedHashMap<>();
        for (Map.Entry<Integer, RuleAlone> entry : alone.entrySet()) {
            Policy.InterfaceRule rule = policy.rules().get(entry.getKey());
            String key = rule.interfaceRef().toString();
            Map<String, String> winners = new LinkedHashMap<>();
            boolean decides = false;
            Map<Integer, Boolean> won = new LinkedHashMap<>();
            Map<Integer, Set<String>> beatenBy = new LinkedHashMap<>();
            for (Ref ref : entry.getValue().appliesTo()) {
                ImplementationDecider.Analysis analysis = byInterface.get(ref);
                if (analysis == null && !byInterface.containsKey(ref)) {
                    analysis = role == PolicyLint.Role.GLOBAL ? decide(policy, null, ref, true)
                            : role == PolicyLint.Role.ACTION ? decide(null, policy, ref, true) : decideWorkflow(ref);
                    byInterface.put(ref, analysis);
                }
                if (analysis == null || analysis.decision().rule() == null) {
                    continue;
                }
                ImplementationDecision decision = analysis.decision();
                String applied = decision.rule().interfaceRef().toString();
                if (!applied.equals(key)) {
                    winners.put(ref.toString(), applied);
                    continue;
                }
                decides = true;
                Integer winner = decision.rule().oneOfIndex();
                String winnerId = winner == null ? null : decision.explanation().stream()
                        .filter(item -> item.oneOfIndex() == winner).map(ItemExplanation::item).findFirst().orElse(null);
                for (ItemExplanation item : decision.explanation()) {
                    Integer j = ownItem(item.item(), own + entry.getKey() + "].oneOf[");
                    if (j == null || item.matched().isEmpty()) {
                        continue;
                    }
                    boolean wins = item.item().equals(winnerId);
                    won.merge(j, wins, Boolean::logicalOr);
                    if (!wins && winnerId != null && !winnerId.startsWith(own)) {
                        beatenBy.computeIfAbsent(j, x -> new TreeSet<>()).add(describeSource(winnerId));
                    }
                }
            }
            String at = "$.interface.rules[" + entry.getKey() + "]";
            if (!decides && !winners.isEmpty()) {
                Set<String> keys = new TreeSet<>(winners.values());
                boolean ownKey = policy.rules().stream().anyMatch(other -> keys.contains(other.interfaceRef().toString()));
                findings.add(Finding.warning("shadowed-rule", Problem.at(at + ".interface", "never decides: for every"
                        + " Interface it applies to (" + sample(List.copyOf(winners.keySet())) + ") the rule for "
                        + String.join(", ", keys) + (ownKey ? " of this policy" : " of the " + other() + " policy")
                        + " has a key of higher precedence (rule-key precedence comes before policy priority)")));
            }
            won.forEach((j, wins) -> {
                if (!wins && beatenBy.containsKey(j)) {
                    findings.add(Finding.warning("shadowed-item", Problem.at(at + ".oneOf[" + j + "]", "matches but never"
                            + " wins once merged: an item of a higher-priority policy wins first ("
                            + String.join(", ", beatenBy.get(j)) + ")")));
                }
            });
        }
    }

    private String other() {
        return "global";
    }

    /**
     * What every item is offered when the policy is used: its own defaults, and for an action or workflow policy the
     * global policy's too (a workflow policy has none of its own), so an item alone matches as it does in place.
     */
    private Policy.Inject defaults() {
        if (role == PolicyLint.Role.GLOBAL) {
            return policy.defaults();
        }
        List<Policy.RequiredTypeInstance> required = new ArrayList<>(policy.defaults().requiredTypeInstances());
        required.addAll(snapshot.policy().policy().defaults().requiredTypeInstances());
        return new Policy.Inject(required, List.of(), List.of());
    }

    private static String describeSource(String itemId) {
        if (itemId.startsWith("$.actionPolicy.")) {
            return "the action policy's " + itemId.substring("$.actionPolicy.".length());
        }
        if (itemId.startsWith("$.workflowPolicies")) {
            return "the workflow policy's " + itemId.substring(itemId.indexOf("].") + 2);
        }
        return "the global policy's " + itemId;
    }

    private static Integer ownItem(String itemId, String prefix) {
        if (!itemId.startsWith(prefix)) {
            return null;
        }
        return Integer.valueOf(itemId.substring(prefix.length(), itemId.indexOf(']', prefix.length())));
    }

    private ImplementationDecider.Analysis decideWorkflow(Ref ref) {
        return run(snapshot, new ImplementationRequest(ref, null, List.of(policy), null, null, true));
    }

    /** One decision: with {@code global} as the global policy (else the live one), and {@code action} if given. */
    private ImplementationDecider.Analysis decide(Policy global, Policy action, Ref ref, boolean explain) {
        Snapshot with = global == null ? snapshot : snapshot.withPolicy(new PolicyDocument(global, NullNode.getInstance(),
                PolicyParser.CURRENT_VERSION, "lint", List.of()));
        return run(with, new ImplementationRequest(ref, action, List.of(), null, null, explain));
    }

    private ImplementationDecider.Analysis run(Snapshot with, ImplementationRequest request) {
        if (truncated || decisions >= MAX_DECISIONS || System.nanoTime() > endNanos) {
            truncated = true;
            return null;
        }
        decisions++;
        try {
            return DecisionDeadline.after(java.time.Duration.ofNanos(Math.max(1, endNanos - System.nanoTime())))
                    .within(() -> ImplementationDecider.analyse(request, with));
        } catch (DecisionDeadline.ExceededException e) {
            truncated = true;
            return null;
        } catch (DecisionException e) {
            // a decision over its limits: this Interface is left out, and the finding says so
            findings.add(Finding.warning("analysis-limit", Problem.at("$", "deciding " + request.interfaceRef()
                    + " was left out of the analysis: " + e.getMessage())));
            return null;
        }
    }

    /** The catalog's Interface revisions: declared ones and those Implementations implement. */
    private static List<Ref> catalogInterfaces(Catalog catalog) {
        Set<Ref> known = new TreeSet<>(Comparator.comparing(Ref::path)
                .thenComparing(Ref::revision, Comparator.nullsFirst(Revisions.ASCENDING)));
        known.addAll(catalog.interfaces());
        catalog.implementations().forEach(implementation -> known.addAll(implementation.implementsRefs()));
        return List.copyOf(known);
    }

    private static String sample(List<String> values) {
        if (values.isEmpty()) {
            return "nothing to try";
        }
        return values.size() <= 3 ? String.join("; ", values)
                : String.join("; ", values.subList(0, 3)) + "; and " + (values.size() - 3) + " more";
    }
}
