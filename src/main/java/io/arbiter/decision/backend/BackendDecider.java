package io.arbiter.decision.backend;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.decision.DecisionException;
import io.arbiter.decision.Limits;
import io.arbiter.decision.Work;
import io.arbiter.decision.Snapshot;
import io.arbiter.decision.backend.BackendFacts.BackendChoice;
import io.arbiter.decision.backend.BackendFacts.BackendRule;
import io.arbiter.decision.backend.BackendFacts.TypeQuery;
import io.arbiter.decision.backend.BackendFacts.TypeRefPrefix;
import io.arbiter.decision.merge.PolicyMerge;
import io.arbiter.document.DocumentException;
import io.arbiter.document.LocatedDocument;
import io.arbiter.document.Problem;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.model.Ref;
import io.arbiter.policy.HubStorageCheck;
import io.arbiter.policy.Policy;
import io.arbiter.policy.PolicyParser;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import java.util.Map;
import java.util.List;

/** Decides the storage backend of each requested Type. Java prepares facts and renders; the rules decide. */
public final class BackendDecider {

    public static final String KIND = "backend";
    public static final List<String> PHASES = io.arbiter.engine.Phases.of(KIND);

    private BackendDecider() {
    }

    public static BackendDecision decide(LocatedDocument request, Snapshot snapshot, CompiledRuleBase ruleBase) {
        return decide(request, snapshot, ruleBase, false).decision();
    }

    /** A decision and, for analysis, the Types each rule (by its typeRef) names: its candidates and pattern covers. */
    public record Analysis(BackendDecision decision, Map<Ref, Set<Ref>> named) {
    }

    /**
     * {@code analysis}: a lint's decision, which asks about the server's own Types under the operator's own policy, in
     * batches: it is not refused past {@link Limits#BACKEND_WORK} (a request's decision is), and it reads which Types
     * each rule names as the rules derived it (a candidate at an exact level, or a pattern's cover).
     */
    public static Analysis decide(LocatedDocument request, Snapshot snapshot, CompiledRuleBase ruleBase, boolean analysis) {
        JsonNode body = request.tree();
        List<Object> policyFacts = new ArrayList<>();
        Policy action = body.hasNonNull("actionPolicy") ? actionPolicy(body.get("actionPolicy"), request, snapshot) : null;
        for (PolicyMerge.Sourced sourced : PolicyMerge.policies(action, snapshot.policy().policy(), List.of())) {
            policyFacts.add(sourced.source());
            ruleFacts(sourced.policy(), sourced.source().id(), sourced.prefix(), policyFacts);
        }
        policyFacts.addAll(PolicyMerge.configuredRanks(snapshot.policyOrder()));
        // a Type's prefixes of the lengths the patterns' prefixes have: no other prefix can be a pattern's
        Set<Integer> patternLengths = new HashSet<>();
        for (Object fact : policyFacts) {
            if (fact instanceof BackendRule rule && rule.pattern()) {
                patternLengths.add(rule.prefixLength());
            }
        }
        List<Object> facts = new ArrayList<>();
        JsonNode typeRefs = body.path("typeRefs");
        for (int i = 0; i < typeRefs.size(); i++) {
            JsonNode ref = typeRefs.get(i);
            facts.addAll(TypeRefPrefix.factsOf(new TypeQuery(i, new Ref(ref.path("path").asText(),
                    ref.path("revision").isTextual() ? ref.path("revision").asText() : null)), patternLengths));
        }
        facts.addAll(policyFacts);

        if (!analysis) {
            work(facts).requireWithinBudget();
        }
        Map<Ref, Set<Ref>> named = new HashMap<>();
        CompiledRuleBase.Run<List<BackendChoice>> run = ruleBase.run(facts, PHASES, session -> {
            if (analysis) {
                CompiledRuleBase.factsOf(session, BackendFacts.LevelCandidate.class).forEach(candidate -> named.computeIfAbsent(
                        candidate.rule().typeRef(), rule -> new HashSet<>()).add(candidate.query().typeRef()));
                CompiledRuleBase.factsOf(session, BackendFacts.PatternCover.class).forEach(cover -> named.computeIfAbsent(
                        cover.rule().typeRef(), rule -> new HashSet<>()).add(cover.query().typeRef()));
            }
            List<BackendChoice> choices = CompiledRuleBase.factsOf(session, BackendChoice.class);
            choices.sort(Comparator.comparingInt(choice -> choice.query().index()));
            return choices;
        });
        List<BackendDecision.TypeBackend> backends = run.result().stream().map(choice -> new BackendDecision.TypeBackend(
                choice.query().typeRef(),
                choice.rule() == null ? null : new BackendDecision.Backend(choice.rule().backendId(), choice.rule().backendDescription()),
                choice.level(),
                choice.rule() == null ? null : choice.rule().typeRef())).toList();
        return new Analysis(new BackendDecision(backends, run.firedRules()), named);
    }

