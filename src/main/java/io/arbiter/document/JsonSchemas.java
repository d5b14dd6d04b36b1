package io.arbiter.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.AnnotationKeyword;
import com.networknt.schema.ExecutionContext;
import com.networknt.schema.InvalidSchemaRefException;
import com.networknt.schema.JsonMetaSchema;
import com.networknt.schema.JsonNodePath;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.NonValidationKeyword;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.ValidationMessage;
import com.networknt.schema.format.PatternFormat;
import com.networknt.schema.resource.DisallowSchemaLoader;
import com.networknt.schema.walk.JsonSchemaWalkListener;
import com.networknt.schema.walk.WalkEvent;
import com.networknt.schema.walk.WalkFlow;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * JSON Schema validation whose problems use our paths: {@code $.a.b[0]}, unknown fields at the key. Our own
 * schemas are draft 7; a Hub Type's schema is compiled under the dialect its {@code $schema} declares.
 */
public final class JsonSchemas {

    /** Problems a refusal lists at most: enough to locate a document's mistakes. */
    public static final int MAX_PROBLEMS = 100;

    private static final SchemaValidatorsConfig CONFIG = SchemaValidatorsConfig.builder().pathType(PathType.JSON_PATH)
            .keywordWalkListener("maxItems", new SizeInDocument())
            .keywordWalkListener("maxProperties", new SizeInDocument())
            .build();

    /** The dialects Hub Types may declare, by {@link #normalized} {@code $schema}. */
    private static final Map<String, JsonMetaSchema> DIALECTS = dialects();
    private static final JsonMetaSchema DEFAULT_DIALECT = DIALECTS.get(normalized("http://json-schema.org/draft-07/schema"));
    private static final JsonSchemaFactory DECLARED = JsonSchemaFactory.builder()
            .defaultMetaSchemaIri(DEFAULT_DIALECT.getIri())
            .metaSchemas(DIALECTS.values().stream().distinct().toList())
            // A Type schema is data from a catalog: it must not make Arbiter fetch anything ($ref or $schema URLs).
            .schemaLoaders(loaders -> loaders.values(list -> {
                list.clear();
                list.add(DisallowSchemaLoader.getInstance());
            }))
            .build();

    private JsonSchemas() {
    }

    /**
     * A revision as the contract writes it (policy-syntax 1, decision-api): our schemas say {@code "format": "revision"},
     * so that the pattern is written once, here.
     */
    private static final String REVISION = "^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)$";

    /** Draft 7, and the formats of our own schemas. */
    private static final JsonSchemaFactory OWN = ownSchemas();

    private static JsonSchemaFactory ownSchemas() {
        JsonMetaSchema dialect = JsonMetaSchema.builder(JsonMetaSchema.getV7())
                .format(PatternFormat.of("revision", REVISION, "{0}: must be MAJOR.MINOR.PATCH, e.g. 1.0.0")).build();
        return JsonSchemaFactory.builder().defaultMetaSchemaIri(dialect.getIri()).metaSchema(dialect).build();
    }

