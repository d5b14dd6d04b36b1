package io.arbiter.model;

import io.arbiter.engine.Fact;
import io.arbiter.engine.FactId;

/**
 * One item of an Implementation's {@code spec.requires}: the Type it needs, in which group, and the alias
 * under which an injected TypeInstance is made available. Flattened so rules can join on it.
 */
@FactId("requirement {toString} of {implementationKey}")
public record Requirement(String implementationKey, String groupPrefix, Quantifier quantifier, int index,
                          Ref typeRef, String alias) implements Fact {

    /** The group this item belongs to, e.g. {@code cap.core.type.platform oneOf}. */
    public String groupId() {
        return groupPrefix + " " + quantifier.ocfName();
    }

    @Override
    public String toString() {
        return typeRef + (alias == null ? "" : " (alias " + alias + ")");
    }
}
