package io.arbiter.decision.implementation;

import io.arbiter.decision.merge.PolicyMergeFacts.*;

import io.arbiter.catalog.Catalog;
import io.arbiter.catalog.Revisions;
import io.arbiter.catalog.TypeInstanceStore;
import io.arbiter.decision.Snapshot;
import io.arbiter.decision.implementation.ImplementationDecision.AppliedRule;
import io.arbiter.decision.implementation.ImplementationDecision.ItemExplanation;
import io.arbiter.decision.implementation.ImplementationDecision.RejectedImplementation;
import io.arbiter.decision.DecisionException;
import io.arbiter.decision.Limits;
import io.arbiter.decision.Work;
import io.arbiter.decision.implementation.ImplementationFacts.*;
import io.arbiter.document.Problem;
import io.arbiter.decision.merge.PolicyMerge;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.model.Implementation;
import io.arbiter.model.Ref;
import io.arbiter.model.Requirement;
import io.arbiter.model.TypeInstance;
import io.arbiter.policy.Policy;
import io.arbiter.policy.PolicyDocument;
import org.kie.api.runtime.KieSession;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.arbiter.engine.CompiledRuleBase.factsOf;

/**
 * Decides which Implementation serves an Interface. Java prepares facts (only the policy rules, Implementations
 * and TypeInstances relevant to the Interface) and renders results; the rules decide.
 */
public final class ImplementationDecider {

    public static final String KIND = "implementation";
    public static final List<String> PHASES = io.arbiter.engine.Phases.of(KIND);

    /** Candidates are listed by path ascending, then revision descending (contract). */
    static final Comparator<Implementation> CANDIDATE_ORDER = Comparator.comparing(Implementation::path)
            .thenComparing(Implementation::revision, Revisions.ASCENDING.reversed());

    private ImplementationDecider() {
    }

    public static ImplementationDecision decide(ImplementationRequest request, Snapshot snapshot) {
        return decision(evaluate(request, snapshot, true));
    }

    /**
     * A warning when the requested Interface is one the catalog (or the request's own Implementations) does not have,
     * naming the closest ones: a mistyped path is otherwise a 200 whose outcome alone cannot say why (the contract
     * keeps a decision a 200 whatever its outcome). Null when the Interface is known.
     */
    static String unknownInterface(ImplementationRequest request, Snapshot snapshot) {
        String path = request.interfaceRef().path();
        Set<String> known;
        if (request.implementations() == null) {
            // a lookup on every decision; the catalog's paths are gathered only for a path it does not have
            Catalog catalog = snapshot.catalog();
            if (!catalog.implementationsOf(path).isEmpty() || catalog.highestInterfaceRevision(path).isPresent()) {
                return null;
            }
            known = catalog.interfacePaths();
        } else {
            known = new java.util.HashSet<>();
            request.implementations().forEach(i -> i.implementsRefs().forEach(ref -> known.add(ref.path())));
            if (known.contains(path)) {
                return null;
            }
        }
        // each distance once, and none for a path whose length alone puts it past the bound
        int bound = Math.max(3, path.length() / 3);
        Map<String, Integer> near = new java.util.HashMap<>();
        for (String candidate : known) {
            if (Math.abs(candidate.length() - path.length()) <= bound) {
                int distance = editDistance(path, candidate);
                if (distance <= bound) {
                    near.put(candidate, distance);
                }
            }
        }
        List<String> closest = near.keySet().stream()
                .sorted(Comparator.comparingInt((String candidate) -> near.get(candidate)).thenComparing(Comparator.naturalOrder()))
                .limit(3).toList();
        return (request.implementations() == null ? "the catalog has" : "the request's implementations implement")
                + " no Interface " + path + (closest.isEmpty() ? "" : ": did you mean " + String.join(", ", closest) + "?")
                + " (GET /v1/catalog lists every Interface the server knows)";
    }

    /** Levenshtein distance, for naming the Interfaces closest to a mistyped path; paths are at most 253 characters. */
    private static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    private static ImplementationDecision decision(Evaluation evaluation) {
        Result result = evaluation.run().result();
        if (!result.problems().isEmpty()) {
            List<Problem> problems = result.problems().stream()
                    .map(problem -> Problem.at(problem.location(), problem.problem()))
                    .sorted(Comparator.comparing(Problem::path).thenComparing(Problem::problem)).toList();
            throw new DecisionException(DecisionException.Code.INVALID_POLICY, "the policies cannot be applied to "
                    + result.candidates().get(0) + ": " + problems.get(0), problems);
        }
        return rendered(evaluation);
    }

