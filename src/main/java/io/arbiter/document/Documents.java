package io.arbiter.document;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import com.networknt.schema.PathType;
import org.yaml.snakeyaml.LoaderOptions;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Parses JSON and YAML documents from untrusted input into trees with source locations. Limits: nesting depth,
 * one document per input, and no YAML aliases (an alias bomb is refused, not expanded).
 */
public final class Documents {

    public static final int MAX_DEPTH = 64;
    private static final int MAX_ALIASES = 10;

    private static final JsonFactory JSON_FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH + 1).build())
            .build();
    private static final YAMLFactory YAML_FACTORY = YAMLFactory.builder()
            .loaderOptions(yamlLoaderOptions())
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH + 1).build())
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .build();
    private static final ObjectMapper JSON = configure(new ObjectMapper(JSON_FACTORY));
    private static final ObjectMapper YAML = configure(new ObjectMapper(YAML_FACTORY));

    private Documents() {
    }

    public static ObjectMapper jsonMapper() {
        return JSON;
    }

    public static ObjectMapper yamlMapper() {
        return YAML;
    }

    /** Parses one JSON document; every problem names its location. */
    public static LocatedDocument parseJson(byte[] body) {
        return parse(JSON_FACTORY, body, LocatedDocument.Format.JSON);
    }

    /** Parses one YAML document (JSON is YAML too); every problem names its location. */
    public static LocatedDocument parseYaml(byte[] body) {
        return parse(YAML_FACTORY, body, LocatedDocument.Format.YAML);
    }

    /** Picks the parser from a media type: YAML for {@code application/yaml}, {@code text/yaml} and friends. */
    public static LocatedDocument parse(byte[] body, String contentType) {
        return isYaml(contentType) ? parseYaml(body) : parseJson(body);
    }

    public static boolean isYaml(String contentType) {
        return contentType != null && contentType.toLowerCase().contains("yaml");
    }

    /** A one-line description of a parse error with its line and column. */
    public static String describe(JsonProcessingException e) {
        JsonLocation location = e.getLocation();
        String message = e.getOriginalMessage();
        return location == null ? message
                : message + " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
    }

    private static LocatedDocument parse(JsonFactory factory, byte[] body, LocatedDocument.Format format) {
        Map<String, Locations.Location> locations = new HashMap<>();
        try (JsonParser parser = factory.createParser(body)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw new DocumentException("the document is empty", Problem.at("$", "empty document"));
            }
            JsonNode tree = new TreeBuilder(parser, locations).value("$", 0);
            if (parser.nextToken() != null) {
                throw failure("expected exactly one document", "$", parser);
            }
            return new LocatedDocument(tree, new Locations(locations), format);
        } catch (DocumentException e) {
            throw e;
        } catch (JsonProcessingException e) {
            JsonLocation location = e.getLocation();
            throw new DocumentException("malformed " + format.name() + ": " + e.getOriginalMessage(), new Problem("$",
                    e.getOriginalMessage(), location == null ? null : location.getLineNr(),
                    location == null ? null : location.getColumnNr()));
        } catch (IOException | RuntimeException e) {
            String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new DocumentException("malformed " + format.name() + ": " + reason, Problem.at("$", reason));
        }
    }

    private static DocumentException failure(String message, String path, JsonParser parser) {
        JsonLocation location = parser.currentTokenLocation();
        return new DocumentException(message + " at " + path,
                new Problem(path, message, location.getLineNr(), location.getColumnNr()));
    }

    /** Builds a tree token by token, recording where each path starts and refusing what we do not accept. */
    private static final class TreeBuilder {
        private final JsonParser parser;
        private final Map<String, Locations.Location> locations;

        TreeBuilder(JsonParser parser, Map<String, Locations.Location> locations) {
            this.parser = parser;
            this.locations = locations;
        }

        JsonNode value(String path, int depth) throws IOException {
            JsonLocation at = parser.currentTokenLocation();
            locations.putIfAbsent(path, new Locations.Location(at.getLineNr(), at.getColumnNr()));
            if (depth > MAX_DEPTH) {
                throw failure("nesting deeper than " + MAX_DEPTH + " levels", path, parser);
            }
            if (parser instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
                throw failure("YAML aliases are not accepted (alias *" + yaml.getCurrentAnchor() + ")", path, parser);
            }
            JsonToken token = parser.currentToken();
            return switch (token) {
                case START_OBJECT -> object(path, depth);
                case START_ARRAY -> array(path, depth);
                case VALUE_STRING -> JsonNodeFactory.instance.textNode(parser.getText());
                case VALUE_NUMBER_INT -> JsonNodeFactory.instance.numberNode(parser.getBigIntegerValue());
                case VALUE_NUMBER_FLOAT -> JsonNodeFactory.instance.numberNode(parser.getDecimalValue());
                case VALUE_TRUE -> JsonNodeFactory.instance.booleanNode(true);
                case VALUE_FALSE -> JsonNodeFactory.instance.booleanNode(false);
                case VALUE_NULL -> JsonNodeFactory.instance.nullNode();
                default -> throw failure("unexpected " + token, path, parser);
            };
        }

        private ObjectNode object(String path, int depth) throws IOException {
            ObjectNode node = JsonNodeFactory.instance.objectNode();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                String child = PathType.JSON_PATH.append(path, name);
                if (node.has(name)) {
                    throw failure("duplicate key '" + name + "'", child, parser);
                }
                JsonLocation at = parser.currentTokenLocation();
                locations.put(child, new Locations.Location(at.getLineNr(), at.getColumnNr()));
                parser.nextToken();
                node.set(name, value(child, depth + 1));
            }
            return node;
        }

        private ArrayNode array(String path, int depth) throws IOException {
            ArrayNode node = JsonNodeFactory.instance.arrayNode();
            int index = 0;
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                node.add(value(PathType.JSON_PATH.append(path, index++), depth + 1));
            }
            return node;
        }
    }

    private static LoaderOptions yamlLoaderOptions() {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(MAX_ALIASES);
        options.setAllowRecursiveKeys(false);
        options.setNestingDepthLimit(MAX_DEPTH + 1);
        return options;
    }

    private static ObjectMapper configure(ObjectMapper mapper) {
        return mapper.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
    }
}
