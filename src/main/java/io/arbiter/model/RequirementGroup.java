package io.arbiter.model;

import io.arbiter.engine.Fact;

/** One {@code allOf}/{@code anyOf}/{@code oneOf} list under a prefix of an Implementation's {@code spec.requires}. */
public record RequirementGroup(String implementationKey, String prefix, Quantifier quantifier, int size) implements Fact {

    public String groupId() {
        return prefix + " " + quantifier.ocfName();
    }

    /** How audit records name it: the group and whose requirements it holds. */
    @Override
    public String factId() {
        return "requirements " + groupId() + " of " + implementationKey;
    }
}
