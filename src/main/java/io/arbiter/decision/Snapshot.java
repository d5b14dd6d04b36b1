package io.arbiter.decision;

import io.arbiter.catalog.Catalog;
import io.arbiter.catalog.TypeInstanceStore;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.model.TypeInstance;
import io.arbiter.policy.PolicyDocument;

import java.util.List;
import java.util.Map;

/**
 * Everything one decision sees, consistent and immutable: the global policy, the compiled rule bases, the
 * catalog, the TypeInstance store and the platform TypeInstances. A reload builds a new snapshot and swaps it in.
 */
public record Snapshot(PolicyDocument policy, Map<String, CompiledRuleBase> ruleBases, Catalog catalog,
                       TypeInstanceStore typeInstances, List<TypeInstance> platformTypeInstances,
                       List<String> policyOrder) {

    /** {@code policyOrder}: kinds of policy, highest first, from {@code serve --policy-order}; empty = the table's order. */
    public Snapshot {
        ruleBases = Map.copyOf(ruleBases);
        platformTypeInstances = List.copyOf(platformTypeInstances);
        policyOrder = List.copyOf(policyOrder);
    }

    public Snapshot(PolicyDocument policy, Map<String, CompiledRuleBase> ruleBases, Catalog catalog,
                    TypeInstanceStore typeInstances, List<TypeInstance> platformTypeInstances) {
        this(policy, ruleBases, catalog, typeInstances, platformTypeInstances, List.of());
    }

    public CompiledRuleBase ruleBase(String kind) {
        CompiledRuleBase ruleBase = ruleBases.get(kind);
        if (ruleBase == null) {
            throw new IllegalStateException("no rule base for decision kind '" + kind + "'");
        }
        return ruleBase;
    }

    public Snapshot withPolicy(PolicyDocument newPolicy) {
        return new Snapshot(newPolicy, ruleBases, catalog, typeInstances, platformTypeInstances, policyOrder);
    }
}
