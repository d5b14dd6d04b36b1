package io.arbiter.decision.dependencies;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.decision.DecisionException;
import io.arbiter.decision.Limits;
import io.arbiter.decision.Work;
import io.arbiter.decision.dependencies.DependenciesDecision.DependencyRef;
import io.arbiter.decision.dependencies.DependenciesDecision.PendingPolicy;
import io.arbiter.decision.dependencies.DependenciesDecision.PolicyResult;
import io.arbiter.decision.dependencies.DependenciesDecision.SetResult;
import io.arbiter.decision.dependencies.DependenciesDecision.TemplateResult;
import io.arbiter.decision.dependencies.DependenciesDecision.UnmetDependency;
import io.arbiter.decision.dependencies.DependencyFacts.*;
import io.arbiter.document.Problem;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.engine.FiredRule;
import org.kie.api.runtime.KieSession;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Decides dependency gating. Java parses the request and prepares facts: the hub's canonicalisation of dependency
 * names and PolicySet expansion (ocm-dependencies.md section 2: pure renaming) and the cluster identity of each
 * object; the rules decide met/unmet, template state, action, messages and compliance; Java renders.
 */
public final class DependenciesDecider {

    public static final String KIND = "dependencies";
    /**
     * Sections 3 to 7 and 9: each policy's templates, compliance and what its pending templates wait on. These rules
     * join facts of one policy only.
     */
    public static final List<String> GATING_PHASES = io.arbiter.engine.Phases.stage(KIND, "gating");
    /** PolicySets, waiting chains and cycles: across policies, over what gating derived. */
    public static final List<String> REPORTING_PHASES = io.arbiter.engine.Phases.stage(KIND, "reporting");
    public static final List<String> PHASES = io.arbiter.engine.Phases.of(KIND);

    /**
     * A request is gated in partitions (in parallel) of at least this many policies: below it, a session of its own
     * and handing its results over to the reporting session cost about what a partition saves. (Chosen when each
     * partition's session also held a copy of the observed objects it named; they are no facts any more.)
     */
    static final int POLICIES_PER_PARTITION = 200;
    /** More partitions than cores the service is likely to have only add sessions to set up. */
    static final int MAX_PARTITIONS = 4;

    public static final String POLICY_GROUP = "policy.open-cluster-management.io";
    public static final String POLICY_API = POLICY_GROUP + "/v1";
    public static final String POLICYSET_API = POLICY_GROUP + "/v1beta1";
    public static final String DEFAULT_CLUSTER_NAMESPACE = "local-cluster";

    private DependenciesDecider() {
    }

    /** The facts of one request (public for rule tests and the benchmark). */
    public static List<Object> facts(JsonNode body) {
        String clusterNs = body.path("clusterNamespace").asText(DEFAULT_CLUSTER_NAMESPACE);
        ServedKinds served = ServedKinds.of(body.path("apiResources"));
        Map<String, List<String>> sets = new HashMap<>();
        List<Object> facts = new ArrayList<>();
        JsonNode policySets = body.path("policySets");
        for (int s = 0; s < policySets.size(); s++) {
            JsonNode set = policySets.get(s);
            String setNs = set.path("namespace").asText("");
            PolicySetFact fact = new PolicySetFact(s, set.path("name").asText(), setNs);
            facts.add(fact);
            List<String> members = new ArrayList<>();
            for (JsonNode member : set.path("policies")) {
                members.add(setNs + "." + member.asText());
                facts.add(new SetMember(fact, member.asText(), setNs + "." + member.asText()));
            }
            sets.put(setNs + "/" + fact.name(), members);
        }
        ObservedObjects observed = observed(body.path("observed"), served);
        JsonNode policies = body.path("policies");
        long templateDependencies = 0;
        for (int p = 0; p < policies.size(); p++) {
            JsonNode policy = policies.get(p);
            String ns = policy.path("namespace").asText();
            String name = policy.path("name").asText();
            facts.add(new PolicyFact(p, name, ns, ns + "." + name));
            JsonNode dependencies = policy.path("dependencies");
            int policyWanted = facts.size();
            for (int d = 0; d < dependencies.size(); d++) {
                String location = "policies[" + p + "].dependencies[" + d + "]";
                for (Dependency dependency : canonical(dependencies.get(d), ns, clusterNs, served, sets)) {
                    facts.add(new Declared(new Wanted(p, null, Source.POLICY, facts.size() - policyWanted, location, dependency,
                            observed.byKey().get(dependency.lookupKey()))));
                }
            }
            policyWanted = facts.size() - policyWanted;
            JsonNode templates = policy.path("policyTemplates");
            for (int t = 0; t < templates.size(); t++) {
                JsonNode template = templates.get(t);
                String kind = template.path("kind").asText();
                Template fact = new Template(p, t, template.path("name").asText(), kind,
                        template.path("ignorePending").asBoolean(false), template.path("applied").asBoolean(false),
                        observed.byLocalKey().get(localKey(kind, clusterNs, template.path("name").asText())),
                        served.servesKind(kind));
                facts.add(fact);
                JsonNode extras = template.path("extraDependencies");
                int extraPosition = 0;
                for (int d = 0; d < extras.size(); d++) {
                    String location = "policies[" + p + "].policyTemplates[" + t + "].extraDependencies[" + d + "]";
                    for (Dependency dependency : canonical(extras.get(d), ns, clusterNs, served, sets)) {
                        facts.add(new Declared(new Wanted(p, fact, Source.EXTRA, extraPosition++, location, dependency,
                                observed.byKey().get(dependency.lookupKey()))));
                    }
                }
                templateDependencies += policyWanted + extraPosition;
            }
            if (templateDependencies > Limits.TEMPLATE_DEPENDENCIES) {
                throw Limits.exceeded("$.policies[" + p + "]", "the templates up to this policy have "
                        + templateDependencies + " dependencies (each template's own plus its policy's, PolicySets "
                        + "expanded): at most " + Limits.TEMPLATE_DEPENDENCIES + " are allowed in one request");
            }
        }
        return facts;
    }

