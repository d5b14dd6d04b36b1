package io.arbiter.decision.backend;

import io.arbiter.policytype.DecisionData;
import io.arbiter.decision.DecisionException;
import io.arbiter.decision.Snapshot;
import io.arbiter.policy.PolicyParser;
import io.arbiter.policytype.AbstractPolicyType;
import io.arbiter.policytype.Decision;
import io.arbiter.policytype.DecisionCall;
import io.arbiter.policytype.Masks;
import io.arbiter.policytype.PolicyTypeVersion;
import io.arbiter.policytype.RuleSet;
import io.arbiter.policytype.SupportStatus;
import io.arbiter.policytype.Target;

import java.util.EnumSet;
import java.util.List;

import static io.arbiter.policytype.PolicyTypeVersion.since;

/** {@code capact.backend}: which storage backend stores TypeInstances of given Types (policy {@code typeInstance.rules}). */
public final class BackendPolicyType extends AbstractPolicyType {

    public static final String NAME = "capact.backend";

    public BackendPolicyType() {
        super(NAME, "Capact TypeInstance storage backends: typeInstance.rules by exact Type, path, or path pattern.",
                List.of(PolicyTypeVersion.of("0.2.0", since(SupportStatus.SUPPORTED, "2021.09"))),
                new RuleSet(List.of("policy-merge", BackendDecider.KIND), BackendDecider.PHASES),
                EnumSet.allOf(Snapshot.Part.class),
                new Target("backend",
                        "Which storage backend stores TypeInstances of each given Type (a batch of typeRefs)."));
    }

    /** In a chain (the step): the selected Implementation, whose outputs are the Types to decide backends for. */
    public static final DecisionData SELECTED_IMPLEMENTATION = new DecisionData("capact.implementation", "selected-implementation");

    @Override
    public List<DecisionData> consumes() {
        return List.of(SELECTED_IMPLEMENTATION);
    }

    /** Nothing but the request and the snapshot (no clock): repeated requests are answered from the runtime's memo. */
    @Override
    public boolean decidesFromRequestAndSnapshot() {
        return true;
    }

    @Override
    public Decision decide(DecisionCall call) {
        if (call.request().tree().hasNonNull("actionPolicy")) {
            call.requireUsableVersion(PolicyParser.versionOf(call.request().tree().get("actionPolicy")), "$.actionPolicy",
                    DecisionException.Code.INVALID_POLICY);
        }
        if (call.chained()) {
            io.arbiter.model.SelectedImplementation selected =
                    call.consumed(SELECTED_IMPLEMENTATION, io.arbiter.model.SelectedImplementation.class).orElseThrow();
            BackendDecision decision = BackendDecider.decide(outputsOf(selected, call), call.snapshot(), call.ruleBase());
            return Decision.of(new OutputBackends(call.snapshot().catalog().outputsOf(selected.interfaceRef()).stream()
                    .map(io.arbiter.model.OutputTypeInstance::name).toList(), decision.backends()), decision.firedRules());
        }
        BackendDecision decision = BackendDecider.decide(call.request(), call.snapshot(), call.ruleBase());
        return Decision.of(decision, decision.firedRules());
    }

    /**
     * The backend request a chain's part decides: the Types of the TypeInstances the selected Implementation outputs
     * (its Interface's {@code spec.output.typeInstances}, in manifest order), under the action policy of the chain's
     * request. Java reads the catalog; the rules decide the backends as for {@code POST /v1/decisions/backend}.
     */
    static io.arbiter.document.LocatedDocument outputsOf(io.arbiter.model.SelectedImplementation selected, DecisionCall call) {
        com.fasterxml.jackson.databind.node.ObjectNode body = io.arbiter.document.Documents.jsonMapper().createObjectNode();
        com.fasterxml.jackson.databind.node.ArrayNode typeRefs = body.putArray("typeRefs");
        for (io.arbiter.model.OutputTypeInstance output : call.snapshot().catalog().outputsOf(selected.interfaceRef())) {
            typeRefs.addObject().put("path", output.typeRef().path()).put("revision", output.typeRef().revision());
        }
        if (call.request().tree().has("actionPolicy")) {
            body.set("actionPolicy", call.request().tree().get("actionPolicy"));
        }
        return new io.arbiter.document.LocatedDocument(body, call.request().locations(), call.request().format());
    }

    /**
     * The backend part of a chain: {@code backends} as {@code POST /v1/decisions/backend} answers them, one per
     * output TypeInstance of the selected Implementation, and {@code outputs}, the name of each (the same order).
     */
    public record OutputBackends(List<String> outputs, List<BackendDecision.TypeBackend> backends) {
    }

    /** Additional parameter values in the action policy a request carries. */
    @Override
    public Masks masks() {
        return new Masks(List.of("actionPolicy." + io.arbiter.policy.Policy.PARAMETER_VALUES), List.of());
    }
}
