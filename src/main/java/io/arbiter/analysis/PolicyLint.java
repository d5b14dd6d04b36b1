package io.arbiter.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.catalog.TypeInstanceStore;
import io.arbiter.decision.DecisionException;
import io.arbiter.runtime.Decisions;
import io.arbiter.decision.Snapshot;
import io.arbiter.document.DocumentException;
import io.arbiter.document.Documents;
import io.arbiter.document.LocatedDocument;
import io.arbiter.document.Locations;
import io.arbiter.document.Nodes;
import io.arbiter.document.Problem;
import io.arbiter.policy.HubStorageCheck;
import io.arbiter.policy.LegacyPolicyConverter;
import io.arbiter.policy.PolicyDocument;
import io.arbiter.policy.PolicyParser;
import io.arbiter.policy.StoreReferences;
import io.arbiter.policytype.PolicyType;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.policytype.Versions;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Lint of an implementation policy (the Capact policy syntax) against a snapshot's catalog and TypeInstance store:
 * errors and warnings together, each located. What {@code arbiter lint FILE} and {@code POST /v1/policy/validate}
 * report.
 */
public final class PolicyLint {

    /** Where the policy is used: the global policy, or a request's action or workflow-step policy (merged with the global one). */
    public enum Role {
        GLOBAL, ACTION, WORKFLOW;

        public static Role parse(String text) {
            try {
                return valueOf(text.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("'" + text + "' is not a policy role: global, action or workflow");
            }
        }
    }

    private PolicyLint() {
    }

    /** {@code budget}: how long the decisions of the analysis may take in all; past it, a warning says what was left out. */
    public static List<Finding> lint(byte[] body, String contentType, Role role, Snapshot snapshot, PolicyTypeRegistry registry,
                                     java.time.Duration budget) {
        LocatedDocument text;
        try {
            text = Documents.parse(body, contentType);
        } catch (DocumentException e) {
            return sorted(e.problems().stream().map(problem -> Finding.error("syntax", problem)).toList());
        }
        List<Finding> findings = new ArrayList<>();
        boolean legacy = LegacyPolicyConverter.isLegacy(text.tree());
        if (!legacy) {
            // from the tree, so that they come with the schema's errors rather than after they are fixed
            findings.addAll(unresolvedIds(text.tree(), snapshot.typeInstances(), text.locations()));
        }
        PolicyDocument document;
        try {
            document = PolicyParser.parse(text);
        } catch (DocumentException e) {
            e.problems().forEach(problem -> findings.add(Finding.error("schema", problem)));
            return sorted(findings);
        }
        // A legacy policy's paths name its converted form, so they cannot be located in the text.
        Locations locations = legacy ? null : text.locations();
        if (legacy) {
            document.warnings().forEach(warning -> findings.add(Finding.warning("legacy-syntax", Problem.at("$", warning))));
            StoreReferences.unresolved(document.policy(), snapshot.typeInstances()).forEach(warning ->
                    findings.add(Finding.warning("unknown-typeinstance", Problem.at("$", warning + " (in the converted policy)"))));
        }
        PolicyType type = registry.type(Decisions.GLOBAL_POLICY_TYPE).orElseThrow();
        try {
            Versions.check(type, document.version(), "$.apiVersion", DecisionException.Code.INVALID_POLICY).ifPresent(warning ->
                    findings.add(Finding.warning("deprecated-version", Problem.at("$.apiVersion", warning).locatedBy(locations))));
        } catch (DecisionException e) {
            e.problems().forEach(problem -> findings.add(Finding.error("version", problem.locatedBy(locations))));
        }
        HubStorageCheck.problems(document.policy(), snapshot.typeInstances(), snapshot.catalog()).forEach(problem ->
                findings.add(Finding.error("backend-not-hub-storage", problem.locatedBy(locations))));
        ImplementationPolicyAnalysis.analyse(document.policy(), role, snapshot, budget).forEach(finding ->
                findings.add(located(finding, locations)));
        if (role == Role.GLOBAL && findings.stream().noneMatch(Finding::isError)) {
            BackendPolicyAnalysis.analyse(document, snapshot).forEach(finding -> findings.add(located(finding, locations)));
        }
        return sorted(findings);
    }

    public static boolean valid(List<Finding> findings) {
        return findings.stream().noneMatch(Finding::isError);
    }

    private static Finding located(Finding finding, Locations locations) {
        Problem problem = finding.asProblem().locatedBy(locations);
        return new Finding(finding.severity(), finding.code(), finding.file(), problem.path(), problem.line(),
                problem.column(), problem.problem());
    }

    /** Ids the store cannot resolve, read from the tree (only where the tree has the expected shape). */
    static List<Finding> unresolvedIds(JsonNode tree, TypeInstanceStore store, Locations locations) {
        List<Finding> findings = new ArrayList<>();
        JsonNode iface = tree.path("interface");
        injectIds(iface.path("default").path("inject"), "$.interface.default.inject", store, locations, findings);
        List<JsonNode> rules = Nodes.items(iface.path("rules"));
        for (int i = 0; i < rules.size(); i++) {
            List<JsonNode> oneOf = Nodes.items(rules.get(i).path("oneOf"));
            for (int j = 0; j < oneOf.size(); j++) {
                injectIds(oneOf.get(j).path("inject"), "$.interface.rules[" + i + "].oneOf[" + j + "].inject", store,
                        locations, findings);
            }
        }
        List<JsonNode> backends = Nodes.items(tree.path("typeInstance").path("rules"));
        for (int i = 0; i < backends.size(); i++) {
            idAt(backends.get(i).path("backend").path("id"), "$.typeInstance.rules[" + i + "].backend.id", store,
                    locations, findings);
        }
        return findings;
    }

    private static void injectIds(JsonNode inject, String at, TypeInstanceStore store, Locations locations,
                                  List<Finding> findings) {
        for (String list : List.of("requiredTypeInstances", "additionalTypeInstances")) {
            List<JsonNode> entries = Nodes.items(inject.path(list));
            for (int k = 0; k < entries.size(); k++) {
                idAt(entries.get(k).path("id"), at + "." + list + "[" + k + "].id", store, locations, findings);
            }
        }
    }

    private static void idAt(JsonNode id, String path, TypeInstanceStore store, Locations locations, List<Finding> findings) {
        if (id.isTextual() && store.find(id.asText()).isEmpty()) {
            findings.add(Finding.warning("unknown-typeinstance", Problem.at(path,
                    StoreReferences.message(id.asText(), path.substring(2))).locatedBy(locations)));
        }
    }

    static List<Finding> sorted(List<Finding> findings) {
        return findings.stream().distinct().sorted(Finding.ORDER).toList();
    }
}