    /** Compiles one of our own (draft 7) schemas. */
    public static JsonSchema compile(JsonNode schema) {
        return OWN.getSchema(exactBounds(schema), CONFIG);
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

    /** A schema that cannot be compiled, said in our words. */
    public static final class UnusableSchemaException extends Exception {
        public UnusableSchemaException(String message) {
            super(message);
        }
    }

    /**
     * Compiles a schema written by someone else (a Hub Type's {@code spec.jsonSchema}) under the dialect its
     * {@code $schema} names: draft-04, -06, -07, 2019-09 or 2020-12; none means draft-07. Every {@code $ref} is
     * resolved now, so that validating later cannot fail; only references inside the schema itself resolve.
     */
    public static JsonSchema compileDeclared(JsonNode schema) throws UnusableSchemaException {
        if (!schema.isObject()) {
            throw new UnusableSchemaException("a JSON schema must be an object");
        }
        JsonMetaSchema dialect = dialect(schema.get("$schema"));
        ObjectNode declared = ((ObjectNode) schema).deepCopy();
        declared.put("$schema", dialect.getIri());
        try {
            JsonSchema compiled = DECLARED.getSchema(declared, CONFIG);
            compiled.initializeValidators();
            return compiled;
        } catch (InvalidSchemaRefException e) {
            throw new UnusableSchemaException("a $ref does not resolve inside the schema (remote schemas are never loaded)");
        } catch (RuntimeException e) {
            throw new UnusableSchemaException("it is not a valid " + dialectName(dialect) + " schema");
        }
    }

    private static JsonMetaSchema dialect(JsonNode declared) throws UnusableSchemaException {
        if (declared == null) {
            return DEFAULT_DIALECT;
        }
        JsonMetaSchema dialect = declared.isTextual() ? DIALECTS.get(normalized(declared.asText())) : null;
        if (dialect == null) {
            throw new UnusableSchemaException("$schema " + declared + " is not a JSON Schema dialect Arbiter knows"
                    + " (draft-04, draft-06, draft-07, 2019-09, 2020-12)");
        }
        return dialect;
    }

    private static Map<String, JsonMetaSchema> dialects() {
        Map<String, JsonMetaSchema> dialects = new LinkedHashMap<>();
        for (JsonMetaSchema base : List.of(JsonMetaSchema.getV4(), JsonMetaSchema.getV6(), JsonMetaSchema.getV7(),
                JsonMetaSchema.getV201909(), JsonMetaSchema.getV202012())) {
            JsonMetaSchema dialect = JsonMetaSchema.builder(base)
                    // The library lists draft-04's "id" as a keyword with no validator in every dialect, so any
                    // schema using it fails to compile. In draft-04 "id" only names the schema (read separately);
                    // later drafts ignore it. Hub Types written with draft-04 habits use it under draft-07.
                    .keyword(new NonValidationKeyword("id"))
                    // Unknown keywords (x-kubernetes-*, ...) are annotations, as the drafts say; not worth a warning each.
                    .unknownKeywordFactory((keyword, context) -> new AnnotationKeyword(keyword))
                    .build();
            dialects.put(normalized(dialect.getIri()), dialect);
        }
        // The unversioned IRI names "the current draft". Hub Types that use it were written, and validated by
        // Capact, when that meant draft-07; reading them as 2020-12 would change what they accept.
        dialects.put(normalized("http://json-schema.org/schema"), dialects.get(normalized("http://json-schema.org/draft-07/schema")));
        return Map.copyOf(dialects);
    }

    /** A dialect IRI as written with or without its empty fragment, over http or https. */
    private static String normalized(String iri) {
        return iri.replaceFirst("#$", "").replaceFirst("^https://", "http://");
    }

    private static String dialectName(JsonMetaSchema dialect) {
        return dialect.getIri().replaceFirst("^https?://json-schema.org/", "").replaceFirst("/schema#?$", "");
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

    /**
     * The problems of {@code tree} against {@code schema}, sorted by path, not yet located: the first {@link
     * #MAX_PROBLEMS}. They are looked for in a {@link SchemaSample} of the document, so that finding them costs the
     * same for a 1 MiB document as for a small one; a document with more shows them once these are mended.
     */
    public static List<Problem> problems(JsonSchema schema, JsonNode tree) {
        // The usual, valid document is validated once, as fast as the validator goes; an invalid one gives its first problem.
        Set<ValidationMessage> first = schema.validate(tree, context -> context.getExecutionConfig().setFailFast(true));
        if (first.isEmpty()) {
            return List.of();
        }
        SchemaSample sample = new SchemaSample(tree);
        List<Problem> problems = new ArrayList<>();
        ExecutionContext context = schema.createExecutionContext();
        context.getCollectorContext().add(SizeInDocument.KEY, new SizeInDocument.Found(sample, problems));
        for (ValidationMessage message : schema.walk(context, sample.tree, true).getValidationMessages()) {
            if (sample.believed(message.getType(), message.getInstanceNode())) {
                problems.add(problem(message));
            }
        }
        if (problems.isEmpty()) {
            first.forEach(message -> problems.add(problem(message)));
        }
        problems.sort(Comparator.comparing(Problem::path));
        return problems.size() > MAX_PROBLEMS ? List.copyOf(problems.subList(0, MAX_PROBLEMS)) : problems;
    }

    /**
     * Reports an incomplete container of a {@link SchemaSample} whose size in the document is past its {@code
     * maxItems} or {@code maxProperties}, which the validator cannot see in the sample.
     */
    private static final class SizeInDocument implements JsonSchemaWalkListener {

        static final String KEY = SizeInDocument.class.getName();

        /** Keywords whose subschemas may fail in a valid document: a size past a limit there is not a problem. */
        private static final Set<String> MAY_FAIL = Set.of("anyOf", "oneOf", "not", "if", "then", "else", "contains",
                "dependentSchemas", "dependencies");

        /** Keywords whose members are named by the document or the schema, not keywords themselves. */
        private static final Set<String> NAMING = Set.of("properties", "patternProperties", "definitions", "$defs",
                "dependentSchemas", "dependencies");

        record Found(SchemaSample sample, List<Problem> problems) {
        }

        @Override
        public WalkFlow onWalkStart(WalkEvent event) {
            Found found = event.getExecutionContext() == null ? null
                    : (Found) event.getExecutionContext().getCollectorContext().get(KEY);
            JsonNode node = event.getInstanceNode();
            Integer size = found == null ? null : found.sample().sizeInDocument(node);
            JsonNode limit = event.getSchema().getSchemaNode().get(event.getKeyword());
            boolean items = "maxItems".equals(event.getKeyword());
            if (size != null && limit != null && limit.canConvertToInt() && (items ? node.isArray() : node.isObject())
                    && node.size() <= limit.intValue() && size > limit.intValue()
                    && mustHold(event.getValidator().getEvaluationPath())) {
                // worded as the validator words a limit it sees passed
                found.problems().add(Problem.at(event.getInstanceLocation().toString(), "must have at most " + limit.intValue()
                        + (items ? " items but found " + size : " properties")));
            }
            return WalkFlow.CONTINUE;
        }

        /** Whether a keyword evaluated at {@code path} must hold for the document to be valid. */
        private static boolean mustHold(JsonNodePath path) {
            for (int i = 0; i < path.getNameCount(); i++) {
                if (MAY_FAIL.contains(path.getName(i)) && (i == 0 || !NAMING.contains(path.getName(i - 1)))) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public void onWalkEnd(WalkEvent event, Set<ValidationMessage> messages) {
        }
    }

    private static Problem problem(ValidationMessage message) {
        String at = message.getInstanceLocation().toString();
        if ("additionalProperties".equals(message.getType()) && message.getProperty() != null) {
            return Problem.at(Documents.childPath(at, message.getProperty()),
                    "unknown field '" + message.getProperty() + "'");
        }
        if ("required".equals(message.getType()) && message.getProperty() != null) {
            return Problem.at(Documents.childPath(at, message.getProperty()),
                    "required field '" + message.getProperty() + "' is missing");
        }
        String text = message.getMessage();
        int colon = text.indexOf(": ");
        return Problem.at(at, colon > 0 && text.startsWith("$") ? text.substring(colon + 2) : text);
    }
}