    private static ImplementationDecision rendered(Evaluation evaluation) {
        Result result = evaluation.run().result();
        return new ImplementationDecision(result.outcome(), evaluation.interfaceRef(),
                result.appliedRule(), result.candidates(),
                result.candidates().isEmpty() ? null : result.candidates().get(0),
                result.injection(), result.backends(), evaluation.run().firedRules(), result.explanation());
    }

    /**
     * A decision as {@link #decide} makes it, for analysis (lint): the problems it would be refused for are returned
     * beside it instead of thrown, without those of ids the store cannot resolve (a request may bring them). Problem
     * paths are the policies' own ({@code $.interface.rules[0]...}, {@code $.actionPolicy.interface...}).
     */
    public record Analysis(ImplementationDecision decision, List<Problem> problems) {
    }

    public static Analysis analyse(ImplementationRequest request, Snapshot snapshot) {
        Evaluation evaluation = evaluate(request, snapshot, false);
        Result result = evaluation.run().result();
        List<Problem> problems = result.problems().stream().filter(problem -> !problem.storeLookup())
                .map(problem -> Problem.at(problem.location().startsWith("$") ? problem.location() : "$." + problem.location(),
                        problem.problem()))
                .distinct().sorted(Comparator.comparing(Problem::path).thenComparing(Problem::problem)).toList();
        return new Analysis(rendered(evaluation), problems);
    }

    /** One run of the rules for a request: what {@link #decide} renders and {@link #analyse} reads. */
    private record Evaluation(Ref interfaceRef, CompiledRuleBase.Run<Result> run) {
    }

    /**
     * {@code budgeted}: a request's decision is refused past {@link Limits#IMPLEMENTATION_WORK}; the lint's analysis
     * holds only the server's own catalog and policies, which the operator sized.
     */
    private static Evaluation evaluate(ImplementationRequest request, Snapshot snapshot, boolean budgeted) {
        Catalog catalog = request.implementations() == null ? snapshot.catalog()
                : snapshot.catalog().withImplementations(request.implementations());
        TypeInstanceStore store = request.typeInstances() == null ? snapshot.typeInstances()
                : new TypeInstanceStore(request.typeInstances());
        Ref interfaceRef = resolveRevision(request.interfaceRef(), catalog);

        List<Object> facts = new ArrayList<>();
        facts.add(new InterfaceQuery(interfaceRef));
        policyFacts(policies(request, snapshot), interfaceRef.path(), store, facts);
        facts.addAll(PolicyMerge.configuredRanks(snapshot.policyOrder()));
        catalogFacts(interfaceRef.path(), catalog, store, snapshot.platformTypeInstances(), facts);

        if (budgeted) {
            work(facts).requireWithinBudget();
        }
        CompiledRuleBase ruleBase = snapshot.ruleBase(ImplementationPolicyType.NAME);
        return new Evaluation(interfaceRef,
                ruleBase.run(facts, PHASES, session -> read(session, request.explain())));
    }