    /**
     * The cost model of a backend decision, linear in what the rules join. Each requested Type is inserted with one
     * fact per prefix of its path as long as some pattern's prefix, and each prefix looks up the pattern rules with
     * that prefix (a hash join): {@code prefixes}; no pattern is tried against a Type it cannot cover. Each pattern
     * found covers the Type, deriving a fact and a firing, and the longest of a Type's covers is found in one pass over
     * them: {@code covers}, counted here from an index of the pattern rules by prefix (an upper bound: a pattern of
     * another revision, or replaced in the merge, is counted too). Each rule takes part with a firing, each Type is
     * parsed, decided with a few firings and answered: {@code typeRefs}. Rules for the same typeRef are compared when
     * the policies merge: {@code Σ rules(typeRef)²}. The weights are heap: a unit is about half a KiB held while
     * deciding (a prefix fact), a cover about 4.5 KiB, a Type about 10 KiB
     * ({@code io.arbiter.bench.WorkBudgets}, docs/api.md). A decision fires at most
     * {@code 2 × rules + covers + 3 × typeRefs} rules (plus the replaced pairs of the merge).
     */
    static Work work(List<Object> facts) {
        Map<String, Long> patternsByPrefix = new HashMap<>();
        Map<Ref, Long> sameTypeRef = new HashMap<>();
        long typeRefs = 0;
        long rules = 0;
        long patterns = 0;
        for (Object fact : facts) {
            if (fact instanceof TypeQuery) {
                typeRefs++;
            } else if (fact instanceof BackendRule rule) {
                rules++;
                sameTypeRef.merge(rule.typeRef(), 1L, Long::sum);
                if (rule.pattern()) {
                    patterns++;
                    patternsByPrefix.merge(rule.prefix(), 1L, Long::sum);
                }
            }
        }
        long prefixes = 0;
        long covers = 0;
        long coverUnits = 0;
        long most = 0;
        for (Object fact : facts) {
            if (fact instanceof TypeRefPrefix prefix) {
                prefixes++;
                long found = patternsByPrefix.getOrDefault(prefix.prefix(), 0L);
                covers += found;
                // a cover's firing names the Type and the prefix: a long path is repeated by each
                coverUnits = Work.plus(coverUnits, Work.times(found,
                        FIRING_WEIGHT + prefix.query().typeRef().path().length() / 32));
                most = Math.max(most, found);
            }
        }
        long merged = sameTypeRef.values().stream().mapToLong(n -> n * n).sum();
        long units = Work.plus(Work.plus(Work.times(TYPE_REF_WEIGHT, typeRefs), prefixes),
                Work.plus(Work.plus(coverUnits, Work.times(FIRING_WEIGHT, rules)), merged));
        return new Work(KIND, TYPE_REF_WEIGHT + " × typeRefs + their prefixes as long as a pattern's + " + FIRING_WEIGHT
                + " × backend rules + Σ over (typeRef, covering pattern) of (" + FIRING_WEIGHT + " + path length / 32)"
                + " + Σ over typeRefs named by rules of those rules²", List.of(
                Work.dimension("typeRefs", typeRefs),
                Work.dimension("prefixes of their paths as long as a pattern's", prefixes),
                Work.dimension("backend rules (action and global typeInstance.rules)", rules),
                Work.dimension("pattern rules", patterns),
                Work.dimension("(typeRef, pattern with one of its prefixes) pairs", covers),
                Work.dimension("most patterns sharing one prefix", most),
                Work.dimension("rules naming the same typeRef, squared and summed", merged)),
                units, Limits.BACKEND_WORK,
                "split typeRefs over several requests, or send fewer pattern rules covering the same Types in actionPolicy");
    }

    /** Work units per requested Type: its parse, its few firings and its answer entry (about 10 KiB). */
    static final long TYPE_REF_WEIGHT = 20;
    /**
     * Work units per cover or rule: its firing, held with its record and answer line, and for a cover at a Type's
     * longest prefix the level firing after it (about 4.5 KiB; bench/worst-case.sh: 25 copies of one pattern over 500
     * Types held 70 MiB at 6).
     */
    static final long FIRING_WEIGHT = 9;

    /** The request's action policy, held to what PUT /v1/policy holds the global one to: its backends are Hub storages. */
    private static Policy actionPolicy(JsonNode tree, LocatedDocument request, Snapshot snapshot) {
        Policy policy;
        List<Problem> problems;
        try {
            policy = PolicyParser.parseEmbedded(tree, "$.actionPolicy", request.locations());
            problems = HubStorageCheck.problems(policy, snapshot.typeInstances(), snapshot.catalog()).stream()
                    .map(problem -> problem.under("$.actionPolicy").locatedBy(request.locations())).toList();
        } catch (DocumentException e) {
            problems = e.problems();
            policy = null;
        }
        if (!problems.isEmpty()) {
            throw new DecisionException(DecisionException.Code.INVALID_POLICY,
                    "the policy at $.actionPolicy cannot be applied: " + problems.get(0), problems);
        }
        return policy;
    }

    private static void ruleFacts(Policy policy, String sourceId, String prefix, List<Object> facts) {
        for (int i = 0; i < policy.typeInstanceRules().size(); i++) {
            Policy.TypeInstanceRule rule = policy.typeInstanceRules().get(i);
            String path = rule.typeRef().path();
            boolean pattern = path.endsWith(".*");
            facts.add(new BackendRule(prefix + "typeInstance.rules[" + i + "]", sourceId, rule.typeRef(), pattern,
                    pattern ? path.substring(0, path.length() - 1) : path, rule.backend().id(), rule.backend().description()));
        }
    }
}
