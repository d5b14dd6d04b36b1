package io.arbiter.document;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
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
import org.yaml.snakeyaml.reader.ReaderException;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Parses JSON and YAML documents from untrusted input into trees with source locations. Limits: nesting depth,
 * one document per input, and no YAML aliases (an alias bomb is refused, not expanded).
 *
 * <p>A document is read once, plainly: the same checks, but no paths and no locations, which cost ten times the
 * parse itself on a large request. Only when something must be reported is it read again, locating: a refused
 * document is read again to say where it went wrong, and {@link LocatedDocument#locations} reads it again the first
 * time a problem in an accepted document is located.
 */
public final class Documents {

    /** Containers nested deeper than this are refused. */
    public static final int MAX_DEPTH = 64;
    /** Numbers that take more digits than this written out in full are refused before any arithmetic is done. */
    public static final int MAX_NUMBER_DIGITS = 1000;
    private static final int MAX_ALIASES = 10;
    private static final Pattern NOT_FINITE = Pattern.compile("[-+]?\\.(inf|Inf|INF|nan|NaN|NAN)");

    /*
     * The parsers' own limits sit above ours, so that ours are met first and answer with our wording, the path and
     * the location; theirs stay as a backstop (a number past the parser's length limit is refused before it is read).
     */
    private static final StreamReadConstraints CONSTRAINTS = StreamReadConstraints.builder()
            .maxNestingDepth(MAX_DEPTH + 1)
            .maxNumberLength(10 * MAX_NUMBER_DIGITS)
            .build();
    private static final JsonFactory JSON_FACTORY = JsonFactory.builder()
            .streamReadConstraints(CONSTRAINTS)
            .build();
    private static final YAMLFactory YAML_FACTORY = YAMLFactory.builder()
            .loaderOptions(yamlLoaderOptions())
            .streamReadConstraints(CONSTRAINTS)
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

    /**
     * The JSON path of the member {@code name} of the object at {@code parent}. JSON allows an empty key, which
     * {@link PathType#JSON_PATH} refuses: it is {@code parent['']}.
     */
    public static String childPath(String parent, String name) {
        return name.isEmpty() ? parent + "['']" : PathType.JSON_PATH.append(parent, name);
    }

    /** A one-line description of a parse error with its line and column. */
    public static String describe(JsonProcessingException e) {
        JsonLocation location = e.getLocation();
        String message = e.getOriginalMessage();
        return location == null ? message
                : message + " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
    }

    private static LocatedDocument parse(JsonFactory factory, byte[] body, LocatedDocument.Format format) {
        int invalid = Utf8.firstInvalidByte(body);
        if (invalid >= 0) {
            throw refused(format, new Problem(pathAt(factory, body, invalid),
                    describeByte(body, invalid), Utf8.locationOfByte(body, invalid)));
        }
        JsonNode tree;
        try (JsonParser parser = factory.createParser(body)) {
            tree = new TreeBuilder(parser, false).document();
        } catch (IOException | RuntimeException e) {
            // Refused: the located reading refuses it the same way, and says where.
            return located(factory, body, format);
        }
        return new LocatedDocument(tree, Locations.lazily(() -> located(factory, body, format).locations()), format);
    }

    /** Reads the document again, recording where each path starts; a refusal names the path, line and column. */
    private static LocatedDocument located(JsonFactory factory, byte[] body, LocatedDocument.Format format) {
        try (JsonParser parser = factory.createParser(body)) {
            TreeBuilder builder = new TreeBuilder(parser, true);
            try {
                JsonNode tree = builder.document();
                return new LocatedDocument(tree, new Locations(builder.locations), format);
            } catch (JsonProcessingException | RuntimeException e) {
                throw unreadable(factory, body, format, builder, e);
            }
        } catch (IOException e) {
            throw refused(format, new Problem("$", "the document could not be read", null, null));
        }
    }

    /** A parser's complaint in our words, at the path being read and the parser's line and column. */
    private static DocumentException unreadable(JsonFactory factory, byte[] body, LocatedDocument.Format format,
                                                TreeBuilder builder, Exception e) {
        if (e instanceof DocumentException document) {
            return document;
        }
        if (e.getCause() instanceof ReaderException reader) {
            // SnakeYAML checks characters a buffer ahead of the parser: locate the character itself
            int offset = Utf8.offsetOfCodePoint(body, reader.getPosition());
            return refused(format, new Problem(pathAt(factory, body, offset),
                    String.format("character U+%04X is not allowed in YAML", reader.getCodePoint()),
                    Utf8.locationOfByte(body, offset)));
        }
        JsonLocation location = e instanceof JsonProcessingException processing && processing.getLocation() != null
                ? processing.getLocation() : builder.parser.currentLocation();
        return refused(format, new Problem(builder.errorPath(), problem(format, e), location));
    }

    private static String problem(LocatedDocument.Format format, Exception e) {
        String text = e.getMessage() == null ? "" : e.getMessage();
        if (e instanceof StreamConstraintsException && text.startsWith("String value length")) {
            return "a string is longer than " + StreamReadConstraints.DEFAULT_MAX_STRING_LEN + " characters";
        }
        if (e instanceof StreamConstraintsException && text.startsWith("Number value length")) {
            return tooManyDigits();
        }
        if (e instanceof StreamConstraintsException) {
            return "the document exceeds a parser limit (nesting at most " + MAX_DEPTH + " levels, numbers at most "
                    + MAX_NUMBER_DIGITS + " digits)";
        }
        if (e instanceof JsonEOFException) {
            return "the document ends before its value is complete (an object, array or string is not closed)";
        }
        return "not valid " + format.name() + " syntax here";
    }

    private static DocumentException refused(LocatedDocument.Format format, Problem problem) {
        return new DocumentException("malformed " + format.name() + ": " + problem, problem);
    }

    private static String describeByte(byte[] body, int offset) {
        if (body[offset] == 0) {
            return "a NUL byte is not allowed (a document is UTF-8 text)";
        }
        int b = body[offset] & 0xFF;
        String kind = b == 0xED ? "an encoded UTF-16 surrogate (CESU-8)"
                : b == 0xC0 || b == 0xC1 || b == 0xE0 || b == 0xF0 ? "an invalid or overlong encoding"
                : b >= 0xF4 ? "an invalid byte or a value past U+10FFFF"
                : "an invalid byte sequence";
        return String.format("the text is not valid UTF-8: byte 0x%02X starts %s", b, kind);
    }

    /**
     * The path of the value that byte {@code offset} belongs to: the text before the offset is read alone, and the
     * path being read when it ends is the answer.
     */
    private static String pathAt(JsonFactory factory, byte[] body, int offset) {
        try (JsonParser parser = factory.createParser(body, 0, offset)) {
            TreeBuilder builder = new TreeBuilder(parser, true);
            try {
                builder.document();
                return builder.lastValue;
            } catch (IOException | RuntimeException e) {
                // the truncated text usually ends early; where it ended is what we want
                return builder.errorPath();
            }
        } catch (IOException | RuntimeException e) {
            return "$";
        }
    }

    private static DocumentException failure(String message, String path, JsonParser parser) {
        return refused(parser instanceof YAMLParser ? LocatedDocument.Format.YAML : LocatedDocument.Format.JSON,
                new Problem(path, message, parser.currentTokenLocation()));
    }

    /**
     * Builds a tree token by token, refusing what we do not accept. When {@code locating}, it records where each
     * path starts, and {@code path} is always the path being read, so that a parser error can name it; otherwise
     * paths are not built ({@code at} is null) and a refusal names none.
     */
    private static final class TreeBuilder {
        private final JsonParser parser;
        private final boolean locating;
        private final Map<String, Locations.Location> locations = new HashMap<>();
        private String path = "$";
        private String lastValue = "$";
        /** Set while the parser looks for an object's next key; {@code completedKey} is the key read before it. */
        private boolean awaitingKey;
        private String completedKey;

        TreeBuilder(JsonParser parser, boolean locating) {
            this.parser = parser;
            this.locating = locating;
        }

        /**
         * The path a parser error belongs to. Jackson reads a key and the start of its value in one step, so an error
         * while looking for a key is in that key's value once the parser has taken a new key.
         */
        String errorPath() {
            String key = parser.getParsingContext().getCurrentName();
            if (awaitingKey && parser.getParsingContext().inObject() && key != null && !key.isEmpty()
                    && !key.equals(completedKey) && !Utf8.hasUnpairedSurrogate(key)) {
                return PathType.JSON_PATH.append(path, key);
            }
            return path;
        }

        JsonNode document() throws IOException {
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw new DocumentException("the document is empty", Problem.at("$", "empty document"));
            }
            JsonNode tree = value("$", 1);
            path = "$";
            if (parser.nextToken() != null) {
                throw failure("expected exactly one document", "$", parser);
            }
            return tree;
        }

        /** The value at {@code at}, whose containers are {@code level} deep (the root is level 1). */
        private JsonNode value(String at, int level) throws IOException {
            if (locating) {
                path = at;
                lastValue = at;
                JsonLocation location = parser.currentTokenLocation();
                locations.putIfAbsent(at, new Locations.Location(location.getLineNr(), location.getColumnNr()));
            }
            if (parser instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
                throw failure("YAML aliases are not accepted (alias *" + parser.getText() + ")", at, parser);
            }
            JsonToken token = parser.currentToken();
            if (token.isStructStart() && level > MAX_DEPTH) {
                throw failure("nesting deeper than the limit of " + MAX_DEPTH + " levels", at, parser);
            }
            return switch (token) {
                case START_OBJECT -> object(at, level);
                case START_ARRAY -> array(at, level);
                case VALUE_STRING -> JsonNodeFactory.instance.textNode(text(at));
                case VALUE_NUMBER_INT -> JsonNodeFactory.instance.numberNode(integer(at));
                case VALUE_NUMBER_FLOAT -> JsonNodeFactory.instance.numberNode(decimal(at));
                case VALUE_TRUE -> JsonNodeFactory.instance.booleanNode(true);
                case VALUE_FALSE -> JsonNodeFactory.instance.booleanNode(false);
                case VALUE_NULL -> JsonNodeFactory.instance.nullNode();
                case VALUE_EMBEDDED_OBJECT -> throw failure("binary values are not accepted", at, parser);
                default -> throw failure("unexpected content", at, parser);
            };
        }

        private String text(String at) throws IOException {
            String text = parser.getText();
            if (Utf8.hasUnpairedSurrogate(text)) {
                throw failure("the string is not valid Unicode: it has an unpaired UTF-16 surrogate", at, parser);
            }
            return text;
        }

        private BigInteger integer(String at) throws IOException {
            String text = parser.getText();
            long digits = text.chars().filter(Character::isDigit).count();
            if (digits > MAX_NUMBER_DIGITS) {
                throw failure(tooManyDigits(), at, parser);
            }
            return parser.getBigIntegerValue();
        }

        private BigDecimal decimal(String at) throws IOException {
            String text = parser.getText().trim();
            if (NOT_FINITE.matcher(text).matches()) {
                throw failure("the number is not finite (" + text + ")", at, parser);
            }
            BigDecimal value = parser.getDecimalValue();
            // 1e999999999 is a short text but a billion digits to any arithmetic done on it later
            long integerDigits = Math.max((long) value.precision() - value.scale(), 0);
            long fractionDigits = Math.max(value.scale(), 0);
            if (integerDigits + fractionDigits > MAX_NUMBER_DIGITS) {
                throw failure(tooManyDigits(), at, parser);
            }
            return value;
        }

        private ObjectNode object(String at, int level) throws IOException {
            ObjectNode node = JsonNodeFactory.instance.objectNode();
            completedKey = null;
            while (nextKey() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                // An empty key is valid JSON, and free-form values (a parameter's value) may hold one; where keys are
                // names, the schemas (additionalProperties: false) and the loaders of name maps refuse it.
                if (name == null) {
                    throw failure("an object key is missing", at, parser);
                }
                if (Utf8.hasUnpairedSurrogate(name)) {
                    throw failure("an object key is not valid Unicode: it has an unpaired UTF-16 surrogate", at, parser);
                }
                String child = locating ? childPath(at, name) : null;
                if (node.has(name)) {
                    throw failure("duplicate key '" + name + "'", child, parser);
                }
                if (locating) {
                    JsonLocation location = parser.currentTokenLocation();
                    locations.put(child, new Locations.Location(location.getLineNr(), location.getColumnNr()));
                    path = child;
                }
                parser.nextToken();
                node.set(name, value(child, level + 1));
                path = at;
                completedKey = name;
            }
            return node;
        }

        private JsonToken nextKey() throws IOException {
            awaitingKey = true;
            JsonToken token = parser.nextToken();
            awaitingKey = false;
            return token;
        }

        private ArrayNode array(String at, int level) throws IOException {
            ArrayNode node = JsonNodeFactory.instance.arrayNode();
            int index = 0;
            while (true) {
                String element = locating ? PathType.JSON_PATH.append(at, index++) : null;
                path = element;
                if (parser.nextToken() == JsonToken.END_ARRAY) {
                    path = at;
                    return node;
                }
                node.add(value(element, level + 1));
            }
        }
    }

    private static String tooManyDigits() {
        return "the number has more than " + MAX_NUMBER_DIGITS + " digits written out in full (the limit is "
                + MAX_NUMBER_DIGITS + ")";
    }

    private static LoaderOptions yamlLoaderOptions() {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(MAX_ALIASES);
        options.setAllowRecursiveKeys(false);
        options.setNestingDepthLimit(MAX_DEPTH + 2);
        return options;
    }

    private static ObjectMapper configure(ObjectMapper mapper) {
        return mapper.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
    }
}
