package io.arbiter.policy;

import io.arbiter.catalog.TypeInstanceStore;

import java.util.ArrayList;
import java.util.List;

/**
 * TypeInstance ids a policy names that a store cannot resolve. A global policy cannot know what requests will
 * carry (policy-syntax 7), so these are warnings when it is stored, not errors.
 */
public final class StoreReferences {

    private StoreReferences() {
    }

    public static List<String> unresolved(Policy policy, TypeInstanceStore store) {
        List<String> warnings = new ArrayList<>();
        check(policy.defaults(), "interface.default.inject", store, warnings);
        for (int i = 0; i < policy.rules().size(); i++) {
            List<Policy.OneOfItem> oneOf = policy.rules().get(i).oneOf();
            for (int j = 0; j < oneOf.size(); j++) {
                check(oneOf.get(j).inject(), "interface.rules[" + i + "].oneOf[" + j + "].inject", store, warnings);
            }
        }
        checkIds(policy.typeInstanceRules().stream().map(rule -> rule.backend().id()).toList(), "typeInstance.rules",
                ".backend.id", store, warnings);
        return warnings;
    }

    private static void check(Policy.Inject inject, String at, TypeInstanceStore store, List<String> warnings) {
        checkIds(inject.requiredTypeInstances().stream().map(Policy.RequiredTypeInstance::id).toList(),
                at + ".requiredTypeInstances", ".id", store, warnings);
        checkIds(inject.additionalTypeInstances().stream().map(Policy.AdditionalTypeInstance::id).toList(),
                at + ".additionalTypeInstances", ".id", store, warnings);
    }

    /** A warning for each id of the list at {@code at} ({@code at[k]} + {@code field}) the store does not hold. */
    private static void checkIds(List<String> ids, String at, String field, TypeInstanceStore store, List<String> warnings) {
        for (int k = 0; k < ids.size(); k++) {
            if (store.find(ids.get(k)).isEmpty()) {
                warnings.add(message(ids.get(k), at + "[" + k + "]" + field));
            }
        }
    }

    public static String message(String id, String at) {
        // the same words for a server and for arbiter lint, which both read the store --type-instances names
        return "TypeInstance " + id + " (" + at + ") is not in the TypeInstance store (the file --type-instances"
                + " names, by default the embedded one): add it there if it should be, or else, unless a request"
                + " carries it, it satisfies no requirement (a decision that needed it is NO_MATCH, and its explanation"
                + " says the id is unknown to the store), and a decision that selects an Implementation it is injected"
                + " into answers 422 INVALID_POLICY";
    }
}
