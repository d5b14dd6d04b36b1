package io.arbiter.policytype;

import io.arbiter.decision.Snapshot;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A policy type whose name, description, versions, rule set, snapshot parts read and targets are fixed: given once
 * to the constructor, so that a type's own class holds only how it decides. A type may as well implement {@link PolicyType} directly.
 */
public abstract class AbstractPolicyType implements PolicyType {

    private final String name;
    private final String description;
    private final List<PolicyTypeVersion> versions;
    private final RuleSet ruleSet;
    private final Set<Snapshot.Part> reads;
    private final List<Target> targets;

    protected AbstractPolicyType(String name, String description, List<PolicyTypeVersion> versions, RuleSet ruleSet,
                                 Set<Snapshot.Part> reads, Target... targets) {
        this.name = Objects.requireNonNull(name, "name");
        this.description = Objects.requireNonNull(description, "description");
        this.versions = List.copyOf(versions);
        this.ruleSet = Objects.requireNonNull(ruleSet, "ruleSet");
        this.reads = Set.copyOf(reads);
        this.targets = List.of(targets);
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String description() {
        return description;
    }

    @Override
    public final List<PolicyTypeVersion> versions() {
        return versions;
    }

    @Override
    public final List<Target> targets() {
        return targets;
    }

    @Override
    public final RuleSet ruleSet() {
        return ruleSet;
    }

    @Override
    public final Set<Snapshot.Part> reads() {
        return reads;
    }
}