    /**
     * The cost model of a dependencies decision. Each template is judged against each dependency it has (its own and
     * its policy's, PolicySets expanded), and a pending template lists and explains each unmet one, naming it in its
     * message, its {@code unmet} and its {@code waitingOn}: the template dependencies, as
     * {@link Limits#TEMPLATE_DEPENDENCIES} counts them, are most of the work and of the answer. Each weighs
     * {@code 1 + its label's length / 32}, the label ("Kind name") being how the answer names it: a 253-character name
     * is repeated per template (158 KB of 20 policies of 100 templates depending on 10 such ConfigMaps answered 43 MB).
     * A policy weighs {@link #POLICY_WEIGHT} and a template {@link #TEMPLATE_WEIGHT} (their facts, firings and answer
     * entries), a PolicySet member 1. Observed objects are looked up in a hash map while the facts are made, and are no
     * facts: one lookup per dependency, listed, not multiplied; a met dependency costs less than the unmet one counted
     * here (telling them apart is the rules' judgement). The weights make a unit about 5 KiB of heap held at the
     * decision's peak when no dependency is met ({@code io.arbiter.bench.WorkBudgets}, docs/api.md). Rules derive a
     * policy's unmet dependencies once and each template inherits them with one firing, so a decision fires about 3
     * firings per template and per policy dependency, not per (template, dependency).
     */
    static Work work(List<Object> facts, int observed) {
        Map<Integer, Long> templatesOf = new HashMap<>();
        Map<Integer, Long> policyWanted = new HashMap<>();
        long policies = 0;
        long templates = 0;
        long extras = 0;
        long members = 0;
        for (Object fact : facts) {
            if (fact instanceof PolicyFact) {
                policies++;
            } else if (fact instanceof Template template) {
                templates++;
                templatesOf.merge(template.policyIndex(), 1L, Long::sum);
            } else if (fact instanceof Declared declared) {
                Wanted wanted = declared.entry();
                long weight = 1 + wanted.dependency().label().length() / 32;
                if (wanted.source() == Source.POLICY) {
                    policyWanted.merge(wanted.policyIndex(), weight, Long::sum);
                } else {
                    extras += weight;
                }
            } else if (fact instanceof SetMember) {
                members++;
            }
        }
        long weighted = extras;
        for (Map.Entry<Integer, Long> wanted : policyWanted.entrySet()) {
            weighted += wanted.getValue() * templatesOf.getOrDefault(wanted.getKey(), 0L);
        }
        long units = Work.plus(Work.plus(Work.times(POLICY_WEIGHT, policies), Work.times(TEMPLATE_WEIGHT, templates)),
                Work.plus(weighted, members));
        return new Work(KIND, POLICY_WEIGHT + " × policies + " + TEMPLATE_WEIGHT + " × templates + Σ over template"
                + " dependencies of (1 + label length / 32) + PolicySet members", List.of(
                Work.dimension("policies", policies),
                Work.dimension("policyTemplates", templates),
                Work.dimension("weighted template dependencies (each template's own and its policy's, PolicySets"
                        + " expanded, by the length of what they name)", weighted),
                Work.dimension("PolicySet members", members),
                Work.dimension("observed objects (looked up, not multiplied)", observed)),
                units, Limits.DEPENDENCIES_WORK,
                "split the policies over several requests, or send fewer templates per policy or dependencies with"
                        + " shorter names");
    }

