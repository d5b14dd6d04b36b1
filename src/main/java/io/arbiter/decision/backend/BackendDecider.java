package io.arbiter.decision.backend;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.decision.DecisionException;
import io.arbiter.decision.Limits;
import io.arbiter.decision.Work;
import io.arbiter.decision.Snapshot;
import io.arbiter.decision.backend.BackendFacts.BackendChoice;
import io.arbiter.decision.backend.BackendFacts.BackendRule;
import io.arbiter.decision.backend.BackendFacts.TypeQuery;
import io.arbiter.decision.merge.PolicyMergeFacts.ConfiguredRank;
import io.arbiter.decision.merge.PolicyMergeFacts.PolicySource;
import io.arbiter.decision.merge.PolicyMergeFacts.SourceKind;
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
import java.util.Map;
import java.util.List;

/** Decides the storage backend of each requested Type. Java prepares facts and renders; the rules decide. */
public final class BackendDecider {

    public static final String KIND = "backend";
    public static final List<String> PHASES = List.of("merge-order", "backend-merge", "backend-effective",
            "backend-candidates", "backend-levels", "backend-priority", "backend-builtin");

    private BackendDecider() {
    }

    public static BackendDecision decide(LocatedDocument request, Snapshot snapshot, CompiledRuleBase ruleBase) {
        return decide(request, snapshot, ruleBase, true);
    }

    /**
     * {@code budgeted}: a request's decision is refused past {@link Limits#BACKEND_WORK}; the lint's decisions ask
     * about the server's own Types under the operator's own policy, in batches, and are not.
     */
    public static BackendDecision decide(LocatedDocument request, Snapshot snapshot, CompiledRuleBase ruleBase,
                                         boolean budgeted) {
        JsonNode body = request.tree();
        List<Object> facts = new ArrayList<>();
        JsonNode typeRefs = body.path("typeRefs");
        for (int i = 0; i < typeRefs.size(); i++) {
            JsonNode ref = typeRefs.get(i);
            facts.add(new TypeQuery(i, new Ref(ref.path("path").asText(),
                    ref.path("revision").isTextual() ? ref.path("revision").asText() : null)));
        }
        if (body.hasNonNull("actionPolicy")) {
            Policy action = actionPolicy(body.get("actionPolicy"), request, snapshot);
            facts.add(new PolicySource("actionPolicy", SourceKind.ACTION, 0, "$.actionPolicy"));
            ruleFacts(action, "actionPolicy", "$.actionPolicy.", facts);
        }
        facts.add(new PolicySource("global", SourceKind.GLOBAL, 0, "$"));
        ruleFacts(snapshot.policy().policy(), "global", "", facts);
        for (int rank = 0; rank < snapshot.policyOrder().size(); rank++) {
            facts.add(new ConfiguredRank(SourceKind.valueOf(snapshot.policyOrder().get(rank)), rank + 1));
        }

        if (budgeted) {
            work(facts).requireWithinBudget();
        }
        CompiledRuleBase.Run<List<BackendChoice>> run = ruleBase.run(facts, PHASES, session -> {
            List<BackendChoice> choices = CompiledRuleBase.factsOf(session, BackendChoice.class);
            choices.sort(Comparator.comparingInt(choice -> choice.query().index()));
            return choices;
        });
        List<BackendDecision.TypeBackend> backends = run.result().stream().map(choice -> new BackendDecision.TypeBackend(
                choice.query().typeRef(),
                choice.rule() == null ? null : new BackendDecision.Backend(choice.rule().backendId(), choice.rule().backendDescription()),
                choice.level(),
                choice.rule() == null ? null : choice.rule().typeRef())).toList();
        return new BackendDecision(backends, run.firedRules());
    }

    /**
     * The cost model of a backend decision. Each requested Type is compared with each pattern rule (the request's
     * action policy's and the global policy's; rules for an exact path are looked up, not compared):
     * {@code typeRefs × pattern rules}. Each rule that could choose a Type's backend (a pattern covering it, a rule for
     * its path) derives a candidate, a firing and a fact, and a Type's candidates are compared with each other to find
     * the one that applies: {@code Σ candidates(Type)²}, up to {@code typeRefs × depth²} for patterns nested
     * {@code depth} deep. Rules for the same typeRef are compared when the policies merge: {@code Σ rules(typeRef)²}.
     * A decision fires at most {@code 2 × rules + 3 × typeRefs + candidates} rules and answers one entry per typeRef.
     */
    static Work work(List<Object> facts) {
        List<TypeQuery> queries = new ArrayList<>();
        List<BackendRule> patterns = new ArrayList<>();
        Map<String, List<BackendRule>> byPath = new HashMap<>();
        Map<Ref, Long> sameTypeRef = new HashMap<>();
        long rules = 0;
        for (Object fact : facts) {
            if (fact instanceof TypeQuery query) {
                queries.add(query);
            } else if (fact instanceof BackendRule rule) {
                rules++;
                sameTypeRef.merge(rule.typeRef(), 1L, Long::sum);
                if (rule.pattern()) {
                    patterns.add(rule);
                } else {
                    byPath.computeIfAbsent(rule.typeRef().path(), path -> new ArrayList<>()).add(rule);
                }
            }
        }
        long candidates = 0;
        long comparisons = 0;
        long most = 0;
        for (TypeQuery query : queries) {
            // what the candidate rules of rules/backend/ match, in Java only to count them: the rules decide
            Ref type = query.typeRef();
            long of = patterns.stream().filter(rule -> type.path().startsWith(rule.prefix()) && revisionFits(rule, type))
                    .count()
                    + byPath.getOrDefault(type.path(), List.of()).stream().filter(rule -> revisionFits(rule, type)).count();
            candidates += of;
            comparisons = Work.plus(comparisons, Work.times(of, of));
            most = Math.max(most, of);
        }
        long merged = sameTypeRef.values().stream().mapToLong(n -> n * n).sum();
        long units = Work.plus(Work.plus(Work.times(queries.size(), patterns.size()), comparisons), merged);
        return new Work(KIND, "typeRefs × pattern rules + Σ over typeRefs of candidate rules² + Σ over typeRefs named"
                + " by rules of those rules²", List.of(
                Work.dimension("typeRefs", queries.size()),
                Work.dimension("backend rules (action and global typeInstance.rules)", rules),
                Work.dimension("pattern rules", patterns.size()),
                Work.dimension("candidate (typeRef, rule) pairs", candidates),
                Work.dimension("most candidate rules of one typeRef", most),
                Work.dimension("rules naming the same typeRef, squared and summed", merged)),
                units, Limits.BACKEND_WORK,
                "split typeRefs over several requests, or send fewer (or less deeply nested) pattern rules in actionPolicy");
    }

    /** A rule with a revision applies only to that revision of its path. */
    private static boolean revisionFits(BackendRule rule, Ref type) {
        return rule.typeRef().revision() == null || rule.typeRef().revision().equals(type.revision());
    }

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
