package io.arbiter.decision.implementation;

import io.arbiter.policytype.DecisionData;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.decision.DecisionException;
import io.arbiter.decision.Snapshot;
import io.arbiter.document.Documents;
import io.arbiter.policy.Policy;
import io.arbiter.policy.PolicyParser;
import io.arbiter.document.JsonSchemas;
import io.arbiter.model.Ref;
import io.arbiter.policytype.AbstractPolicyType;
import io.arbiter.policytype.Decision;
import io.arbiter.policytype.DecisionCall;
import io.arbiter.policytype.Masks;
import io.arbiter.policytype.PolicyTypeVersion;
import io.arbiter.policytype.RuleSet;
import io.arbiter.policytype.SupportStatus;
import io.arbiter.policytype.Target;
import picocli.CommandLine.Option;

import java.util.EnumSet;
import java.util.List;

import static io.arbiter.policytype.PolicyTypeVersion.since;

/**
 * {@code capact.implementation}: which Implementation serves an Interface. Its versions are the Capact policy
 * syntax versions: 0.1.0 (the legacy {@code rules:} map, converted on load) and 0.2.0 (current).
 */
public final class ImplementationPolicyType extends AbstractPolicyType {

    public static final String NAME = "capact.implementation";
    public static final String TARGET = "implementation";

    public ImplementationPolicyType() {
        super(NAME, "Capact Interface rules: oneOf preferences over Implementations, TypeInstance injection (policy syntax).",
                List.of(
                        PolicyTypeVersion.of("0.1.0", since(SupportStatus.SUPPORTED, "2021.03"), since(SupportStatus.DEPRECATED, "2021.09")),
                        PolicyTypeVersion.of("0.2.0", since(SupportStatus.EXPERIMENTAL, "2021.07"), since(SupportStatus.SUPPORTED, "2021.09"))),
                new RuleSet(List.of("policy-merge", ImplementationDecider.KIND), ImplementationDecider.PHASES),
                EnumSet.allOf(Snapshot.Part.class),
                new Target(TARGET,
                        "Which Implementation serves an Interface under the merged policies, and what to inject into it.",
                        JsonSchemas.resource("/schemas/implementation-request.json"), CliOptions::new));
    }

    /** The applied rule ({@code ImplementationDecision.AppliedRule}) of a decision that found one. */
    public static final DecisionData SELECTED_RULE = new DecisionData(NAME, "selected-rule");
    /** The selected Implementation and its Interface ({@link io.arbiter.model.SelectedImplementation}), when one was. */
    public static final DecisionData SELECTED_IMPLEMENTATION = new DecisionData(NAME, "selected-implementation");

    @Override
    public List<DecisionData> produces() {
        return List.of(SELECTED_RULE, SELECTED_IMPLEMENTATION);
    }

    /** Nothing but the request and the snapshot (no clock): repeated requests are answered from the runtime's memo. */
    @Override
    public boolean decidesFromRequestAndSnapshot() {
        return true;
    }

    @Override
    public Decision decide(DecisionCall call) {
        JsonNode body = call.request().tree();
        if (body.hasNonNull("actionPolicy")) {
            call.requireUsableVersion(PolicyParser.versionOf(body.get("actionPolicy")), "$.actionPolicy", DecisionException.Code.INVALID_POLICY);
        }
        for (int i = 0; i < body.path("workflowPolicies").size(); i++) {
            call.requireUsableVersion(PolicyParser.versionOf(body.path("workflowPolicies").get(i)), "$.workflowPolicies[" + i + "]",
                    DecisionException.Code.INVALID_POLICY);
        }
        ImplementationRequest request = ImplementationRequestParser.parse(call.request());
        ImplementationDecision decision = ImplementationDecider.decide(request, call.snapshot());
        List<String> warnings = new java.util.ArrayList<>(call.snapshot().policy().warnings());
        String unknown = ImplementationDecider.unknownInterface(request, call.snapshot());
        if (unknown != null) {
            warnings.add(unknown);
        }
        java.util.Map<DecisionData, Object> produced = new java.util.LinkedHashMap<>();
        if (decision.rule() != null) {
            produced.put(SELECTED_RULE, decision.rule());
        }
        if (decision.selected() != null) {
            produced.put(SELECTED_IMPLEMENTATION,
                    new io.arbiter.model.SelectedImplementation(decision.interfaceRef(), decision.selected()));
        }
        return new Decision(decision.outcome().name(), decision, decision.firedRules(), warnings).producing(produced);
    }

    /** Additional parameter values, in the policies a request carries and in what is injected. */
    @Override
    public Masks masks() {
        return MASKS;
    }

    static final Masks MASKS = new Masks(
            List.of("actionPolicy." + Policy.PARAMETER_VALUES, "workflowPolicies[]." + Policy.PARAMETER_VALUES),
            List.of("inject.additionalParameters[].value"));

    /** {@code arbiter decide implementation --interface PATH[:REV] [--explain]}. */
    static final class CliOptions implements Target.CliRequest {

        @Option(names = "--interface", paramLabel = "PATH[:REV]",
                description = "The Interface, e.g. cap.interface.database.postgresql.install:0.1.0 (no revision: the highest known).")
        String interfaceRef;

        @Option(names = "--explain", description = "Add, per oneOf item, which Implementations matched and why the others did not.")
        boolean explain;

        @Override
        public JsonNode toRequest() {
            if (interfaceRef == null) {
                return null;
            }
            Ref ref = Ref.parse(interfaceRef);
            ObjectNode request = Documents.jsonMapper().createObjectNode();
            ObjectNode iface = request.putObject("interface").put("path", ref.path());
            if (ref.revision() != null) {
                iface.put("revision", ref.revision());
            }
            if (explain) {
                request.put("explain", true);
            }
            return request;
        }
    }
}
