package io.arbiter.model;

import io.arbiter.engine.Fact;
import io.arbiter.engine.FactId;

import java.util.List;
import java.util.Map;

/**
 * An OCF Implementation manifest, reduced to what decisions need.
 *
 * @param additionalParameters     {@code spec.additionalInput.parameters}: name to Type
 * @param additionalTypeInstances  {@code spec.additionalInput.typeInstances}: name to Type
 */
@FactId("implementation {key}")
public record Implementation(String key, String path, String revision, List<Ref> implementsRefs, List<Ref> attributes,
                             List<RequirementGroup> requirementGroups, List<Requirement> requirements,
                             Map<String, Ref> additionalParameters, Map<String, Ref> additionalTypeInstances)
        implements Fact {

    /** {@code key} is {@code path:revision}, computed once: rules join on it for every decision. */
    public Implementation(String path, String revision, List<Ref> implementsRefs, List<Ref> attributes,
                          List<RequirementGroup> requirementGroups, List<Requirement> requirements,
                          Map<String, Ref> additionalParameters, Map<String, Ref> additionalTypeInstances) {
        this(path + ":" + revision, path, revision, implementsRefs, attributes, requirementGroups, requirements,
                additionalParameters, additionalTypeInstances);
    }

    public Implementation {
        if (!key.equals(path + ":" + revision)) {
            throw new IllegalArgumentException("key " + key + " is not " + path + ":" + revision);
        }
        implementsRefs = List.copyOf(implementsRefs);
        attributes = List.copyOf(attributes);
        requirementGroups = List.copyOf(requirementGroups);
        requirements = List.copyOf(requirements);
        additionalParameters = Map.copyOf(additionalParameters);
        additionalTypeInstances = Map.copyOf(additionalTypeInstances);
    }

    public Ref ref() {
        return new Ref(path, revision);
    }

    @Override
    public String toString() {
        return key();
    }
}
