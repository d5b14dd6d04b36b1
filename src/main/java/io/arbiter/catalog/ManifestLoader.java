package io.arbiter.catalog;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.arbiter.model.Implementation;
import io.arbiter.model.Quantifier;
import io.arbiter.model.Ref;
import io.arbiter.model.Requirement;
import io.arbiter.model.RequirementGroup;
import io.arbiter.model.TypeDefinition;
import io.arbiter.document.Documents;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Reads OCF manifests (Implementation, Interface, Type, Attribute) from a directory tree. Other kinds are
 * skipped with a log line; a malformed manifest is reported with its file name and the rest still load.
 */
public final class ManifestLoader {

    private static final Logger LOG = LoggerFactory.getLogger(ManifestLoader.class);
    private static final ObjectReader YAML = Documents.yamlMapper().readerFor(JsonNode.class);

    private final List<Implementation> implementations = new ArrayList<>();
    private final List<Ref> interfaces = new ArrayList<>();
    private final java.util.Map<Ref, List<io.arbiter.model.OutputTypeInstance>> outputs = new java.util.LinkedHashMap<>();
    private final List<TypeDefinition> types = new ArrayList<>();
    private final Map<Ref, String> typeFiles = new LinkedHashMap<>();
    private final List<Ref> attributes = new ArrayList<>();
    private final List<LoadProblem> problems = new ArrayList<>();
    private int filesRead;

    /** Loads every {@code .yaml}/{@code .yml} file under {@code root} (a plain or a zip/jar file system path). */
    public static CatalogLoadResult load(Path root) {
        ManifestLoader loader = new ManifestLoader();
        loader.loadTree(root);
        return loader.result();
    }

