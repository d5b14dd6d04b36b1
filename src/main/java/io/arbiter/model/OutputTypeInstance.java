package io.arbiter.model;

import java.util.Objects;

/**
 * A TypeInstance an Interface declares as its output ({@code spec.output.typeInstances}): what every Implementation of
 * the Interface produces, by name, with its Type.
 */
public record OutputTypeInstance(String name, Ref typeRef) {

    public OutputTypeInstance {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(typeRef, "typeRef");
    }
}
