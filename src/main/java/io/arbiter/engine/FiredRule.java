package io.arbiter.engine;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

/**
 * One rule firing of one decision: {@code rule} is the qualified name ({@code package.rule name}), {@code order}
 * is 1-based firing order, {@code facts} the ids of the facts the rule matched.
 */
public record FiredRule(String rule, String name, @JsonProperty("package") String packageName, int order,
                        List<String> facts) {

    public FiredRule {
        facts = List.copyOf(facts);
    }

    public static FiredRule of(String packageName, String name, int order, List<String> facts) {
        return new FiredRule(packageName + "." + name, name, packageName, order, facts);
    }
}
