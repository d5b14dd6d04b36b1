package io.arbiter.analysis;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.catalog.Revisions;
import io.arbiter.decision.Snapshot;
import io.arbiter.decision.backend.BackendDecider;
import io.arbiter.decision.backend.BackendPolicyType;
import io.arbiter.document.Documents;
import io.arbiter.document.Problem;
import io.arbiter.model.Ref;
import io.arbiter.model.Requirement;
import io.arbiter.model.TypeInstance;
import io.arbiter.policy.Policy;
import io.arbiter.policy.PolicyDocument;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The policy's {@code typeInstance.rules}, run through the backend decision for every Type the catalog and store
 * know, which also says which Types each rule names (its candidates and covers): a rule that never chooses the
 * backend of a Type it names, because a more specific rule always does, is shadowed; a rule that names no known Type
 * decides nothing here.
 */
final class BackendPolicyAnalysis {

    private static final int BATCH = 1000; // the backend request's typeRefs limit

    private BackendPolicyAnalysis() {
    }

    static List<Finding> analyse(PolicyDocument document, Snapshot snapshot) {
        List<Policy.TypeInstanceRule> rules = document.policy().typeInstanceRules();
        if (rules.isEmpty()) {
            return List.of();
        }
        Set<Ref> known = new TreeSet<>(Comparator.comparing(Ref::path)
                .thenComparing(Ref::revision, Comparator.nullsFirst(Revisions.ASCENDING)));
        known.addAll(snapshot.catalog().typeRefs());
        snapshot.typeInstances().all().stream().map(TypeInstance::typeRef).forEach(known::add);
        snapshot.catalog().implementations().stream().flatMap(impl -> impl.requirements().stream())
                .map(Requirement::typeRef).forEach(known::add);
        Snapshot with = snapshot.withPolicy(document);
        List<Ref> types = List.copyOf(known);
        Map<Ref, Ref> decidedBy = new LinkedHashMap<>();
        Map<Ref, Set<Ref>> namedBy = new java.util.HashMap<>();
        for (int from = 0; from < types.size(); from += BATCH) {
            ObjectNode request = Documents.jsonMapper().createObjectNode();
            ArrayNode refs = request.putArray("typeRefs");
            types.subList(from, Math.min(types.size(), from + BATCH)).forEach(ref -> {
                ObjectNode node = refs.addObject().put("path", ref.path());
                if (ref.revision() != null) {
                    node.put("revision", ref.revision());
                }
            });
            BackendDecider.Analysis analysis = BackendDecider.decide(Documents.parseJson(Documents.jsonMapper().valueToTree(request)
                    .toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)), with, with.ruleBase(BackendPolicyType.NAME), true);
            analysis.decision().backends().forEach(backend -> decidedBy.put(backend.typeRef(), backend.ruleTypeRef()));
            analysis.named().forEach((rule, named) -> namedBy.computeIfAbsent(rule, r -> new java.util.HashSet<>()).addAll(named));
        }
        List<Finding> findings = new ArrayList<>();
        for (int i = 0; i < rules.size(); i++) {
            Ref key = rules.get(i).typeRef();
            List<Ref> named = types.stream().filter(namedBy.getOrDefault(key, Set.of())::contains).toList();
            String at = "$.typeInstance.rules[" + i + "].typeRef";
            if (named.isEmpty()) {
                findings.add(Finding.warning("unknown-type", Problem.at(at, "no Type the catalog or the TypeInstance store"
                        + " knows is named by " + key + ": this backend rule decides nothing here")));
                continue;
            }
            if (named.stream().noneMatch(type -> key.equals(decidedBy.get(type)))) {
                Set<String> winners = new TreeSet<>();
                named.forEach(type -> winners.add(type + (decidedBy.get(type) == null ? " goes to the built-in storage"
                        : " by the rule for " + decidedBy.get(type))));
                findings.add(Finding.warning("shadowed-backend-rule", Problem.at(at, "never chooses a backend: for every"
                        + " Type it names another rule decides (" + String.join("; ", winners) + ")")));
            }
        }
        return findings;
    }
}
