package io.arbiter.model;

/** One {@code allOf}/{@code anyOf}/{@code oneOf} list under a prefix of an Implementation's {@code spec.requires}. */
public record RequirementGroup(String implementationKey, String prefix, Quantifier quantifier, int size) {

    public String groupId() {
        return prefix + " " + quantifier.ocfName();
    }
}
