package io.arbiter.engine;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * One rule firing of one decision: {@code rule} is the qualified name ({@code package.rule name}), {@code order}
 * is 1-based firing order, {@code facts} the ids of the facts the rule matched.
 */
@JsonSerialize(using = FiredRule.Writer.class)
@JsonIgnoreProperties("rule") // read back from name and package, which it joins
public record FiredRule(RuleName ruleName, int order, List<String> facts) {

    public FiredRule {
        Objects.requireNonNull(ruleName, "ruleName");
        facts = facts instanceof FactIds ids ? ids : FactIds.of(facts);
    }

    /** Read back from {@code rule}, {@code name}, {@code package}, {@code order} and {@code facts}. */
    @JsonCreator
    static FiredRule read(@JsonProperty("name") String name, @JsonProperty("package") String packageName,
                          @JsonProperty("order") int order, @JsonProperty("facts") List<String> facts) {
        return new FiredRule(RuleName.of(packageName, name), order, facts == null ? List.of() : facts);
    }

    /** The same firing at another place in a decision's order (firings of several sessions merged into one). */
    public FiredRule renumbered(int newOrder) {
        return new FiredRule(ruleName, newOrder, facts);
    }

    /** {@code package.rule name}. */
    public String rule() {
        return ruleName.qualified();
    }

    public String name() {
        return ruleName.name();
    }

    public String packageName() {
        return ruleName.packageName();
    }

    /** The fact ids as the recorder keeps them, each escaped once. */
    FactIds factIds() {
        return (FactIds) facts;
    }

    /** Writes firings as compact JSON bytes where it can ({@link FiringsJson}), as {@code FiredRulesNode} does. */
    static final class Writer extends StdSerializer<FiredRule> {

        Writer() {
            super(FiredRule.class);
        }

        @Override
        public void serialize(FiredRule fired, JsonGenerator json, SerializerProvider provider) throws IOException {
            FiringsJson.writeObject(fired, json, true);
        }
    }
}
