package io.arbiter.policytype;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/** The policy types on the classpath, by name and by target. Built once at start-up; refuses duplicates. */
public final class PolicyTypeRegistry {

    private final Map<String, PolicyType> byName = new LinkedHashMap<>();
    private final Map<String, PolicyType> byTarget = new LinkedHashMap<>();
    private final Map<String, Chain> chains = new LinkedHashMap<>();
    /** Every target, the types' in registration order, then the chains'. */
    private final Map<String, Target> targets = new LinkedHashMap<>();

    public PolicyTypeRegistry(Collection<? extends PolicyType> types) {
        this(types, List.of());
    }

    /** {@code chains}: targets decided by several of {@code types} in turn, each checked as it is registered. */
    public PolicyTypeRegistry(Collection<? extends PolicyType> types, Collection<Chain> chains) {
        for (PolicyType type : types) {
            PolicyType previous = byName.putIfAbsent(type.name(), type);
            if (previous != null) {
                throw new IllegalStateException("policy type '" + type.name() + "' is registered twice: by "
                        + previous.getClass().getName() + " and by " + type.getClass().getName());
            }
            if (type.versions().isEmpty()) {
                throw new IllegalStateException("policy type '" + type.name() + "' declares no versions");
            }
            for (Target target : type.targets()) {
                PolicyType owner = byTarget.putIfAbsent(target.name(), type);
                if (owner != null) {
                    throw new IllegalStateException("decision target '" + target.name() + "' is served by two policy types: '"
                            + owner.name() + "' and '" + type.name() + "'");
                }
                targets.put(target.name(), target);
            }
        }
        requireProduced(types);
        chains.forEach(this::register);
    }

    /**
     * Registers a chain: its target is new, its types are registered, and everything each type consumes is produced by
     * a type before it in the chain.
     */
    private void register(Chain chain) {
        String name = chain.target().name();
        if (byTarget.containsKey(name) || chains.containsKey(name)) {
            throw new IllegalStateException("decision target '" + name + "' is served twice: by a policy type and a chain, or by two chains");
        }
        java.util.Set<DecisionData> produced = new java.util.LinkedHashSet<>();
        for (String typeName : chain.types()) {
            PolicyType type = byName.get(typeName);
            if (type == null) {
                throw new IllegalStateException("chain '" + name + "' names policy type '" + typeName + "', which is not registered");
            }
            for (DecisionData data : type.consumes()) {
                if (produced.isEmpty()) {
                    break; // the first type of a chain decides from the request alone
                }
                if (!produced.contains(data)) {
                    throw new IllegalStateException("chain '" + name + "': policy type '" + typeName + "' consumes " + data
                            + ", which no type before it in the chain produces (they produce " + produced + ")");
                }
            }
            produced.addAll(type.produces());
        }
        chains.put(name, chain);
        targets.put(name, chain.target());
    }

    /** The chain serving {@code target}, if a chain serves it. */
    public Optional<Chain> chain(String target) {
        return Optional.ofNullable(chains.get(target));
    }

    public List<Chain> chains() {
        return List.copyOf(chains.values());
    }

    /** Each type consumes only data its producer declares; a producer that is not registered (a registry of some types only, for analysis) is not checked. */
    private void requireProduced(Collection<? extends PolicyType> types) {
        for (PolicyType type : types) {
            for (DecisionData data : type.consumes()) {
                PolicyType producer = byName.get(data.type());
                if (producer != null && !producer.produces().contains(data)) {
                    throw new IllegalStateException("policy type '" + type.name() + "' consumes " + data
                            + ", which '" + producer.name() + "' does not produce (it produces " + producer.produces() + ")");
                }
            }
        }
    }

    /** Every {@link PolicyType} and {@link Chain} registered through {@code META-INF/services}. */
    public static PolicyTypeRegistry discover() {
        return new PolicyTypeRegistry(ServiceLoader.load(PolicyType.class).stream().map(ServiceLoader.Provider::get).toList(),
                ServiceLoader.load(ChainProvider.class).stream().flatMap(provider -> provider.get().chains().stream()).toList());
    }

    public List<PolicyType> types() {
        return List.copyOf(byName.values());
    }

    public Optional<PolicyType> type(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    public Optional<PolicyType> typeOfTarget(String target) {
        return Optional.ofNullable(byTarget.get(target));
    }

    public Target target(String name) {
        return targets.get(name);
    }

    public List<Target> targets() {
        return List.copyOf(targets.values());
    }
}