    /**
     * The cost model of an implementation decision. Matching tries every oneOf item of the rules that can apply (in
     * every policy: the request's and the global one) with every Implementation of the Interface (the catalog's and
     * the request's inline ones): a Trial fact per pair, then a match or Rejections. A Rejection joins the item's
     * distinct constraints (attributes, requires) or the Implementation's requirements, requirement groups and
     * attributes. So the work is {@code 3 × items × Implementations + Implementations × Σ constraints + items ×
     * Σ requirements}, plus {@code items²} for merging the items with each other. A pair weighs 3 because it holds
     * three times the heap of a Rejection (a Trial, its match or rejection, and their firings): measured with
     * {@code io.arbiter.bench.WorkBudgets}, about 8 KB per pair and 2.5 KB per constraint Rejection.
     */
    static Work work(List<Object> facts) {
        long items = 0;
        long constraints = 0;
        long implementations = 0;
        long requirements = 0;
        for (Object fact : facts) {
            if (fact instanceof SourceItem) {
                items++;
            } else if (fact instanceof ItemAttribute || fact instanceof ItemRequiredType) {
                // the constraints the rules join: each once per item, however often the item lists it
                constraints++;
            } else if (fact instanceof Implementation implementation) {
                implementations++;
                requirements += implementation.requirements().size() + implementation.requirementGroups().size()
                        + implementation.attributes().size();
            }
        }
        long units = Work.plus(Work.plus(Work.times(3, Work.times(items, implementations)), Work.times(implementations, constraints)),
                Work.plus(Work.times(items, requirements), Work.times(items, items)));
        return new Work(KIND, "3 × oneOf items × Implementations + Implementations × constraints + oneOf items × requirements"
                + " + oneOf items²", List.of(
                Work.dimension("oneOf items (of the rules that can apply, in every policy)", items),
                Work.dimension("Implementations of the Interface (catalog and inline)", implementations),
                Work.dimension("constraints (distinct attributes and requires of those items)", constraints),
                Work.dimension("requirements (requires, requirement groups and attributes of those Implementations)",
                        requirements)),
                units, Limits.IMPLEMENTATION_WORK,
                "send fewer oneOf items, fewer constraints per item or fewer inline Implementations, or split the"
                        + " policies over several requests");
    }

    static List<PolicyMerge.Sourced> policies(ImplementationRequest request, Snapshot snapshot) {
        return PolicyMerge.policies(request.actionPolicy(), snapshot.policy().policy(), request.workflowPolicies());
    }

    /** An absent revision means the highest one known for the path (catalog Interfaces and what Implementations implement). */
    static Ref resolveRevision(Ref requested, Catalog catalog) {
        if (requested.revision() != null) {
            return requested;
        }
        return new Ref(requested.path(), catalog.highestInterfaceRevision(requested.path()).orElse(null));
    }

    /**
     * The policies as written: every source, its rules whose key may name the Interface (a cost filter), their items,
     * and every inject entry with the Type the store resolves its id to (null when it cannot).
     */
    static void policyFacts(List<PolicyMerge.Sourced> policies, String interfacePath, TypeInstanceStore store, List<Object> facts) {
        for (PolicyMerge.Sourced sourced : policies) {
            String sourceId = sourced.source().id();
            facts.add(sourced.source());
            Policy policy = sourced.policy();
            for (int d = 0; d < policy.defaults().requiredTypeInstances().size(); d++) {
                Policy.RequiredTypeInstance required = policy.defaults().requiredTypeInstances().get(d);
                facts.add(new RequiredEntry(sourced.prefix() + "interface.default.inject.requiredTypeInstances[" + d + "]",
                        sourceId, null, required.id(), resolve(store, required.id())));
            }
            for (int i = 0; i < policy.rules().size(); i++) {
                Policy.InterfaceRule rule = policy.rules().get(i);
                if (!isKeyedOnPathOrPattern(rule, interfacePath)) {
                    continue;
                }
                String ruleId = sourced.prefix() + "interface.rules[" + i + "]";
                facts.add(new SourceRule(ruleId, sourceId, rule.interfaceRef().toString(), rule.interfaceRef()));
                for (int j = 0; j < rule.oneOf().size(); j++) {
                    Policy.OneOfItem item = rule.oneOf().get(j);
                    String itemId = ruleId + ".oneOf[" + j + "]";
                    facts.add(new SourceItem(itemId, sourceId, rule.interfaceRef().toString(), j, item.constraints()));
                    facts.addAll(constraintFacts(itemId, item.constraints().attributes(), item.constraints().requires()));
                    injectFacts(itemId, sourceId, item.inject(), store, facts);
                }
            }
        }
    }

    /**
     * For analysis: which of {@code interfaces} each rule key names, as the rule-key rules say (one run with every key
     * and every Interface, no items: nothing is tried).
     */
    public static Map<Ref, Set<Ref>> named(List<Ref> keys, List<Ref> interfaces, Snapshot snapshot) {
        List<Object> facts = new ArrayList<>();
        interfaces.forEach(ref -> facts.add(new InterfaceQuery(ref)));
        keys.forEach(key -> facts.add(new SourceRule(key.toString(), "analysis", key.toString(), key)));
        return snapshot.ruleBase(ImplementationPolicyType.NAME).run(facts, PHASES, session -> {
            Map<Ref, Set<Ref>> named = new java.util.HashMap<>();
            factsOf(session, RuleKeyMatch.class).forEach(match ->
                    named.computeIfAbsent(match.rule().interfaceRef(), key -> new LinkedHashSet<>()).add(match.named()));
            return named;
        }).result();
    }

