package io.arbiter.decision.implementation;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.catalog.ManifestLoader;
import io.arbiter.catalog.TypeInstanceLoader;
import io.arbiter.decision.DecisionException;
import io.arbiter.decision.DecisionException.Code;
import io.arbiter.decision.Limits;
import io.arbiter.document.DocumentException;
import io.arbiter.document.LocatedDocument;
import io.arbiter.document.Nodes;
import io.arbiter.document.Problem;
import io.arbiter.model.Implementation;
import io.arbiter.model.Ref;
import io.arbiter.model.TypeInstance;
import io.arbiter.policy.Policy;
import io.arbiter.policy.PolicyParser;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Turns a request document, which its JSON Schema ({@code /schemas/implementation-request.json}) has already
 * accepted, into an {@link ImplementationRequest}: what the schema cannot say is checked here. Malformed requests are
 * 400 {@code INVALID_REQUEST}; invalid embedded policies are 422 {@code INVALID_POLICY} located under their field.
 */
public final class ImplementationRequestParser {

    /** Fields of an inline manifest that name something: at most {@link Limits#PATH_LENGTH} characters. */
    private static final Set<String> IDENTIFIERS = Set.of("path", "prefix", "name", "alias", "kind", "ocfVersion");

    private ImplementationRequestParser() {
    }

    public static ImplementationRequest parse(LocatedDocument document) {
        JsonNode body = document.tree();
        List<Problem> problems = new ArrayList<>();
        JsonNode requested = body.path("interface");
        JsonNode revision = requested.path("revision");
        Ref interfaceRef = new Ref(requested.path("path").asText(), revision.isTextual() ? revision.asText() : null);
        List<Implementation> implementations = implementations(body.path("implementations"), problems);
        List<TypeInstance> typeInstances = typeInstances(body.path("typeInstances"), problems);
        List<JsonNode> steps = Nodes.items(body.path("workflowPolicies"));
        for (int i = 0; i < steps.size(); i++) {
            workflowStepProblems(steps.get(i), "$.workflowPolicies[" + i + "]", problems);
        }
        if (!problems.isEmpty()) {
            throw invalid(problems, document);
        }

        Policy actionPolicy = null;
        List<Problem> policyProblems = new ArrayList<>();
        if (body.hasNonNull("actionPolicy")) {
            actionPolicy = embeddedPolicy(body.get("actionPolicy"), "$.actionPolicy", document, policyProblems);
        }
        List<Policy> workflowPolicies = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            Policy policy = embeddedPolicy(steps.get(i), "$.workflowPolicies[" + i + "]", document, policyProblems);
            if (policy != null) {
                workflowPolicies.add(policy);
            }
        }
        if (!policyProblems.isEmpty()) {
            throw new DecisionException(Code.INVALID_POLICY, "the policies in the request cannot be applied: "
                    + policyProblems.get(0), policyProblems);
        }
        return new ImplementationRequest(interfaceRef, actionPolicy, workflowPolicies, implementations, typeInstances,
                body.path("explain").asBoolean(false));
    }

    /**
     * A Workflow-step policy may carry only {@code interface.rules[]} whose items inject
     * {@code additionalParameters} (policy-syntax 5); anything else is refused. Unknown fields are left to the
     * policy schema, and so are wrong shapes: this check runs before it, so it walks only what has the right shape.
     */
    private static void workflowStepProblems(JsonNode policy, String at, List<Problem> problems) {
        String why = "a Workflow-step policy may only carry interface.rules with additionalParameters";
        policy.fieldNames().forEachRemaining(name -> {
            if (!name.equals("interface") && !name.equals("apiVersion")) {
                problems.add(Problem.at(at + "." + name, why));
            }
        });
        JsonNode iface = policy.path("interface");
        iface.fieldNames().forEachRemaining(name -> {
            if (!name.equals("rules")) {
                problems.add(Problem.at(at + ".interface." + name, why));
            }
        });
        List<JsonNode> rules = Nodes.items(iface.path("rules"));
        for (int r = 0; r < rules.size(); r++) {
            List<JsonNode> oneOf = Nodes.items(rules.get(r).path("oneOf"));
            for (int j = 0; j < oneOf.size(); j++) {
                String itemAt = at + ".interface.rules[" + r + "].oneOf[" + j + "].inject";
                oneOf.get(j).path("inject").fieldNames().forEachRemaining(name -> {
                    if (!name.equals("additionalParameters")) {
                        problems.add(Problem.at(itemAt + "." + name, why));
                    }
                });
            }
        }
    }

    private static List<Implementation> implementations(JsonNode node, List<Problem> problems) {
        if (!node.isArray()) {
            return null; // absent or null: the schema admits nothing else
        }
        List<Implementation> result = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            int before = problems.size();
            identifierLengths(node.get(i), "$.implementations[" + i + "]", problems);
            if (problems.size() > before) {
                continue;
            }
            try {
                result.add(ManifestLoader.implementation(node.get(i)));
            } catch (ManifestLoader.ManifestException e) {
                problems.add(Problem.at("$.implementations[" + i + "]", e.getMessage()));
            }
        }
        return result;
    }

    /**
     * The fields of an inline manifest that name or version something (they become fact keys and are compared and
     * sorted) are at most {@link Limits#PATH_LENGTH} and {@link Limits#REVISION_LENGTH} characters, however deep.
     * Other text (descriptions, workflow templates) is bounded by the body limit only.
     */
    private static void identifierLengths(JsonNode node, String at, List<Problem> problems) {
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                identifierLengths(node.get(i), at + "[" + i + "]", problems);
            }
            return;
        }
        var fields = node.fields();
        while (fields.hasNext()) {
            var field = fields.next();
            String path = at + "." + field.getKey();
            JsonNode value = field.getValue();
            if (field.getKey().length() > Limits.PATH_LENGTH) {
                problems.add(Problem.at(at, "a field name is " + field.getKey().length() + " characters long: at most "
                        + Limits.PATH_LENGTH + " are allowed"));
            } else if (value.isTextual()) {
                int limit = field.getKey().equals("revision") ? Limits.REVISION_LENGTH
                        : IDENTIFIERS.contains(field.getKey()) ? Limits.PATH_LENGTH : Integer.MAX_VALUE;
                if (value.asText().length() > limit) {
                    problems.add(Problem.at(path, "is " + value.asText().length() + " characters long: at most "
                            + limit + " are allowed"));
                }
            } else {
                identifierLengths(value, path, problems);
            }
        }
    }

    private static List<TypeInstance> typeInstances(JsonNode node, List<Problem> problems) {
        if (node.isMissingNode() || node.isNull()) {
            return null;
        }
        try {
            return TypeInstanceLoader.parse(node, "$.typeInstances");
        } catch (DocumentException e) {
            problems.addAll(e.problems());
            return null;
        }
    }

    private static Policy embeddedPolicy(JsonNode tree, String at, LocatedDocument document, List<Problem> problems) {
        try {
            return PolicyParser.parseEmbedded(tree, at, document.locations());
        } catch (DocumentException e) {
            problems.addAll(e.problems());
            return null;
        }
    }

    private static DecisionException invalid(List<Problem> problems, LocatedDocument document) {
        List<Problem> located = problems.stream().map(p -> p.locatedBy(document.locations())).toList();
        return new DecisionException(Code.INVALID_REQUEST, "invalid request: " + located.get(0), located);
    }
}
