package io.arbiter.model;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/** An OCF Type: its ref, the parent Types it declares in {@code spec.additionalRefs}, and its JSON schema (may be null). */
public record TypeDefinition(Ref ref, List<String> additionalRefs, JsonNode jsonSchema) {

    public TypeDefinition {
        additionalRefs = List.copyOf(additionalRefs);
    }
}
