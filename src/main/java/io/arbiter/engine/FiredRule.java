package io.arbiter.engine;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
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
        facts = List.copyOf(facts);
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

    /** Writes this firing's fields into an open object; without {@code name} and {@code package} when {@code rule} says them already. */
    public void writeFields(JsonGenerator json, boolean nameAndPackage) throws IOException {
        Writer.writeFields(this, json, nameAndPackage);
    }

    /**
     * Writes the fields directly: every decision renders dozens of firings, and the reflective record serializer
     * made that a measurable part of what auditing costs (AuditCostBenchmark).
     */
    static final class Writer extends StdSerializer<FiredRule> {

        private static final SerializedString RULE = new SerializedString("rule");
        private static final SerializedString NAME = new SerializedString("name");
        private static final SerializedString PACKAGE = new SerializedString("package");
        private static final SerializedString ORDER = new SerializedString("order");
        private static final SerializedString FACTS = new SerializedString("facts");

        Writer() {
            super(FiredRule.class);
        }

        @Override
        public void serialize(FiredRule fired, JsonGenerator json, SerializerProvider provider) throws IOException {
            write(fired, json);
        }

        static void write(FiredRule fired, JsonGenerator json) throws IOException {
            json.writeStartObject();
            writeFields(fired, json, true);
            json.writeEndObject();
        }

        static void writeFields(FiredRule fired, JsonGenerator json, boolean nameAndPackage) throws IOException {
            RuleName rule = fired.ruleName();
            json.writeFieldName(RULE);
            json.writeString(rule.qualifiedJson());
            if (nameAndPackage) {
                json.writeFieldName(NAME);
                json.writeString(rule.nameJson());
                json.writeFieldName(PACKAGE);
                json.writeString(rule.packageJson());
            }
            json.writeFieldName(ORDER);
            json.writeNumber(fired.order());
            json.writeFieldName(FACTS);
            json.writeStartArray();
            for (String fact : fired.facts()) {
                json.writeString(fact);
            }
            json.writeEndArray();
        }
    }
}
