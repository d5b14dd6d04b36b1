package io.arbiter.engine;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

import java.io.IOException;
import java.util.List;

/**
 * One rule firing of one decision: {@code rule} is the qualified name ({@code package.rule name}), {@code order}
 * is 1-based firing order, {@code facts} the ids of the facts the rule matched.
 */
@JsonSerialize(using = FiredRule.Writer.class)
public record FiredRule(String rule, String name, @JsonProperty("package") String packageName, int order,
                        List<String> facts) {

    public FiredRule {
        facts = List.copyOf(facts);
    }

    /**
     * Writes the fields directly: every decision renders dozens of firings, and the reflective record serializer
     * made that a measurable part of what auditing costs (AuditCostBenchmark).
     */
    static final class Writer extends StdSerializer<FiredRule> {

        Writer() {
            super(FiredRule.class);
        }

        @Override
        public void serialize(FiredRule fired, JsonGenerator json, SerializerProvider provider) throws IOException {
            write(fired, json);
        }

        static void write(FiredRule fired, JsonGenerator json) throws IOException {
            json.writeStartObject();
            json.writeStringField("rule", fired.rule());
            json.writeStringField("name", fired.name());
            json.writeStringField("package", fired.packageName());
            json.writeNumberField("order", fired.order());
            json.writeArrayFieldStart("facts");
            for (String fact : fired.facts()) {
                json.writeString(fact);
            }
            json.writeEndArray();
            json.writeEndObject();
        }
    }
}
