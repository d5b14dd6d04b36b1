package io.arbiter.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import io.arbiter.testing.LogCapture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hub Type schemas compile under the JSON Schema dialect they declare, or say in our words why they cannot; a large
 * invalid document's problems are looked for in a bounded sample of it, and still located.
 */
class JsonSchemasTest {

    /** The validator logs the schemas it cannot compile (an ERROR for the pattern "("), which we say in our words. */
    @RegisterExtension
    final LogCapture validatorLog = LogCapture.of("com.networknt.schema");

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

    private static final String ITEMS = "{\"type\": \"array\", \"maxItems\": 50000, \"items\": {\"type\": \"object\","
            + " \"required\": [\"name\"], \"additionalProperties\": false, \"properties\": {\"name\": {\"type\": \"string\"}}}}";

    private static String items(int count, String item) {
        return "[" + String.join(",", java.util.Collections.nCopies(count, item)) + "]";
    }

    @Test
    void aRevisionInOurSchemasIsMajorMinorPatch() {
        JsonSchema revision = JsonSchemas.compile(json("{\"format\": \"revision\"}"));

        for (String valid : List.of("0.0.0", "1.0.0", "10.20.300")) {
            assertEquals(List.of(), JsonSchemas.problems(revision, json("\"" + valid + "\"")), valid);
        }
        for (String invalid : List.of("1.0", "01.0.0", "1.0.0-rc1", "v1.0.0", "1.0.0\\n", "latest", "")) {
            assertEquals(List.of("$: must be MAJOR.MINOR.PATCH, e.g. 1.0.0"),
                    JsonSchemas.problems(revision, json("\"" + invalid + "\"")).stream().map(Problem::toString).toList(), invalid);
        }
    }

    @Test
    void aProblemPastTheSampleIsStillFoundAndLocated() throws Exception {
        String list = items(30_000, "{\"name\": \"a\"}");
        String broken = list.substring(0, list.length() - 1) + ",{\"name\": 1}]";

        assertEquals(List.of("$[30000].name: integer found, string expected"), problems(ITEMS, broken));
    }

    @Test
    void aListOfEmptyObjectsGetsItsFirstProblems() throws Exception {
        List<String> found = problems(ITEMS, items(40_000, "{}"));

        assertEquals(JsonSchemas.MAX_PROBLEMS, found.size(), found.subList(0, 3).toString());
        assertTrue(found.contains("$[0].name: required field 'name' is missing"), found.subList(0, 3).toString());
    }

    @Test
    void aListPastItsLimitIsNamedThoughTheSampleHoldsFewerItems() throws Exception {
        String schema = ITEMS.replace("50000", "3000");

        assertEquals(List.of("$: must have at most 3000 items but found 3001"), problems(schema, items(3001, "{\"name\": \"a\"}")));
        assertEquals(List.of("$.later: must have at most 3000 items but found 3001"), problems("{\"properties\": {\"later\": " + schema + "}}",
                "{\"first\": " + items(3000, "0") + ", \"later\": " + items(3001, "{\"name\": \"a\"}") + "}"));
    }

    @Test
    void aLimitUnderASubschemaThatMayFailIsNoProblemOfTheDocument() throws Exception {
        String document = "{\"name\": 1, \"first\": " + items(3000, "0") + ", \"later\": [1, 2, 3]}";
        for (String mayFail : List.of("{\"anyOf\": [{\"maxItems\": 2}, {\"minItems\": 3}]}", "{\"oneOf\": [{\"maxItems\": 2}, {\"minItems\": 3}]}",
                "{\"not\": {\"maxItems\": 2}}", "{\"if\": {\"maxItems\": 2}, \"then\": {}}")) {
            String schema = "{\"properties\": {\"name\": {\"type\": \"string\"}, \"later\": " + mayFail + "}}";

            assertEquals(List.of("$.name: integer found, string expected"), problems(schema, document), mayFail);
        }
    }

    @Test
    void aPropertyNamedLikeAKeywordKeepsItsLimit() throws Exception {
        String schema = "{\"properties\": {\"oneOf\": {\"type\": \"array\", \"maxItems\": 2}}}";

        assertEquals(List.of("$.oneOf: must have at most 2 items but found 3"),
                problems(schema, "{\"first\": " + items(3000, "0") + ", \"oneOf\": [1, 2, 3]}"));
    }

    @Test
    void aFieldPastTheSampleIsNotReportedMissing() throws Exception {
        String others = java.util.stream.IntStream.range(0, 5_000).mapToObj(i -> "\"f" + i + "\": 0")
                .collect(java.util.stream.Collectors.joining(","));
        String schema = "{\"type\": \"object\", \"required\": [\"name\"],"
                + " \"properties\": {\"count\": {\"type\": \"integer\"}, \"name\": {\"type\": \"string\"}}}";

        assertEquals(List.of("$.count: string found, integer expected"),
                problems(schema, "{\"count\": \"x\", " + others + ", \"name\": \"a\"}"));
    }
}