    /** Work units per policy: its fact, its compliance and its share of the reporting session. */
    static final long POLICY_WEIGHT = 5;
    /** Work units per template: its state, action, name and answer entry. */
    static final long TEMPLATE_WEIGHT = 2;

    /** The observed objects by {@link Observed#key()} and by {@link Observed#localKey()}. */
    private record ObservedObjects(Map<String, Observed> byKey, Map<String, Observed> byLocalKey) {
    }

    /**
     * Each observed object, found by the identity a dependency names (its key) and by the one a template's own object
     * has (kind, namespace and name: a template gives no apiVersion). Java only looks objects up, as it canonicalises
     * names; the rules judge what it finds. An object listed twice is a bad request: which entry's status counts
     * would be a guess.
     */
    private static ObservedObjects observed(JsonNode observed, ServedKinds served) {
        // sized for every object: a large request observes thousands, and growing the maps cost about a tenth of facts()
        Map<String, Observed> byKey = new HashMap<>(observed.size() * 4 / 3 + 1);
        Map<String, Observed> byLocalKey = new HashMap<>(observed.size() * 4 / 3 + 1);
        List<Problem> problems = new ArrayList<>();
        for (int o = 0; o < observed.size(); o++) {
            JsonNode object = observed.get(o);
            String apiVersion = object.path("apiVersion").asText();
            String kind = object.path("kind").asText();
            String name = object.path("name").asText();
            // where it was observed: only a dependency's lookup moves policy kinds into the cluster namespace
            String effectiveNs = served.namespaced(apiVersion, kind) ? object.path("namespace").asText("") : "";
            Observed fact = new Observed(o, key(apiVersion, kind, effectiveNs, name), localKey(kind, effectiveNs, name),
                    object.path("compliant").isTextual() ? object.get("compliant").asText() : null,
                    totalViolations(object.path("totalViolations")));
            Observed earlier = byLocalKey.putIfAbsent(fact.localKey(), fact);
            if (earlier != null) {
                problems.add(Problem.at("$.observed[" + o + "]", kind + " " + (effectiveNs.isEmpty() ? "" : effectiveNs + "/")
                        + name + " is listed already, as observed[" + earlier.index() + "]: list each object once"));
                continue;
            }
            byKey.put(fact.key(), fact);
        }
        if (!problems.isEmpty()) {
            throw new DecisionException(DecisionException.Code.INVALID_REQUEST,
                    "the dependencies request is invalid: " + problems.get(0), problems);
        }
        return new ObservedObjects(byKey, byLocalKey);
    }

    /**
     * {@code status.totalViolations} as upstream's {@code NestedInt64} reads it (template_sync.go L1384-1391): an
     * integer that fits 64 bits, a negative one included (it counts as violations); anything else (missing, null, a
     * string, a number written with a fraction, one past 2^63-1) is no count, and the dependency is unmet with
     * "Failed to find complianceState on the dependency object". What the cluster holds is never a bad request.
     */
    static Long totalViolations(JsonNode value) {
        return value.isIntegralNumber() && value.canConvertToLong() ? value.longValue() : null;
    }

    /**
     * An apiVersion as Kubernetes reads it (apimachinery {@code ParseGroupVersion}): {@code /v1} is group "" and
     * version v1, which is written {@code v1}. Identities and served kinds compare it in this form.
     */
    static String groupVersion(String apiVersion) {
        int slash = apiVersion.indexOf('/');
        return slash == 0 && apiVersion.indexOf('/', 1) < 0 ? apiVersion.substring(1) : apiVersion;
    }

