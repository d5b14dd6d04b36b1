package io.arbiter.model;

import io.arbiter.engine.Fact;
import io.arbiter.engine.FactId;

import java.util.LinkedHashSet;
import java.util.List;

/**
 * One Attribute of an Implementation's {@code metadata.attributes}, as a fact: matching joins an item's constrained
 * attributes against these instead of walking the Implementation's list for every item it is tried with. Built once
 * per Implementation by the catalog holding it ({@code Catalog.attributesOf}).
 */
@FactId("attribute {attribute} of {implementationKey}")
public record ImplementationAttribute(String implementationKey, Ref attribute) implements Fact {

    /** One fact per distinct attribute: an attribute listed twice is one attribute. */
    public static List<ImplementationAttribute> of(Implementation implementation) {
        return new LinkedHashSet<>(implementation.attributes()).stream()
                .map(attribute -> new ImplementationAttribute(implementation.key(), attribute)).toList();
    }
}
