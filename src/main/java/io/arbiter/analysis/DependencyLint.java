package io.arbiter.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.decision.DecisionException;
import io.arbiter.runtime.Decisions;
import io.arbiter.document.DocumentException;
import io.arbiter.document.Documents;
import io.arbiter.document.LocatedDocument;
import io.arbiter.document.Nodes;
import io.arbiter.document.Problem;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Lint of dependency policies (the {@code policies} of a dependencies request, observations optional): the
 * dependencies decision itself runs on them, and its cycles are errors (those policies wait on each other forever),
 * and dependencies on a Policy or PolicySet the document does not hold are warnings (it may exist on the hub).
 */
public final class DependencyLint {

    private DependencyLint() {
    }

    /** A document of dependency policies: a top-level {@code policies} list. */
    public static boolean isDependencyPolicies(byte[] body, String contentType) {
        try {
            return Documents.parse(body, contentType).tree().path("policies").isArray();
        } catch (DocumentException e) {
            return false;
        }
    }

    public static List<Finding> lint(byte[] body, String contentType, Decisions decisions) {
        LocatedDocument text;
        try {
            text = Documents.parse(body, contentType);
        } catch (DocumentException e) {
            return PolicyLint.sorted(e.problems().stream().map(problem -> Finding.error("syntax", problem)).toList());
        }
        if (!text.tree().isObject()) {
            return List.of(Finding.error("schema", Problem.at("$", "dependency policies are an object with a policies list")
                    .locatedBy(text.locations())));
        }
        ObjectNode request = text.tree().deepCopy();
        if (!request.has("observed")) {
            request.putArray("observed");
        }
        JsonNode decision;
        try {
            decision = decisions.decide("dependencies", Documents.jsonMapper().writeValueAsBytes(request), "application/json");
        } catch (DecisionException e) {
            // located again in the file's own text: the decision located them in the request it was given
            return PolicyLint.sorted(e.problems().stream().map(problem -> Finding.error("schema",
                    Problem.at(problem.path(), problem.problem()).locatedBy(text.locations()))).toList());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        List<JsonNode> policies = Nodes.items(text.tree().path("policies"));
        List<Finding> findings = new ArrayList<>();
        for (JsonNode cycle : decision.path("cycles")) {
            List<String> members = new ArrayList<>();
            cycle.forEach(member -> members.add(member.asText()));
            int at = indexOf(policies, members.get(0));
            findings.add(Finding.error("dependency-cycle", Problem.at(at < 0 ? "$.policies" : "$.policies[" + at + "]",
                    "dependency cycle " + String.join(" -> ", members) + " -> " + members.get(0)
                            + ": these policies wait on each other and never become compliant").locatedBy(text.locations())));
        }
        Set<String> reported = new LinkedHashSet<>();
        List<JsonNode> results = Nodes.items(decision.path("policies"));
        for (int i = 0; i < results.size(); i++) {
            for (JsonNode template : results.get(i).path("templates")) {
                for (JsonNode unmet : template.path("unmet")) {
                    JsonNode dependency = unmet.path("dependency");
                    String name = dependency.path("name").asText();
                    String kind = dependency.path("kind").asText();
                    boolean policyKind = kind.equals("Policy") || kind.equals("PolicySet");
                    if (!policyKind || indexOf(policies, name) >= 0 || !reported.add(i + " " + kind + " " + name)) {
                        continue;
                    }
                    String path = "$.policies[" + i + "].policyTemplates[" + template.path("index").asInt() + "]";
                    findings.add(Finding.warning("unknown-dependency", Problem.at(path, kind + " " + name + " is not one of"
                            + " these policies: unless the hub has it, the template waits forever ("
                            + unmet.path("reason").asText() + ")").locatedBy(text.locations())));
                }
            }
        }
        return PolicyLint.sorted(findings);
    }

    /** The index of the policy a canonical name ({@code namespace.name}) or a plain name names, or -1. */
    private static int indexOf(List<JsonNode> policies, String canonical) {
        for (int i = 0; i < policies.size(); i++) {
            JsonNode policy = policies.get(i);
            String name = policy.path("name").asText();
            String namespace = policy.path("namespace").asText("");
            if (canonical.equals(name) || canonical.equals(namespace + "." + name)) {
                return i;
            }
        }
        return -1;
    }
}