    /** Hub canonicalisation (section 2): Policy names become {@code <ns>.<name>}; a known PolicySet expands. */
    static List<Dependency> canonical(JsonNode entry, String policyNs, String clusterNs, ServedKinds served,
                                      Map<String, List<String>> sets) {
        String apiVersion = entry.path("apiVersion").asText();
        String kind = entry.path("kind").asText();
        String name = entry.path("name").asText();
        String namespace = entry.path("namespace").asText("");
        String compliance = entry.path("compliance").asText();
        if (kind.equals("Policy") && apiVersion.equals(POLICY_API)) {
            if (!(namespace.isEmpty() && name.contains("."))) {
                name = (namespace.isEmpty() ? policyNs : namespace) + "." + name;
            }
            return List.of(dependency(apiVersion, kind, name, "", compliance, clusterNs, served));
        }
        if (kind.equals("PolicySet") && apiVersion.equals(POLICYSET_API)) {
            String setNs = namespace.isEmpty() ? policyNs : namespace;
            List<String> members = sets.get(setNs + "/" + name);
            if (members == null) {
                return List.of(dependency(apiVersion, kind, name, setNs, compliance, clusterNs, served));
            }
            return members.stream().map(member -> dependency(POLICY_API, "Policy", member, "", compliance, clusterNs, served)).toList();
        }
        return List.of(dependency(apiVersion, kind, name, namespace, compliance, clusterNs, served));
    }

    private static Dependency dependency(String apiVersion, String kind, String name, String namespace, String compliance,
                                         String clusterNs, ServedKinds served) {
        String group = group(apiVersion);
        String key = key(apiVersion, kind, identityNamespace(apiVersion, kind, namespace, clusterNs), name);
        String lookupKey = key(apiVersion, kind, lookupNamespace(apiVersion, kind, namespace, clusterNs, served), name);
        String target = kind.equals("Policy") && group.equals(POLICY_GROUP) ? name : null;
        return new Dependency(apiVersion, group, kind, name, namespace, compliance, key, lookupKey, target,
                served.serves(apiVersion, kind));
    }

