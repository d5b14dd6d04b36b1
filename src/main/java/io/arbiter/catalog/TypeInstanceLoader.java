package io.arbiter.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.document.DocumentException;
import io.arbiter.document.Documents;
import io.arbiter.document.LocatedDocument;
import io.arbiter.document.Problem;
import io.arbiter.model.Ref;
import io.arbiter.model.TypeInstance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads TypeInstances: a YAML/JSON list, or an object with a {@code typeInstances} list, of {@code {id, typeRef, description}}. */
public final class TypeInstanceLoader {

    private TypeInstanceLoader() {
    }

    public static TypeInstanceStore load(Path file) {
        try {
            LocatedDocument document = Documents.parseYaml(Files.readAllBytes(file));
            JsonNode list = document.tree().isArray() ? document.tree() : document.tree().path("typeInstances");
            String base = document.tree().isArray() ? "$" : "$.typeInstances";
            try {
                return new TypeInstanceStore(parse(list, base));
            } catch (DocumentException e) {
                throw new DocumentException(file + ": " + e.getMessage(),
                        e.problems().stream().map(p -> p.locatedBy(document.locations())).toList());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read TypeInstances from " + file, e);
        }
    }

    /** Parses a list of TypeInstances; every malformed entry is a located problem under {@code base}. */
    public static List<TypeInstance> parse(JsonNode list, String base) {
        if (!list.isArray()) {
            throw new DocumentException("TypeInstances must be a list", Problem.at(base, "expected a list of TypeInstances"));
        }
        List<TypeInstance> result = new ArrayList<>();
        List<Problem> problems = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode entry = list.get(i);
            String at = base + "[" + i + "]";
            JsonNode id = entry.path("id");
            JsonNode path = entry.path("typeRef").path("path");
            JsonNode revision = entry.path("typeRef").path("revision");
            if (!id.isTextual() || id.asText().isBlank()) {
                problems.add(Problem.at(at + ".id", "a TypeInstance needs a string id"));
            }
            if (!path.isTextual() || !path.asText().startsWith("cap.")) {
                problems.add(Problem.at(at + ".typeRef.path", "a TypeInstance needs a typeRef.path starting with 'cap.'"));
            }
            if (!revision.isTextual()) {
                problems.add(Problem.at(at + ".typeRef.revision", "a TypeInstance needs a typeRef.revision"));
            }
            if (problems.isEmpty()) {
                JsonNode description = entry.path("description");
                result.add(new TypeInstance(id.asText(), new Ref(path.asText(), revision.asText()),
                        description.isTextual() ? description.asText() : null));
            }
        }
        if (!problems.isEmpty()) {
            throw new DocumentException("invalid TypeInstances: " + problems.size() + " problem(s)", problems);
        }
        return result;
    }
}
