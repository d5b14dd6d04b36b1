package io.arbiter.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.document.Documents;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs every marked example of the docs against the service (embedded default, in-process, a free port), so the docs
 * cannot drift from what the service does. A request is the code block after {@code <!-- example: METHOD PATH -->}
 * (JSON, YAML, or a {@code curl ... -d '...'} line); the code block after the following {@code <!-- response -->}
 * (or {@code <!-- response 422 -->} for another status) is what it must answer: the shown JSON is a subset of the
 * real response. A string containing "…" matches any value; lists match element-wise in order, and a list may end
 * with "…" to leave out the elements after those shown. An example without a shown response must answer 2xx.
 */
class DocExamplesTest {

    static final List<String> DOCS = List.of("README.md", "docs/api.md", "docs/policy.md", "docs/lint.md",
            "docs/rendering-engine.md");
    private static final Pattern EXAMPLE = Pattern.compile("<!--\\s*example:\\s*(GET|POST|PUT)\\s+(\\S+)\\s*-->");
    private static final Pattern RESPONSE = Pattern.compile("<!--\\s*response(?:\\s+(\\d{3}))?\\s*-->");
    private static final Pattern CURL_BODY = Pattern.compile("(?s)(?:-d|--data)\\s+'(.*?)'");
    private static final String ELLIPSIS = "…";

    /** A fenced code block: {@code line} is its opening fence (1-based), {@code end} the index of its closing one. */
    record Block(String language, String text, int line, int end) {
    }

    record Example(String doc, int line, String method, String path, Block request, Block response, int status) {
        String name() {
            return doc + ":" + line + " " + method + " " + path;
        }
    }

    private static final String ADMIN_TOKEN = "doc-examples-token";
    private static ArbiterServer server;
    private static HttpTestClient client;

    @BeforeAll
    static void start() throws Exception {
        server = TestServers.embedded(ADMIN_TOKEN);
        client = new HttpTestClient(server.port());
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    @TestFactory
    Stream<DynamicTest> everyExampleAnswersAsShown() throws IOException {
        List<Example> examples = new ArrayList<>();
        for (String doc : DOCS) {
            examples.addAll(examples(doc));
        }
        return examples.stream().map(example -> DynamicTest.dynamicTest(example.name(), () -> run(example)));
    }

    @Test
    void everyDocHasExamplesAndEveryMarkerIsFollowedByACodeBlock() throws IOException {
        for (String doc : DOCS) {
            assertFalse(examples(doc).isEmpty(), doc + " has no marked example");
        }
    }

    @Test
    void theMatcherTakesEllipsisAsAnythingAndComparesListsInOrder() {
        JsonNode real = json("{\"a\": \"x\", \"b\": [1, 2, 3], \"c\": {\"d\": true, \"e\": null}}");

        assertTrue(mismatch(json("{\"a\": \"…\", \"b\": [1, \"…\"], \"c\": {\"d\": true}}"), real, "$").isEmpty());
        assertTrue(mismatch(json("{\"a\": \"pre…\", \"b\": [1, 2, 3]}"), real, "$").isEmpty());
        assertFalse(mismatch(json("{\"b\": [1, 2]}"), real, "$").isEmpty(), "fewer elements without a trailing …");
        assertFalse(mismatch(json("{\"b\": [2, \"…\"]}"), real, "$").isEmpty(), "order counts");
        assertFalse(mismatch(json("{\"a\": \"y\"}"), real, "$").isEmpty());
        assertFalse(mismatch(json("{\"z\": \"…\"}"), real, "$").isEmpty(), "a shown field must exist");
        assertFalse(mismatch(json("{\"c\": {\"e\": 0}}"), real, "$").isEmpty());
    }

    private static void run(Example example) {
        String contentType = example.request().language().equals("yaml") ? "application/yaml" : "application/json";
        byte[] body = example.method().equals("GET") ? new byte[0] : requestBody(example).getBytes(StandardCharsets.UTF_8);
        // an example that shows the admin token sends this server's
        String[] headers = example.request().text().contains("Authorization: Bearer")
                ? new String[] {"Authorization", "Bearer " + ADMIN_TOKEN} : new String[0];
        var response = client.send(example.method(), withLiveRevisions(example.path()), contentType, body, headers);
        if (example.response() == null) {
            assertTrue(response.status() / 100 == 2, example.name() + " answered " + response.status() + ": " + response.body());
            return;
        }
        assertEquals(example.status(), response.status(), example.name() + ": " + response.body());
        JsonNode shown = parse(example.response());
        List<String> problems = mismatch(shown, response.json(), "$");
        if (!problems.isEmpty()) {
            fail(example.name() + " (response shown at line " + example.response().line() + ") differs from the real one:\n  "
                    + String.join("\n  ", problems) + "\nreal response: " + response.body());
        }
    }

    /** A path may name the live snapshot's revision as {@code {snapshotRevision}}, as a client reads it from a decision. */
    private static String withLiveRevisions(String path) {
        if (!path.contains("{snapshotRevision}")) {
            return path;
        }
        return path.replace("{snapshotRevision}", client.get("/v1/status").json().path("snapshotRevision").asText());
    }

    private static String requestBody(Example example) {
        Block request = example.request();
        if (!request.language().equals("sh")) {
            return request.text();
        }
        Matcher body = CURL_BODY.matcher(request.text());
        assertTrue(body.find(), example.name() + ": the curl example has no -d '...' body");
        return body.group(1);
    }

    /** Where {@code shown} is not a subset of {@code real}; empty when it is. */
    static List<String> mismatch(JsonNode shown, JsonNode real, String at) {
        List<String> problems = new ArrayList<>();
        if (shown.isTextual() && shown.asText().contains(ELLIPSIS)) {
            if (real.isMissingNode()) {
                problems.add(at + ": missing");
            }
        } else if (shown.isObject()) {
            if (!real.isObject()) {
                problems.add(at + ": shown an object, real " + real);
                return problems;
            }
            Iterator<Map.Entry<String, JsonNode>> fields = shown.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                String fieldAt = at + "." + field.getKey();
                if (!real.has(field.getKey())) {
                    problems.add(fieldAt + ": missing");
                } else {
                    problems.addAll(mismatch(field.getValue(), real.get(field.getKey()), fieldAt));
                }
            }
        } else if (shown.isArray()) {
            if (!real.isArray()) {
                problems.add(at + ": shown a list, real " + real);
                return problems;
            }
            int count = shown.size();
            boolean open = count > 0 && shown.get(count - 1).isTextual() && shown.get(count - 1).asText().equals(ELLIPSIS);
            int compared = open ? count - 1 : count;
            if (open ? real.size() < compared : real.size() != compared) {
                problems.add(at + ": shown " + compared + (open ? " or more" : "") + " elements, real " + real.size());
            }
            for (int i = 0; i < Math.min(compared, real.size()); i++) {
                problems.addAll(mismatch(shown.get(i), real.get(i), at + "[" + i + "]"));
            }
        } else if (shown.isNumber() && real.isNumber()) {
            if (shown.decimalValue().compareTo(real.decimalValue()) != 0) {
                problems.add(at + ": shown " + shown + ", real " + real);
            }
        } else if (!shown.equals(real)) {
            problems.add(at + ": shown " + shown + ", real " + real);
        }
        return problems;
    }