    static String group(String apiVersion) {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    /**
     * The namespace of a dependency's identity, as upstream's {@code getDepNamespace} (template_sync.go L1319-1327):
     * the cluster namespace for a policy-group kind ending in Policy, otherwise the namespace as written, even for a
     * cluster-scoped kind. Two dependencies on one cluster-scoped object that differ only in namespace are two
     * dependencies: judged separately, never in conflict, both counted.
     */
    static String identityNamespace(String apiVersion, String kind, String namespace, String clusterNs) {
        return group(apiVersion).equals(POLICY_GROUP) && kind.endsWith("Policy") ? clusterNs : namespace;
    }

    /**
     * Section 2, managed cluster: where a dependency is looked up (L1350-1355). A cluster-scoped kind has no namespace; a
     * policy-group kind ending in Policy is looked up in the cluster namespace, whatever namespace it gives.
     */
    static String lookupNamespace(String apiVersion, String kind, String namespace, String clusterNs, ServedKinds served) {
        return !served.namespaced(apiVersion, kind) ? ""
                : group(apiVersion).equals(POLICY_GROUP) && kind.endsWith("Policy") ? clusterNs : namespace;
    }

    /**
     * The kinds the managed cluster serves and whether each is namespaced, as the request's {@code apiResources}
     * describes them (discovery). Without it, every kind is served, and only the Gatekeeper groups are cluster-scoped.
     * Whether a kind is served is judged by the rules (section 3, row 1); here it only decides where objects live.
     */
    record ServedKinds(Map<String, Boolean> namespacedByType, Set<String> servedKinds) {
        static final Set<String> CLUSTER_SCOPED_GROUPS = Set.of("templates.gatekeeper.sh", "constraints.gatekeeper.sh");

        static ServedKinds of(JsonNode apiResources) {
            if (apiResources.isMissingNode() || apiResources.isNull()) {
                return new ServedKinds(null, Set.of());
            }
            Map<String, Boolean> namespaced = new HashMap<>(apiResources.size() * 4 / 3 + 1);
            Set<String> kinds = new java.util.HashSet<>();
            for (int r = 0; r < apiResources.size(); r++) {
                JsonNode resource = apiResources.get(r);
                String type = type(resource.path("apiVersion").asText(), resource.path("kind").asText());
                kinds.add(resource.path("kind").asText());
                if (namespaced.putIfAbsent(type, resource.path("namespaced").asBoolean()) != null) {
                    Problem problem = Problem.at("$.apiResources[" + r + "]", resource.path("kind").asText() + " of "
                            + resource.path("apiVersion").asText() + " is listed already: list each kind once");
                    throw new DecisionException(DecisionException.Code.INVALID_REQUEST,
                            "the dependencies request is invalid: " + problem, List.of(problem));
                }
            }
            return new ServedKinds(namespaced, kinds);
        }

        private static String type(String apiVersion, String kind) {
            return groupVersion(apiVersion) + "|" + kind;
        }

        boolean serves(String apiVersion, String kind) {
            return namespacedByType == null || namespacedByType.containsKey(type(apiVersion, kind));
        }

        /** A template gives no apiVersion: its kind is served when any listed apiVersion serves it. */
        boolean servesKind(String kind) {
            return namespacedByType == null || servedKinds.contains(kind);
        }

        boolean namespaced(String apiVersion, String kind) {
            Boolean namespaced = namespacedByType == null ? null : namespacedByType.get(type(apiVersion, kind));
            return namespaced != null ? namespaced : !CLUSTER_SCOPED_GROUPS.contains(group(apiVersion));
        }
    }

    private static String key(String apiVersion, String kind, String namespace, String name) {
        return groupVersion(apiVersion) + "|" + kind + "|" + namespace + "|" + name;
    }

    private static String localKey(String kind, String namespace, String name) {
        return kind + "|" + namespace + "|" + name;
    }

    /** What one run of the rule base produced. */
    public record Result(List<TemplateState> states, List<ReportedName> names, List<TemplateAction> actions, List<Unmet> unmet,
                         List<PolicyCompliance> policyCompliances, List<SetCompliance> setCompliances,
                         List<SetMessage> setMessages, List<WaitingOn> waiting, List<PolicyWaitingOn> policyWaiting,
                         List<Cycle> cycles) {
    }

    /**
     * Reads the derived facts by type. Not through DRL queries, as the other decisions do: a large request derives
     * tens of thousands of facts here, and a query costs a lookup per row (5-6% of the 500-policy benchmark).
     */
    public static Result read(KieSession session) {
        return new Result(CompiledRuleBase.factsOf(session, TemplateState.class), CompiledRuleBase.factsOf(session, ReportedName.class),
                CompiledRuleBase.factsOf(session, TemplateAction.class),
                CompiledRuleBase.factsOf(session, Unmet.class).stream().filter(unmet -> unmet.template() != null).toList(),
                CompiledRuleBase.factsOf(session, PolicyCompliance.class), CompiledRuleBase.factsOf(session, SetCompliance.class),
                CompiledRuleBase.factsOf(session, SetMessage.class), CompiledRuleBase.factsOf(session, WaitingOn.class),
                CompiledRuleBase.factsOf(session, PolicyWaitingOn.class), CompiledRuleBase.factsOf(session, Cycle.class));
    }

    /**
     * Gating in partitions of consecutive policies, each in its own session, then one session for the reporting phases
     * over what gating derived. The same decision as one session over every fact
     * (DependenciesPartitionTest); the firings come phase by phase, each phase's partition by partition.
     */
    static CompiledRuleBase.Run<Result> runPartitioned(List<Object> facts, int policies, int partitions,
                                                        CompiledRuleBase ruleBase) {
        List<List<Object>> gating = new ArrayList<>(partitions);
        for (int i = 0; i < partitions; i++) {
            gating.add(new ArrayList<>());
        }
        List<Object> reporting = new ArrayList<>();
        for (Object fact : facts) {
            if (fact instanceof OfPolicy ofPolicy) {
                int partition = (int) ((long) ofPolicy.policyIndex() * partitions / policies);
                gating.get(partition).add(fact);
            } else {
                reporting.add(fact); // PolicySets and their members
            }
            if (fact instanceof PolicyFact) {
                reporting.add(fact);
            }
        }
        CompiledRuleBase.Run<List<Gated>> gated = ruleBase.runPartitions(gating, GATING_PHASES, DependenciesDecider::gated);
        for (Gated partition : gated.result()) {
            partition.handOver(reporting);
        }
        CompiledRuleBase.Run<Result> reported = ruleBase.run(reporting, REPORTING_PHASES, DependenciesDecider::read);

        Result report = reported.result();
        List<Gated> parts = gated.result();
        List<FiredRule> fired = new ArrayList<>(gated.firedRules().size() + reported.firedRules().size());
        fired.addAll(gated.firedRules());
        for (FiredRule firing : reported.firedRules()) {
            fired.add(firing.renumbered(fired.size() + 1));
        }
        return new CompiledRuleBase.Run<>(new Result(joined(parts, Gated::states), joined(parts, Gated::names),
                joined(parts, Gated::actions), joined(parts, Gated::unmet), joined(parts, Gated::compliances),
                report.setCompliances(), report.setMessages(), joined(parts, Gated::waiting), report.policyWaiting(),
                report.cycles()), fired);
    }

    /** What every partition derived of one kind, partition by partition. */
    private static <T> List<T> joined(List<Gated> parts, Function<Gated, List<T>> derived) {
        return parts.stream().flatMap(part -> derived.apply(part).stream()).toList();
    }

    /** What one partition's gating derived: its results, and what the reporting phases read of it. */
    private record Gated(List<TemplateState> states, List<ReportedName> names, List<TemplateAction> actions,
                         List<Unmet> unmet, List<PolicyCompliance> compliances, List<WaitingOn> waiting,
                         List<Wanted> policyTargets) {

        /** The facts the reporting rules match (20-reporting.drl): compliances, what templates wait on, edges. */
        void handOver(List<Object> reporting) {
            reporting.addAll(compliances);
            reporting.addAll(waiting);
            reporting.addAll(policyTargets);
        }
    }

    private static Gated gated(KieSession session) {
        return new Gated(CompiledRuleBase.factsOf(session, TemplateState.class), CompiledRuleBase.factsOf(session, ReportedName.class),
                CompiledRuleBase.factsOf(session, TemplateAction.class),
                CompiledRuleBase.factsOf(session, Unmet.class).stream().filter(unmet -> unmet.template() != null).toList(),
                CompiledRuleBase.factsOf(session, PolicyCompliance.class), CompiledRuleBase.factsOf(session, WaitingOn.class),
                CompiledRuleBase.factsOf(session, Wanted.class).stream().filter(wanted -> wanted.targetPolicy() != null).toList());
    }

    public static DependenciesDecision decide(JsonNode body, CompiledRuleBase ruleBase) {
        return decide(body, ruleBase, partitions(body.path("policies").size()));
    }

    /**
     * How many partitions of policies a request is gated in. It depends on the request only, not on the machine's
     * cores, so a request's fired rules are the same wherever it is decided.
     */
    static int partitions(int policies) {
        return Math.max(1, Math.min(MAX_PARTITIONS, policies / POLICIES_PER_PARTITION));
    }

    /** As {@link #decide(JsonNode, CompiledRuleBase)}, gating in the given number of partitions (tests and benchmarks). */
    public static DependenciesDecision decide(JsonNode body, CompiledRuleBase ruleBase, int partitions) {
        List<Object> facts = facts(body);
        work(facts, body.path("observed").size()).requireWithinBudget();
        CompiledRuleBase.Run<Result> run = partitions > 1
                ? runPartitioned(facts, body.path("policies").size(), partitions, ruleBase)
                : ruleBase.run(facts, PHASES, DependenciesDecider::read);
        Result result = run.result();
        JsonNode requested = body.path("policies");
        TemplateOutcome[][] outcomes = outcomes(requested, result);
        String[] policyCompliance = new String[requested.size()];
        result.policyCompliances().forEach(c -> policyCompliance[c.policy().index()] = c.compliant());

        List<PolicyResult> policies = new ArrayList<>(requested.size());
        for (int p = 0; p < requested.size(); p++) {
            JsonNode policy = requested.get(p);
            JsonNode requestedTemplates = policy.path("policyTemplates");
            List<TemplateResult> templates = new ArrayList<>(requestedTemplates.size());
            for (int t = 0; t < requestedTemplates.size(); t++) {
                templates.add(outcomes[p][t].render(t, requestedTemplates.get(t).path("name").asText()));
            }
            policies.add(new PolicyResult(policy.path("name").asText(), policy.path("namespace").asText(),
                    policyCompliance[p], templates));
        }

        Map<Integer, String> setCompliance = new HashMap<>();
        result.setCompliances().forEach(c -> setCompliance.put(c.set().index(), c.compliant()));
        Map<Integer, String> setMessage = new HashMap<>();
        result.setMessages().forEach(m -> setMessage.put(m.set().index(), m.message()));
        List<SetResult> sets = new ArrayList<>();
        JsonNode requestedSets = body.path("policySets");
        for (int s = 0; s < requestedSets.size(); s++) {
            sets.add(new SetResult(requestedSets.get(s).path("name").asText(),
                    requestedSets.get(s).path("namespace").asText(""), setCompliance.get(s), setMessage.get(s)));
        }
        return new DependenciesDecision(policies, sets, pendingPolicies(result), cycles(result), run.firedRules());
    }

    /**
     * What the rules derived for each template, by position ({@code [policy][template]}): a large request has
     * thousands of templates, and slots found by index cost less than maps keyed by template.
     */
    private static TemplateOutcome[][] outcomes(JsonNode requested, Result result) {
        TemplateOutcome[][] outcomes = new TemplateOutcome[requested.size()][];
        for (int p = 0; p < outcomes.length; p++) {
            outcomes[p] = new TemplateOutcome[requested.get(p).path("policyTemplates").size()];
            for (int t = 0; t < outcomes[p].length; t++) {
                outcomes[p][t] = new TemplateOutcome();
            }
        }
        result.states().forEach(s -> outcomes[s.template().policyIndex()][s.template().index()].state = s);
        result.names().forEach(n -> outcomes[n.template().policyIndex()][n.template().index()].name = n.name());
        result.actions().forEach(a -> outcomes[a.template().policyIndex()][a.template().index()].action = a.action());
        result.unmet().forEach(u -> outcomes[u.template().policyIndex()][u.template().index()].unmet.add(u));
        result.waiting().forEach(w -> outcomes[w.template().policyIndex()][w.template().index()].waiting.add(w.label()));
        return outcomes;
    }

    /** One template's derived facts, gathered for rendering. */
    private static final class TemplateOutcome {
        /** Request order: the policy's dependencies, then the template's own; a PolicySet's members in its order. */
        private static final Comparator<Unmet> IN_REQUEST_ORDER = Comparator.comparing((Unmet u) -> u.wanted().source())
                .thenComparingInt(u -> u.wanted().position());

        TemplateState state;
        String name;
        Action action;
        final List<Unmet> unmet = new ArrayList<>(0);
        final Set<String> waiting = new java.util.TreeSet<>(DependencyFacts.GO_ORDER);

        TemplateResult render(int index, String requestedName) {
            List<UnmetDependency> unmetDependencies = state == null || state.state() == State.TEMPLATE_ERROR ? List.of()
                    : unmet.stream().sorted(IN_REQUEST_ORDER).map(u -> new UnmetDependency(ref(u.wanted().dependency()), u.reason()))
                    .toList();
            return new TemplateResult(index, name != null ? name : requestedName, state == null ? null : state.state(),
                    state == null ? null : state.compliant(), state == null ? null : state.message(), action,
                    unmetDependencies, List.copyOf(waiting));
        }
    }

    /** Each waited-on pending request policy with what it waits on directly, by canonical name. */
    static List<PendingPolicy> pendingPolicies(Result result) {
        Map<String, Set<String>> waiting = new TreeMap<>(DependencyFacts.GO_ORDER);
        result.policyWaiting().forEach(w -> waiting.computeIfAbsent(w.policy().canonical(), k -> new java.util.TreeSet<>(DependencyFacts.GO_ORDER))
                .add(w.label()));
        List<PendingPolicy> pending = new ArrayList<>(waiting.size());
        waiting.forEach((policy, labels) -> pending.add(new PendingPolicy(policy, List.copyOf(labels))));
        return pending;
    }

    /** Each cycle as the names around its loop ({@link DependencyGraph}), from its smallest policy. */
    static List<List<String>> cycles(Result result) {
        return result.cycles().stream().sorted(Comparator.comparing(c -> c.first().canonical()))
                .map(cycle -> cycle.loop().stream().map(PolicyFact::canonical).toList()).toList();
    }

    private static DependencyRef ref(Dependency dependency) {
        return new DependencyRef(dependency.apiVersion(), dependency.kind(), dependency.name(),
                dependency.namespace().isEmpty() ? null : dependency.namespace(), dependency.compliance());
    }
}
