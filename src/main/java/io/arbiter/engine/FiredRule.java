package io.arbiter.engine;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

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
        /** Rule names are few and repeat in every response: each is escaped and encoded once. */
        private static final int QUOTED_NAMES = 10_000;
        private static final Map<String, SerializedString> QUOTED = new ConcurrentHashMap<>();

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
            json.writeFieldName(RULE);
            json.writeString(quoted(fired.rule()));
            if (nameAndPackage) {
                json.writeFieldName(NAME);
                json.writeString(quoted(fired.name()));
                json.writeFieldName(PACKAGE);
                json.writeString(quoted(fired.packageName()));
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

        /** The string, pre-encoded; past {@link #QUOTED_NAMES} distinct names (rule bases reloaded many times), new ones are not kept. */
        static SerializedString quoted(String name) {
            SerializedString quoted = QUOTED.get(name);
            if (quoted == null) {
                quoted = new SerializedString(name);
                if (QUOTED.size() < QUOTED_NAMES) {
                    QUOTED.put(name, quoted);
                }
            }
            return quoted;
        }
    }
}