    private void loadTree(Path root) {
        if (!Files.isDirectory(root)) {
            throw new IllegalArgumentException("catalog directory not found: " + root);
        }
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(Files::isRegularFile)
                    .filter(file -> file.toString().endsWith(".yaml") || file.toString().endsWith(".yml"))
                    .sorted()
                    .forEach(file -> loadFile(root, file));
        } catch (IOException e) {
            throw new IllegalStateException("cannot list catalog directory " + root + ": " + e.getMessage(), e);
        }
    }

    private void loadFile(Path root, Path file) {
        String name = root.relativize(file).toString();
        filesRead++;
        try (InputStream in = Files.newInputStream(file); MappingIterator<JsonNode> docs = YAML.readValues(in)) {
            while (docs.hasNext()) {
                JsonNode doc = docs.next();
                if (doc != null && !doc.isNull() && !doc.isMissingNode()) {
                    loadManifest(name, doc);
                }
            }
        } catch (JsonProcessingException e) {
            problems.add(new LoadProblem(name, Documents.describe(e)));
        } catch (IOException | RuntimeException e) {
            problems.add(new LoadProblem(name, e.getMessage()));
        }
    }

    private void loadManifest(String file, JsonNode doc) {
        String kind = doc.path("kind").asText("");
        try {
            switch (kind) {
                case "Implementation" -> implementations.add(implementation(doc));
                case "Interface" -> {
                    Ref iface = manifestRef(doc);
                    interfaces.add(iface);
                    List<io.arbiter.model.OutputTypeInstance> declared = outputs(doc);
                    if (!declared.isEmpty()) {
                        outputs.putIfAbsent(iface, declared);
                    }
                }
                case "Type" -> {
                    TypeDefinition type = type(doc);
                    types.add(type);
                    typeFiles.putIfAbsent(type.ref(), file);
                }
                case "Attribute" -> attributes.add(manifestRef(doc));
                default -> LOG.debug("skipping {}: kind '{}' is not used by decisions", file, kind);
            }
        } catch (ManifestException e) {
            problems.add(new LoadProblem(file, e.getMessage()));
        }
    }

    /** Type schemas are compiled with the catalog: one that cannot be is reported against the Type's file. */
    private CatalogLoadResult result() {
        Catalog catalog = new Catalog(implementations, interfaces, types, attributes, outputs);
        typeFiles.forEach((type, file) -> catalog.schemaProblem(type).ifPresent(problem ->
                problems.add(new LoadProblem(file, "Type " + type + ": spec.jsonSchema.value cannot be used: " + problem))));
        problems.forEach(problem -> LOG.warn("manifest problem {}", problem));
        return new CatalogLoadResult(catalog, problems, filesRead);
    }

    /** A manifest that lacks what a decision needs. */
    public static final class ManifestException extends RuntimeException {
        ManifestException(String message) {
            super(message);
        }
    }

    static Ref manifestRef(JsonNode doc) {
        String prefix = required(doc.path("metadata").path("prefix"), "metadata.prefix");
        String name = required(doc.path("metadata").path("name"), "metadata.name");
        return new Ref(prefix + "." + name, required(doc.path("revision"), "revision"));
    }

    /** An Interface's {@code spec.output.typeInstances}: name to {@code typeRef}, in manifest order. */
    static List<io.arbiter.model.OutputTypeInstance> outputs(JsonNode doc) {
        List<io.arbiter.model.OutputTypeInstance> outputs = new ArrayList<>();
        var fields = doc.path("spec").path("output").path("typeInstances").fields();
        while (fields.hasNext()) {
            var field = fields.next();
            JsonNode typeRef = field.getValue().path("typeRef");
            if (!typeRef.path("path").isTextual() || !typeRef.path("revision").isTextual()) {
                throw new ManifestException("spec.output.typeInstances." + field.getKey()
                        + ".typeRef needs a path and a revision");
            }
            outputs.add(new io.arbiter.model.OutputTypeInstance(field.getKey(),
                    new Ref(typeRef.path("path").asText(), typeRef.path("revision").asText())));
        }
        return outputs;
    }

    static TypeDefinition type(JsonNode doc) {
        List<String> additionalRefs = new ArrayList<>();
        doc.path("spec").path("additionalRefs").forEach(ref -> additionalRefs.add(ref.asText()));
        JsonNode schemaValue = doc.path("spec").path("jsonSchema").path("value");
        JsonNode schema = null;
        if (schemaValue.isTextual()) {
            try {
                schema = Documents.jsonMapper().readTree(schemaValue.asText());
            } catch (JsonProcessingException e) {
                throw new ManifestException("spec.jsonSchema.value is not valid JSON: " + Documents.describe(e));
            }
        } else if (schemaValue.isObject()) {
            schema = schemaValue;
        }
        return new TypeDefinition(manifestRef(doc), additionalRefs, schema);
    }

    /** An Implementation from its manifest's tree (a catalog file's, or one inline in a request). */
    public static Implementation implementation(JsonNode doc) {
        Ref ref = manifestRef(doc);
        String key = ref.path() + ":" + ref.revision();
        JsonNode spec = doc.path("spec");

        List<Ref> implementsRefs = new ArrayList<>();
        for (JsonNode item : spec.path("implements")) {
            implementsRefs.add(new Ref(required(item.path("path"), "spec.implements[].path"),
                    required(item.path("revision"), "spec.implements[].revision")));
        }
        if (implementsRefs.isEmpty()) {
            throw new ManifestException("Implementation " + key + " has no spec.implements");
        }

        namesNotEmpty(doc.path("metadata").path("attributes"), "metadata.attributes");
        namesNotEmpty(spec.path("requires"), "spec.requires");
        namesNotEmpty(spec.path("additionalInput").path("parameters"), "spec.additionalInput.parameters");
        namesNotEmpty(spec.path("additionalInput").path("typeInstances"), "spec.additionalInput.typeInstances");
        List<Ref> attributes = new ArrayList<>();
        doc.path("metadata").path("attributes").fields().forEachRemaining(entry ->
                attributes.add(new Ref(entry.getKey(), textOrNull(entry.getValue().path("revision")))));

        List<RequirementGroup> groups = new ArrayList<>();
        List<Requirement> requirements = new ArrayList<>();
        spec.path("requires").fields().forEachRemaining(group -> {
            for (Quantifier quantifier : Quantifier.values()) {
                JsonNode items = group.getValue().path(quantifier.ocfName());
                if (!items.isArray()) {
                    continue;
                }
                groups.add(new RequirementGroup(key, group.getKey(), quantifier, items.size()));
                int index = 0;
                for (JsonNode item : items) {
                    String name = required(item.path("name"),
                            "spec.requires." + group.getKey() + "." + quantifier.ocfName() + "[].name");
                    String typePath = name.startsWith("cap.") ? name : group.getKey() + "." + name;
                    requirements.add(new Requirement(key, group.getKey(), quantifier, index++,
                            new Ref(typePath, textOrNull(item.path("revision"))), textOrNull(item.path("alias"))));
                }
            }
        });

        JsonNode additionalInput = spec.path("additionalInput");
        return new Implementation(ref.path(), ref.revision(), implementsRefs, attributes, groups, requirements,
                typeRefs(additionalInput.path("parameters")), typeRefs(additionalInput.path("typeInstances")));
    }

    /**
     * The keys of these maps are names (attribute and type paths, input names): the documents' parser takes empty
     * keys, which free-form values may hold, so a name map refuses them here.
     */
    private static void namesNotEmpty(JsonNode named, String where) {
        named.fieldNames().forEachRemaining(name -> {
            if (name.isEmpty()) {
                throw new ManifestException(where + " has an empty key: each key names an entry and must not be empty");
            }
        });
    }

    private static Map<String, Ref> typeRefs(JsonNode named) {
        Map<String, Ref> result = new LinkedHashMap<>();
        named.fields().forEachRemaining(entry -> {
            JsonNode typeRef = entry.getValue().path("typeRef");
            if (typeRef.has("path")) {
                result.put(entry.getKey(), new Ref(typeRef.path("path").asText(), textOrNull(typeRef.path("revision"))));
            }
        });
        return result;
    }

    private static String required(JsonNode value, String where) {
        if (!value.isValueNode() || value.asText().isBlank()) {
            throw new ManifestException("missing " + where);
        }
        return value.asText();
    }

    private static String textOrNull(JsonNode node) {
        return node.isValueNode() && !node.isNull() ? node.asText() : null;
    }
}
