package io.arbiter.model;

import java.util.List;
import java.util.Map;

/**
 * An OCF Implementation manifest, reduced to what decisions need.
 *
 * @param additionalParameters     {@code spec.additionalInput.parameters}: name to Type
 * @param additionalTypeInstances  {@code spec.additionalInput.typeInstances}: name to Type
 */
public record Implementation(String path, String revision, List<Ref> implementsRefs, List<Ref> attributes,
                             List<RequirementGroup> requirementGroups, List<Requirement> requirements,
                             Map<String, Ref> additionalParameters, Map<String, Ref> additionalTypeInstances) {

    public Implementation {
        implementsRefs = List.copyOf(implementsRefs);
        attributes = List.copyOf(attributes);
        requirementGroups = List.copyOf(requirementGroups);
        requirements = List.copyOf(requirements);
        additionalParameters = Map.copyOf(additionalParameters);
        additionalTypeInstances = Map.copyOf(additionalTypeInstances);
    }

    /** {@code path:revision}: how rules and results name this Implementation. */
    public String key() {
        return path + ":" + revision;
    }

    public Ref ref() {
        return new Ref(path, revision);
    }

    @Override
    public String toString() {
        return key();
    }
}
