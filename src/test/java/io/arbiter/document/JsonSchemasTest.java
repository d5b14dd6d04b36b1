package io.arbiter.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Hub Type schemas compile under the JSON Schema dialect they declare, or say in our words why they cannot. */
class JsonSchemasTest {

    private static JsonNode json(String text) {
        try {
            return Documents.jsonMapper().readTree(text);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> problems(String schema, String value) throws Exception {
        JsonSchema compiled = JsonSchemas.compileDeclared(json(schema));
        return JsonSchemas.problems(compiled, json(value)).stream().map(Problem::toString).toList();
    }

    private static final String REGION = "\"properties\": {\"region\": {\"id\": \"#/properties/region\", \"type\": \"string\"}}";

    @Test
    void draft04IdsInADraft07SchemaAreIgnoredAsDraft07Says() throws Exception {
        String schema = "{\"$schema\": \"http://json-schema.org/draft-07/schema\", " + REGION + "}";

        assertEquals(List.of(), problems(schema, "{\"region\": \"eu-west-1\"}"));
        assertEquals(List.of("$.region: integer found, string expected"), problems(schema, "{\"region\": 42}"));
    }

    @Test
    void eachDeclaredDialectAndNoneCompile() throws Exception {
        for (String declared : List.of("\"$schema\": \"http://json-schema.org/draft-04/schema#\", ",
                "\"$schema\": \"http://json-schema.org/draft-06/schema#\", ",
                "\"$schema\": \"https://json-schema.org/draft/2019-09/schema\", ",
                "\"$schema\": \"https://json-schema.org/draft/2020-12/schema\", ",
                "\"$schema\": \"http://json-schema.org/schema#\", ", "")) {
            assertEquals(List.of("$.region: integer found, string expected"),
                    problems("{" + declared + REGION + "}", "{\"region\": 42}"), declared);
        }
    }

    @Test
    void theDeclaredDialectDecidesWhatAKeywordMeans() throws Exception {
        // draft-04: exclusiveMaximum is a boolean modifier of maximum; draft-07: a number of its own.
        assertEquals(1, problems("{\"$schema\": \"http://json-schema.org/draft-04/schema#\", \"maximum\": 5, \"exclusiveMaximum\": true}", "5").size());
        assertEquals(1, problems("{\"$schema\": \"http://json-schema.org/draft-07/schema#\", \"exclusiveMaximum\": 5}", "5").size());
        assertEquals(0, problems("{\"$schema\": \"http://json-schema.org/draft-07/schema#\", \"exclusiveMaximum\": 6}", "5").size());
    }

    @Test
    void whatCannotBeCompiledIsSaidInOurWords() {
        assertTrue(assertThrows(JsonSchemas.UnusableSchemaException.class, () -> JsonSchemas.compileDeclared(
                json("{\"$schema\": \"http://example.com/my-dialect\"}"))).getMessage()
                .contains("is not a JSON Schema dialect Arbiter knows"));
        assertTrue(assertThrows(JsonSchemas.UnusableSchemaException.class, () -> JsonSchemas.compileDeclared(
                json("{\"properties\": {\"a\": {\"$ref\": \"#/definitions/missing\"}}}"))).getMessage()
                .contains("$ref does not resolve"));
        assertThrows(JsonSchemas.UnusableSchemaException.class, () -> JsonSchemas.compileDeclared(
                json("{\"$ref\": \"http://127.0.0.1:9/remote.json\"}")));
        assertThrows(JsonSchemas.UnusableSchemaException.class, () -> JsonSchemas.compileDeclared(json("{\"pattern\": \"(\"}")));
        assertThrows(JsonSchemas.UnusableSchemaException.class, () -> JsonSchemas.compileDeclared(json("[]")));
    }
}
