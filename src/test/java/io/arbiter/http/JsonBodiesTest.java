package io.arbiter.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.arbiter.document.Documents;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/** Response bodies written through one reused array per thread come out as Jackson writes them, whatever came before. */
class JsonBodiesTest {

    @Test
    void eachBodyIsWrittenAsJacksonWritesItWhateverCameBefore() throws Exception {
        ArrayNode large = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < 100_000; i++) {
            large.add("element ü " + i); // about 1.7 MB: past the initial array and past what a thread keeps
        }
        List<Object> bodies = List.of(Map.of("status", "UP"), large, Map.of("decisionId", "d-1", "outcome", "SELECTED"),
                large, List.of(), "a \"quoted\" string");

        for (Object body : bodies) {
            assertArrayEquals(Documents.jsonMapper().writeValueAsBytes(body), JsonBodies.write(body).getBytes());
        }
    }
}
