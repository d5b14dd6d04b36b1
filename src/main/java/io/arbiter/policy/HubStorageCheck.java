package io.arbiter.policy;

import io.arbiter.catalog.Catalog;
import io.arbiter.catalog.TypeInstanceStore;
import io.arbiter.document.Problem;
import io.arbiter.model.TypeDefinition;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A {@code typeInstance.rules[].backend.id} must be a Hub storage: when the store knows the TypeInstance and the
 * catalog knows its Type, that Type must extend {@code cap.core.type.hub.storage} (policy-syntax 1).
 */
public final class HubStorageCheck {

    public static final String HUB_STORAGE = "cap.core.type.hub.storage";

    private HubStorageCheck() {
    }

    public static List<Problem> problems(Policy policy, TypeInstanceStore store, Catalog catalog) {
        List<Problem> problems = new ArrayList<>();
        for (int i = 0; i < policy.typeInstanceRules().size(); i++) {
            String id = policy.typeInstanceRules().get(i).backend().id();
            int index = i;
            store.find(id).ifPresent(instance -> {
                Optional<TypeDefinition> type = catalog.type(instance.typeRef());
                if (type.isPresent() && !type.get().additionalRefs().contains(HUB_STORAGE)) {
                    problems.add(Problem.at("$.typeInstance.rules[" + index + "].backend.id", "TypeInstance " + id + " of Type "
                            + instance.typeRef() + " is not a Hub storage (its Type does not extend " + HUB_STORAGE + ")"));
                }
            });
        }
        return problems;
    }
}