    /**
     * An item's attribute and Type constraints as facts, each once: the rules join them against each Implementation's
     * attributes and requirements, so a constraint listed a hundred times costs one join, not a hundred.
     */
    public static List<Object> constraintFacts(String itemId, List<Ref> attributes, List<Ref> requires) {
        List<Object> facts = new ArrayList<>();
        new LinkedHashSet<>(attributes).forEach(attribute -> facts.add(new ItemAttribute(itemId, attribute)));
        new LinkedHashSet<>(requires).forEach(type -> facts.add(new ItemRequiredType(itemId, type)));
        return facts;
    }

    private static void injectFacts(String itemId, String sourceId, Policy.Inject inject, TypeInstanceStore store,
                                    List<Object> facts) {
        String at = itemId + ".inject.";
        for (int k = 0; k < inject.requiredTypeInstances().size(); k++) {
            String id = inject.requiredTypeInstances().get(k).id();
            facts.add(new RequiredEntry(at + "requiredTypeInstances[" + k + "]", sourceId, itemId, id, resolve(store, id)));
        }
        for (int k = 0; k < inject.additionalTypeInstances().size(); k++) {
            Policy.AdditionalTypeInstance additional = inject.additionalTypeInstances().get(k);
            facts.add(new AdditionalTypeInstanceEntry(at + "additionalTypeInstances[" + k + "]", sourceId, itemId,
                    additional.name(), additional.id(), resolve(store, additional.id()), k));
        }
        for (int k = 0; k < inject.additionalParameters().size(); k++) {
            Policy.AdditionalParameter parameter = inject.additionalParameters().get(k);
            facts.add(new AdditionalParameterEntry(at + "additionalParameters[" + k + "]", sourceId, itemId,
                    parameter.name(), parameter.value(), k));
        }
    }

    private static Ref resolve(TypeInstanceStore store, String id) {
        return store.find(id).map(TypeInstance::typeRef).orElse(null);
    }

    /** The Implementations of the Interface, their requirements, the TypeInstances those name, parameter schemas. */
    static void catalogFacts(String interfacePath, Catalog catalog, TypeInstanceStore store, List<TypeInstance> platform,
                             List<Object> facts) {
        Set<Ref> requiredTypes = new LinkedHashSet<>();
        Set<Ref> parameterTypes = new LinkedHashSet<>();
        for (Implementation implementation : catalog.implementationsOf(interfacePath)) {
            facts.add(implementation);
            facts.addAll(catalog.attributesOf(implementation));
            facts.addAll(implementation.requirementGroups());
            facts.addAll(implementation.requirements());
            implementation.requirements().stream().map(Requirement::typeRef).forEach(requiredTypes::add);
            parameterTypes.addAll(implementation.additionalParameters().values());
        }
        for (Ref type : requiredTypes) {
            store.ofType(type).forEach(ti -> facts.add(new AvailableTypeInstance(ti.id(), ti.typeRef())));
            platform.stream().filter(ti -> ti.typeRef().equals(type))
                    .forEach(ti -> facts.add(new AvailableTypeInstance(ti.id(), ti.typeRef())));
        }
        for (Ref type : parameterTypes) {
            catalog.schema(type).ifPresent(schema -> facts.add(new TypeSchema(type, schema)));
            catalog.schemaProblem(type).ifPresent(problem -> facts.add(new TypeSchema(type, null, problem)));
        }
    }

    /** A cost filter, deciding nothing: a key of another path without {@code *} cannot name the Interface. */
    private static boolean isKeyedOnPathOrPattern(Policy.InterfaceRule rule, String interfacePath) {
        String path = rule.interfaceRef().path();
        return path.equals(interfacePath) || path.endsWith(".*");
    }

    private record Result(Outcome outcome, AppliedRule appliedRule, List<Ref> candidates,
                          ImplementationDecision.Injection injection, List<ImplementationDecision.StorageBackend> backends,
                          List<InjectionProblem> problems,
                          List<ItemExplanation> explanation) {
    }

