package io.arbiter.decision.implementation;

import io.arbiter.catalog.Catalog;
import io.arbiter.catalog.Revisions;
import io.arbiter.catalog.TypeInstanceStore;
import io.arbiter.decision.Snapshot;
import io.arbiter.decision.implementation.ImplementationDecision.AppliedRule;
import io.arbiter.decision.implementation.ImplementationDecision.ItemExplanation;
import io.arbiter.decision.implementation.ImplementationDecision.RejectedImplementation;
import io.arbiter.decision.implementation.ImplementationFacts.ApplicableRule;
import io.arbiter.decision.implementation.ImplementationFacts.AvailableTypeInstance;
import io.arbiter.decision.implementation.ImplementationFacts.InjectedTypeInstance;
import io.arbiter.decision.implementation.ImplementationFacts.InjectionSource;
import io.arbiter.decision.implementation.ImplementationFacts.InterfaceQuery;
import io.arbiter.decision.implementation.ImplementationFacts.ItemMatch;
import io.arbiter.decision.implementation.ImplementationFacts.OneOfItem;
import io.arbiter.decision.implementation.ImplementationFacts.Outcome;
import io.arbiter.decision.implementation.ImplementationFacts.PolicyRule;
import io.arbiter.decision.implementation.ImplementationFacts.Rejection;
import io.arbiter.decision.implementation.ImplementationFacts.RuleKeyKind;
import io.arbiter.decision.implementation.ImplementationFacts.Trial;
import io.arbiter.decision.implementation.ImplementationFacts.Verdict;
import io.arbiter.decision.implementation.ImplementationFacts.WinningItem;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.model.Implementation;
import io.arbiter.model.Ref;
import io.arbiter.model.Requirement;
import io.arbiter.model.TypeInstance;
import io.arbiter.policy.Policy;
import org.kie.api.runtime.KieSession;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Decides which Implementation serves an Interface. Java prepares facts (only the policy rules, Implementations
 * and TypeInstances relevant to the Interface) and renders results; the rules decide.
 */
public final class ImplementationDecider {

    public static final String KIND = "implementation";
    public static final List<String> PHASES = List.of("rule-key", "rule-selection", "matching", "outcome");
    /** Run after the decision, only when the caller asks why: they derive one Rejection per reason. */
    public static final List<String> EXPLAIN_PHASES = List.of("explain", "explain-reasons");

    /** Candidates are listed by path ascending, then revision descending (contract). */
    static final Comparator<Implementation> CANDIDATE_ORDER = Comparator.comparing(Implementation::path)
            .thenComparing(Implementation::revision, Revisions.ASCENDING.reversed());

    private ImplementationDecider() {
    }

    public static ImplementationDecision decide(ImplementationRequest request, Snapshot snapshot) {
        Catalog catalog = request.implementations() == null ? snapshot.catalog()
                : snapshot.catalog().withImplementations(request.implementations());
        TypeInstanceStore store = request.typeInstances() == null ? snapshot.typeInstances()
                : new TypeInstanceStore(request.typeInstances());
        Policy policy = snapshot.policy().policy();
        Ref interfaceRef = resolveRevision(request.interfaceRef(), catalog);

        List<Object> facts = facts(interfaceRef, policy, catalog, store, snapshot.platformTypeInstances());
        CompiledRuleBase ruleBase = snapshot.ruleBase(ImplementationPolicyType.NAME);
        List<String> phases = request.explain() ? withExplanation() : PHASES;
        CompiledRuleBase.Run<Result> run = ruleBase.run(facts, phases, session -> read(session, request.explain()));
        Result result = run.result();

        return new ImplementationDecision(UUID.randomUUID().toString(), result.outcome(), interfaceRef,
                result.appliedRule(), result.candidates(),
                result.candidates().isEmpty() ? null : result.candidates().get(0),
                ImplementationDecision.Injection.NONE, run.firedRules(), result.explanation(),
                snapshot.policy().revision(), ruleBase.revision(), snapshot.policy().warnings());
    }

    public static List<String> withExplanation() {
        List<String> phases = new ArrayList<>(PHASES);
        phases.addAll(EXPLAIN_PHASES);
        return phases;
    }

    /** An absent revision means the highest one known for the path (catalog Interfaces and what Implementations implement). */
    static Ref resolveRevision(Ref requested, Catalog catalog) {
        if (requested.revision() != null) {
            return requested;
        }
        return new Ref(requested.path(), catalog.highestInterfaceRevision(requested.path()).orElse(null));
    }

    static List<Object> facts(Ref interfaceRef, Policy policy, Catalog catalog, TypeInstanceStore store,
                              List<TypeInstance> platform) {
        List<Object> facts = new ArrayList<>();
        facts.add(new InterfaceQuery(interfaceRef));

        for (int i = 0; i < policy.rules().size(); i++) {
            Policy.InterfaceRule rule = policy.rules().get(i);
            if (!isKeyedOnPathOrPattern(rule, interfaceRef.path())) {
                continue;
            }
            String ruleId = "interface.rules[" + i + "]";
            facts.add(new PolicyRule(ruleId, i, rule.interfaceRef(), keyKind(rule.interfaceRef()), rule.oneOf().size()));
            for (int j = 0; j < rule.oneOf().size(); j++) {
                Policy.OneOfItem item = rule.oneOf().get(j);
                String itemId = ruleId + ".oneOf[" + j + "]";
                Policy.ImplementationConstraints constraints = item.constraints();
                facts.add(new OneOfItem(itemId, ruleId, j, constraints.path(), constraints.attributes(), constraints.requires()));
                injected(itemId, item.inject(), InjectionSource.RULE_INJECT, store, facts);
                injected(itemId, policy.defaults(), InjectionSource.DEFAULT_INJECT, store, facts);
            }
        }

        Set<Ref> requiredTypes = new LinkedHashSet<>();
        for (Implementation implementation : catalog.implementationsOf(interfaceRef.path())) {
            facts.add(implementation);
            facts.addAll(implementation.requirementGroups());
            facts.addAll(implementation.requirements());
            implementation.requirements().stream().map(Requirement::typeRef).forEach(requiredTypes::add);
        }
        for (Ref type : requiredTypes) {
            store.ofType(type).forEach(ti -> facts.add(new AvailableTypeInstance(ti.id(), ti.typeRef())));
            platform.stream().filter(ti -> ti.typeRef().equals(type))
                    .forEach(ti -> facts.add(new AvailableTypeInstance(ti.id(), ti.typeRef())));
        }
        return facts;
    }

