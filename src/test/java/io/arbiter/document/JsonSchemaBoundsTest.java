package io.arbiter.document;

import com.networknt.schema.JsonSchema;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class JsonSchemaBoundsTest {

    /** Read as the schema resources are: a bound of 2147483647 is an int node, the case the validator got wrong. */
    private static final JsonSchema INDEX = JsonSchemas.compile(tree("""
            {"additionalProperties": {"type": "integer", "minimum": 0, "maximum": 2147483647},
             "properties": {"fixed": {"const": 5, "enum": [5]}}}
            """));

    private static com.fasterxml.jackson.databind.JsonNode tree(String json) {
        try {
            return Documents.jsonMapper().readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> problemPaths(String json) {
        return JsonSchemas.problems(INDEX, Documents.parse(json.getBytes(StandardCharsets.UTF_8), "application/json").tree())
                .stream().map(Problem::path).toList();
    }

    @Test
    void integerBoundsHoldForNumbersBeyondALong() {
        assertEquals(List.of("$.a", "$.b", "$.c", "$.d", "$.e"),
                problemPaths("{\"a\": 1e400, \"b\": 18446744073709551616, \"c\": -1e400, \"d\": 2147483648, \"e\": 1.5}"));
    }

    @Test
    void numbersWithinTheBoundsAndDataKeywordsAreUntouched() {
        assertEquals(List.of(), problemPaths("{\"a\": 0, \"b\": 2147483647, \"c\": 2.0, \"fixed\": 5}"));
    }
}