    private static Result read(KieSession session, boolean explain) {
        Outcome outcome = single(session, Verdict.class).outcome();
        ApplicableRule applicable = single(session, ApplicableRule.class);
        WinningItem winner = single(session, WinningItem.class);

        AppliedRule appliedRule = applicable == null ? null
                : new AppliedRule(applicable.rule().interfaceRef(), winner == null ? null : winner.item().index());
        List<Ref> candidates = new ArrayList<>();
        if (outcome == Outcome.SELECTED) {
            factsOf(session, ItemMatch.class).stream().filter(match -> match.item().equals(winner.item()))
                    .map(ItemMatch::implementation).sorted(CANDIDATE_ORDER).map(Implementation::ref).forEach(candidates::add);
        }
        List<InjectionProblem> problems = factsOf(session, InjectionProblem.class);
        List<ImplementationDecision.StorageBackend> backends = factsOf(session, StorageBackend.class).stream()
                .map(backend -> new ImplementationDecision.StorageBackend(backend.alias(), backend.id(), backend.source()))
                .sorted(Comparator.comparing(ImplementationDecision.StorageBackend::alias)).toList();
        return new Result(outcome, appliedRule, candidates, injection(session), backends, problems,
                explain ? explanation(session) : null);
    }

    /** The inject lists: required TypeInstances in the order of the Implementation's requirements, the rest by name. */
    private static ImplementationDecision.Injection injection(KieSession session) {
        Selected selected = single(session, Selected.class);
        if (selected == null) {
            return ImplementationDecision.Injection.NONE;
        }
        List<Requirement> order = selected.implementation().requirements();
        List<RequiredInjection> required = factsOf(session, RequiredInjection.class);
        required.sort(Comparator.comparingInt((RequiredInjection r) -> position(order, r)).thenComparing(RequiredInjection::id));
        List<AdditionalTypeInstanceInjection> additional = factsOf(session, AdditionalTypeInstanceInjection.class);
        additional.sort(Comparator.comparing(AdditionalTypeInstanceInjection::rank)
                .thenComparingInt(injection -> injection.entry().position()));
        List<ParameterInjection> parameters = factsOf(session, ParameterInjection.class);
        parameters.sort(Comparator.comparing(ParameterInjection::rank).thenComparingInt(ParameterInjection::position));
        return new ImplementationDecision.Injection(
                required.stream().map(r -> new ImplementationDecision.RequiredTypeInstance(r.alias(), r.id(), r.typeRef())).toList(),
                additional.stream().map(a -> new ImplementationDecision.AdditionalTypeInstance(a.entry().name(), a.entry().id())).toList(),
                parameters.stream().map(p -> new ImplementationDecision.AdditionalParameter(p.name(), p.value())).toList());
    }

    private static int position(List<Requirement> requirements, RequiredInjection injection) {
        for (int i = 0; i < requirements.size(); i++) {
            if (injection.alias().equals(requirements.get(i).alias())) {
                return i;
            }
        }
        return requirements.size();
    }

    private static List<ItemExplanation> explanation(KieSession session) {
        Map<String, OneOfItem> items = new LinkedHashMap<>();
        Map<String, Set<Implementation>> tried = new LinkedHashMap<>();
        factsOf(session, Trial.class).forEach(trial -> {
            items.putIfAbsent(trial.item().id(), trial.item());
            tried.computeIfAbsent(trial.item().id(), id -> new LinkedHashSet<>()).add(trial.implementation());
        });
        Map<String, List<Ref>> matched = new LinkedHashMap<>();
        factsOf(session, ItemMatch.class).forEach(match ->
                matched.computeIfAbsent(match.item().id(), id -> new ArrayList<>()).add(match.implementation().ref()));
        Map<String, Map<String, List<String>>> reasons = new LinkedHashMap<>();
        factsOf(session, Rejection.class).forEach(rejection -> reasons.computeIfAbsent(rejection.itemId(),
                id -> new LinkedHashMap<>()).computeIfAbsent(rejection.implementationKey(), key -> new ArrayList<>())
                .add(rejection.reason()));
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

    /** The one fact of {@code type} the rules derive, or null when they derived none. */
    private static <T> T single(KieSession session, Class<T> type) {
        List<T> facts = factsOf(session, type);
        return facts.isEmpty() ? null : facts.get(0);
    }
}
