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

    public PolicyTypeRegistry(Collection<? extends PolicyType> types) {
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
            }
        }
        requireProduced(types);
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

    /** Every {@link PolicyType} registered through {@code META-INF/services}. */
    public static PolicyTypeRegistry discover() {
        return new PolicyTypeRegistry(ServiceLoader.load(PolicyType.class).stream().map(ServiceLoader.Provider::get).toList());
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
        PolicyType type = byTarget.get(name);
        return type == null ? null : type.targets().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }

    public List<Target> targets() {
        return byName.values().stream().flatMap(type -> type.targets().stream()).toList();
    }
}
