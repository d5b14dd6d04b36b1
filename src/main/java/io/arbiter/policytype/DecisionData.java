package io.arbiter.policytype;

import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Objects;

/**
 * A piece of decision data that one policy type makes available to others (seed 003: passing data between
 * policies): {@code type} is the producing type's name, {@code name} what it produces. Listed as {@code type/name}.
 */
public record DecisionData(String type, String name) {

    public DecisionData {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
    }

    @JsonValue
    @Override
    public String toString() {
        return type + "/" + name;
    }
}
