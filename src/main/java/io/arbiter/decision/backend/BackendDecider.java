package io.arbiter.decision.backend;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.decision.DecisionException;
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
import java.util.List;
import java.util.UUID;

/** Decides the storage backend of each requested Type. Java prepares facts and renders; the rules decide. */
public final class BackendDecider {

    public static final String KIND = "backend";
    public static final List<String> PHASES = List.of("merge-order", "backend-merge", "backend-effective",
            "backend-candidates", "backend-levels", "backend-priority", "backend-builtin");

    private BackendDecider() {
    }

    public static BackendDecision decide(LocatedDocument request, Snapshot snapshot, CompiledRuleBase ruleBase) {
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
        return new BackendDecision(UUID.randomUUID().toString(), backends, run.firedRules(),
                snapshot.policy().revision(), ruleBase.revision());
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