    /** Only rules keyed on this Interface's path, or on a pattern, can apply: the others are not inserted. */
    private static boolean isKeyedOnPathOrPattern(Policy.InterfaceRule rule, String interfacePath) {
        String path = rule.interfaceRef().path();
        return path.equals(interfacePath) || path.endsWith(".*");
    }

    static RuleKeyKind keyKind(Ref ruleInterface) {
        if (ruleInterface.path().equals("cap.*")) {
            return RuleKeyKind.ANY;
        }
        if (ruleInterface.path().endsWith(".*")) {
            return RuleKeyKind.PATTERN;
        }
        return ruleInterface.revision() == null ? RuleKeyKind.PATH : RuleKeyKind.PATH_REVISION;
    }

    private static void injected(String itemId, Policy.Inject inject, InjectionSource source, TypeInstanceStore store,
                                 List<Object> facts) {
        for (Policy.RequiredTypeInstance required : inject.requiredTypeInstances()) {
            store.find(required.id()).ifPresent(ti ->
                    facts.add(new InjectedTypeInstance(itemId, ti.id(), ti.typeRef(), source)));
        }
    }

    private record Result(Outcome outcome, AppliedRule appliedRule, List<Ref> candidates,
                          List<ItemExplanation> explanation) {
    }

    private static Result read(KieSession session, boolean explain) {
        Outcome outcome = single(session, "verdict", "$verdict", Verdict.class).outcome();
        ApplicableRule applicable = single(session, "applicable rule", "$applicable", ApplicableRule.class);
        WinningItem winner = single(session, "winning item", "$winner", WinningItem.class);

        AppliedRule appliedRule = applicable == null ? null
                : new AppliedRule(applicable.rule().interfaceRef(), winner == null ? null : winner.item().index());
        List<Ref> candidates = new ArrayList<>();
        if (outcome == Outcome.SELECTED) {
            List<Implementation> matching = new ArrayList<>();
            session.getQueryResults("candidates").forEach(row -> matching.add((Implementation) row.get("$implementation")));
            matching.stream().sorted(CANDIDATE_ORDER).map(Implementation::ref).forEach(candidates::add);
        }
        return new Result(outcome, appliedRule, candidates, explain ? explanation(session) : null);
    }

    private static List<ItemExplanation> explanation(KieSession session) {
        Map<String, OneOfItem> items = new LinkedHashMap<>();
        Map<String, Set<Implementation>> tried = new LinkedHashMap<>();
        session.getQueryResults("trials").forEach(row -> {
            Trial trial = (Trial) row.get("$trial");
            items.putIfAbsent(trial.itemId(), trial.item());
            tried.computeIfAbsent(trial.itemId(), id -> new LinkedHashSet<>()).add(trial.implementation());
        });
        Map<String, List<Ref>> matched = new LinkedHashMap<>();
        session.getQueryResults("matches").forEach(row -> {
            ItemMatch match = (ItemMatch) row.get("$match");
            matched.computeIfAbsent(match.item().id(), id -> new ArrayList<>()).add(match.implementation().ref());
        });
        Map<String, Map<String, List<String>>> reasons = new LinkedHashMap<>();
        session.getQueryResults("rejections").forEach(row -> {
            Rejection rejection = (Rejection) row.get("$rejection");
            reasons.computeIfAbsent(rejection.itemId(), id -> new LinkedHashMap<>())
                    .computeIfAbsent(rejection.implementationKey(), key -> new ArrayList<>()).add(rejection.reason());
        });
        return items.values().stream().sorted(Comparator.comparingInt(OneOfItem::index)).map(item -> {
            List<RejectedImplementation> rejected = tried.get(item.id()).stream().sorted(CANDIDATE_ORDER)
                    .filter(impl -> reasons.getOrDefault(item.id(), Map.of()).containsKey(impl.key()))
                    .map(impl -> new RejectedImplementation(impl.ref(),
                            reasons.get(item.id()).get(impl.key()).stream().sorted().toList()))
                    .toList();
            List<Ref> matchedRefs = matched.getOrDefault(item.id(), List.of()).stream()
                    .sorted(Comparator.comparing(Ref::path).thenComparing(Ref::revision, Revisions.ASCENDING.reversed()))
                    .toList();
            return new ItemExplanation(item.index(), item.id(),
                    new ImplementationDecision.Constraints(item.implementationPath(),
                            item.attributes().isEmpty() ? null : item.attributes(),
                            item.requires().isEmpty() ? null : item.requires()),
                    tried.get(item.id()).size(), matchedRefs, rejected);
        }).toList();
    }

    private static <T> T single(KieSession session, String query, String variable, Class<T> type) {
        var results = session.getQueryResults(query);
        for (var row : results) {
            return type.cast(row.get(variable));
        }
        return null;
    }
}
