package io.arbiter.model;

import io.arbiter.engine.Fact;
import io.arbiter.engine.FactId;

/** One {@code allOf}/{@code anyOf}/{@code oneOf} list under a prefix of an Implementation's {@code spec.requires}. */
@FactId("requirements {groupId} of {implementationKey}")
public record RequirementGroup(String implementationKey, String prefix, Quantifier quantifier, int size) implements Fact {

    public String groupId() {
        return prefix + " " + quantifier.ocfName();
    }
}
