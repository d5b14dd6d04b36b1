package io.arbiter.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/** JSON Schema (draft 7) validation whose problems use our paths: {@code $.a.b[0]}, unknown fields at the key. */
public final class JsonSchemas {

    private static final SchemaValidatorsConfig CONFIG = SchemaValidatorsConfig.builder().pathType(PathType.JSON_PATH).build();

    private JsonSchemas() {
    }

    public static JsonSchema compile(JsonNode schema) {
        return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7).getSchema(exactBounds(schema), CONFIG);
    }

    private static final Set<String> BOUNDS = Set.of("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum");
    /** Keywords whose values are instance data, not schemas: their numbers stay as written. */
    private static final Set<String> DATA = Set.of("enum", "const", "default", "examples");

    /**
     * The schema with its integral number bounds written as decimals. The validator compares an integer instance
     * with an integral bound through {@code asLong()}, which wraps: 2^64 and 1e400 read as 0 and pass
     * {@code maximum: 2147483647}. A decimal bound is compared exactly.
     */
    static JsonNode exactBounds(JsonNode schema) {
        JsonNode copy = schema.deepCopy();
        decimalBounds(copy);
        return copy;
    }

    private static void decimalBounds(JsonNode node) {
        if (node instanceof ObjectNode object) {
            List<String> names = new ArrayList<>();
            object.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                JsonNode value = object.get(name);
                if (BOUNDS.contains(name) && value.isIntegralNumber()) {
                    object.put(name, value.decimalValue());
                } else if (!DATA.contains(name)) {
                    decimalBounds(value);
                }
            }
        } else if (node.isArray()) {
            node.forEach(JsonSchemas::decimalBounds);
        }
    }

    /** Reads a schema resource from the classpath (e.g. {@code /schemas/policy-0.2.0.json}). */
    public static JsonNode resource(String name) {
        try (InputStream in = JsonSchemas.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("schema resource missing: " + name);
            }
            return Documents.jsonMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every problem of {@code tree} against {@code schema}, sorted by path, not yet located. */
    public static List<Problem> problems(JsonSchema schema, JsonNode tree) {
        List<Problem> problems = new ArrayList<>();
        for (ValidationMessage message : schema.validate(tree)) {
            problems.add(problem(message));
        }
        problems.sort(Comparator.comparing(Problem::path));
        return problems;
    }

    private static Problem problem(ValidationMessage message) {
        String at = message.getInstanceLocation().toString();
        if ("additionalProperties".equals(message.getType()) && message.getProperty() != null) {
            return Problem.at(PathType.JSON_PATH.append(at, message.getProperty()),
                    "unknown field '" + message.getProperty() + "'");
        }
        if ("required".equals(message.getType()) && message.getProperty() != null) {
            return Problem.at(PathType.JSON_PATH.append(at, message.getProperty()),
                    "required field '" + message.getProperty() + "' is missing");
        }
        String text = message.getMessage();
        int colon = text.indexOf(": ");
        return Problem.at(at, colon > 0 && text.startsWith("$") ? text.substring(colon + 2) : text);
    }
}
