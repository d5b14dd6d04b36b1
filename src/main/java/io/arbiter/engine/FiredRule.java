package io.arbiter.engine;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.json.UTF8JsonGenerator;
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
        facts = facts instanceof FactIds ? facts : List.copyOf(facts);
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

    /**
     * Writes firings straight from the record: every decision renders dozens of them (thousands for a large one),
     * and writing them was the largest part of what auditing costs (AuditCostBenchmark). Compact JSON output gets a
     * firing's rule names and order as raw copies of text encoded once, and its fact ids as UTF-8 escaped once per
     * decision; YAML, token buffers and pretty printers get every field through the generator.
     */
    static final class Writer extends StdSerializer<FiredRule> {

        private static final SerializedString RULE = new SerializedString("rule");
        private static final SerializedString NAME = new SerializedString("name");
        private static final SerializedString PACKAGE = new SerializedString("package");
        private static final SerializedString ORDER = new SerializedString("order");
        private static final SerializedString FACTS = new SerializedString("facts");
        /** {@code 1,} and so on: a typical decision's orders, each with the comma before {@code facts}. */
        private static final SerializedString[] ORDERS = new SerializedString[1_024];

        static {
            for (int order = 0; order < ORDERS.length; order++) {
                ORDERS[order] = RuleName.raw(order + ",");
            }
        }

        Writer() {
            super(FiredRule.class);
        }

        @Override
        public void serialize(FiredRule fired, JsonGenerator json, SerializerProvider provider) throws IOException {
            write(fired, json, true);
        }

        static void write(FiredRule fired, JsonGenerator json, boolean nameAndPackage) throws IOException {
            if (writesRawJson(json)) {
                writeRaw(fired, json, nameAndPackage);
            } else {
                writeThroughGenerator(fired, json, nameAndPackage);
            }
        }

        /** Compact JSON bytes (as responses and the log are written); raw writes would bypass a pretty printer. */
        private static boolean writesRawJson(JsonGenerator json) {
            return json instanceof UTF8JsonGenerator && json.getPrettyPrinter() == null;
        }

        private static void writeRaw(FiredRule fired, JsonGenerator json, boolean nameAndPackage) throws IOException {
            json.writeStartObject();
            json.writeRaw(fired.ruleName().firingStartJson(nameAndPackage));
            int order = fired.order();
            if (order >= 0 && order < ORDERS.length) {
                json.writeRaw(ORDERS[order]);
            } else {
                json.writeRaw(order + ",");
            }
            json.writeFieldName(FACTS); // the object's context has seen no field yet, so no comma of its own
            json.writeStartArray();
            if (fired.facts() instanceof FactIds ids) {
                for (int i = 0; i < ids.size(); i++) {
                    byte[] escaped = ids.escapedUtf8(i);
                    json.writeRawUTF8String(escaped, 0, escaped.length);
                }
            } else {
                for (String fact : fired.facts()) {
                    json.writeString(fact);
                }
            }
            json.writeEndArray();
            json.writeEndObject();
        }

        private static void writeThroughGenerator(FiredRule fired, JsonGenerator json, boolean nameAndPackage)
                throws IOException {
            RuleName rule = fired.ruleName();
            json.writeStartObject();
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
            json.writeEndObject();
        }
    }
}
