package io.arbiter.decision.implementation;

import io.arbiter.model.Implementation;
import io.arbiter.model.Ref;
import io.arbiter.model.TypeInstance;
import io.arbiter.policy.Policy;

import java.util.List;

/**
 * A parsed {@code POST /v1/decisions/implementation} request.
 *
 * @param implementations inline Implementations, or null to use the server catalog
 * @param typeInstances   inline TypeInstances, or null to use the server store
 */
public record ImplementationRequest(Ref interfaceRef, Policy actionPolicy, List<Policy> workflowPolicies,
                                    List<Implementation> implementations, List<TypeInstance> typeInstances,
                                    boolean explain) {

    public ImplementationRequest {
        workflowPolicies = List.copyOf(workflowPolicies);
        implementations = implementations == null ? null : List.copyOf(implementations);
        typeInstances = typeInstances == null ? null : List.copyOf(typeInstances);
    }

    public static ImplementationRequest forInterface(Ref interfaceRef) {
        return new ImplementationRequest(interfaceRef, null, List.of(), null, null, false);
    }
}