    private static JsonNode parse(Block block) {
        String contentType = block.language().equals("yaml") ? "application/yaml" : "application/json";
        return Documents.parse(block.text().getBytes(StandardCharsets.UTF_8), contentType).tree();
    }

    private static JsonNode json(String text) {
        return Documents.parse(text.getBytes(StandardCharsets.UTF_8), "application/json").tree();
    }

    /** The marked examples of one doc, each with its request block and, if shown, its response block. */
    static List<Example> examples(String doc) throws IOException {
        List<String> lines = Files.readAllLines(Path.of(doc), StandardCharsets.UTF_8);
        List<Example> examples = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher example = EXAMPLE.matcher(lines.get(i));
            if (!example.find()) {
                continue;
            }
            Block request = blockAfter(lines, i, doc);
            Block response = null;
            int status = 200;
            for (int j = request.end() + 1; j < lines.size() && !EXAMPLE.matcher(lines.get(j)).find(); j++) {
                Matcher marker = RESPONSE.matcher(lines.get(j));
                if (marker.find()) {
                    response = blockAfter(lines, j, doc);
                    status = marker.group(1) == null ? 200 : Integer.parseInt(marker.group(1));
                    break;
                }
            }
            examples.add(new Example(doc, i + 1, example.group(1), example.group(2), request, response, status));
        }
        return examples;
    }

    /** The fenced code block that starts within a few lines after the marker at {@code marker}. */
    private static Block blockAfter(List<String> lines, int marker, String doc) {
        for (int i = marker + 1; i < Math.min(lines.size(), marker + 4); i++) {
            String line = lines.get(i).strip();
            if (line.startsWith("```")) {
                StringBuilder text = new StringBuilder();
                int j = i + 1;
                for (; j < lines.size() && !lines.get(j).strip().startsWith("```"); j++) {
                    text.append(lines.get(j)).append('\n');
                }
                return new Block(line.substring(3).strip(), text.toString(), i + 1, j);
            }
        }
        throw new AssertionError(doc + ":" + (marker + 1) + ": the marker is not followed by a code block");
    }
}
