package io.arbiter.model;

import java.util.Objects;

/** A stored TypeInstance: its id and the Type it is an instance of. */
public record TypeInstance(String id, Ref typeRef, String description) {

    public TypeInstance {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(typeRef, "typeRef");
    }
}
