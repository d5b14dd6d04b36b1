package io.arbiter.catalog;

import ch.qos.logback.classic.Level;
import io.arbiter.model.Implementation;
import io.arbiter.model.Quantifier;
import io.arbiter.model.Ref;
import io.arbiter.model.Requirement;
import io.arbiter.testing.Fixtures;
import io.arbiter.testing.LogCapture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ManifestLoaderTest {

    @RegisterExtension
    final LogCapture logs = LogCapture.of(ManifestLoader.class);

    @TempDir
    Path temp;

    @Test
    void everyHubManifestLoads() throws IOException {
        Path hub = Fixtures.requireHubManifests();
        long yamlFiles;
        try (Stream<Path> files = Files.walk(hub)) {
            yamlFiles = files.filter(f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml")).count();
        }

        CatalogLoadResult result = ManifestLoader.load(hub);

        assertEquals(java.util.List.of(), result.problems(), "every Hub manifest must load");
        assertEquals(yamlFiles, result.filesRead());
        assertEquals(41, result.catalog().implementations().size());
        assertEquals(32, result.catalog().interfaceCount());
        assertEquals(66, result.catalog().types().size());
        assertEquals(10, result.catalog().attributes().size());
    }

    @Test
    void hubImplementationRequirementsAreFlattenedWithFullTypePaths() {
        Catalog catalog = ManifestLoader.load(Fixtures.requireHubManifests()).catalog();

        Implementation cloudsql = catalog.implementationsOf("cap.interface.database.postgresql.install").stream()
                .filter(impl -> impl.key().equals("cap.implementation.gcp.cloudsql.postgresql.install:0.2.0"))
                .findFirst().orElseThrow();

        assertTrue(cloudsql.requirements().contains(new Requirement(cloudsql.key(), "cap.type.gcp.auth", Quantifier.ALL_OF, 0,
                new Ref("cap.type.gcp.auth.service-account", "0.1.0"), "gcp-sa")), cloudsql.requirements().toString());
        assertTrue(cloudsql.attributes().contains(new Ref("cap.attribute.cloud.provider.gcp", "0.1.0")));
        assertEquals("0.1.0", catalog.highestInterfaceRevision("cap.interface.database.postgresql.install").orElseThrow());
    }

    /** Documents take empty keys (free-form values may hold them); the name maps of a manifest do not. */
    @Test
    void anEmptyNameInAManifestsNameMapIsRefused() throws IOException {
        for (String map : new String[]{"metadata.attributes", "spec.requires", "spec.additionalInput.parameters"}) {
            var manifest = (com.fasterxml.jackson.databind.node.ObjectNode) io.arbiter.document.Documents.yamlMapper().readTree(
                    Files.readAllBytes(Fixtures.EMBEDDED.resolve("catalog/implementation/bitnami-postgresql-install.yaml")));
            String[] steps = map.split("\\.");
            com.fasterxml.jackson.databind.node.ObjectNode named = manifest;
            for (String step : steps) {
                named = named.has(step) ? (com.fasterxml.jackson.databind.node.ObjectNode) named.get(step) : named.putObject(step);
            }
            named.putObject("");

            var e = assertThrows(ManifestLoader.ManifestException.class, () -> ManifestLoader.implementation(manifest), map);

            assertEquals(map + " has an empty key: each key names an entry and must not be empty", e.getMessage());
        }
    }

    @Test
    void malformedManifestIsReportedByFileNameAndTheRestStillLoads() throws IOException {
        Files.createDirectories(temp.resolve("implementation"));
        Files.copy(Fixtures.EMBEDDED.resolve("catalog/implementation/bitnami-postgresql-install.yaml"),
                temp.resolve("implementation/good.yaml"));
        Files.writeString(temp.resolve("implementation/broken.yaml"), "kind: Implementation\nmetadata: [unclosed\n");
        Files.writeString(temp.resolve("implementation/incomplete.yaml"), "kind: Implementation\nrevision: 0.1.0\nmetadata: {prefix: cap.implementation.x}\n");
        Files.writeString(temp.resolve("vendor.yaml"), "kind: Vendor\nmetadata: {name: x}\n");

        CatalogLoadResult result = ManifestLoader.load(temp);

        assertEquals(1, result.catalog().implementations().size());
        assertEquals(2, result.problems().size(), result.problems().toString());
        assertTrue(result.problems().stream().anyMatch(p -> p.file().endsWith("broken.yaml") && p.message().contains("line")),
                result.problems().toString());
        assertTrue(result.problems().stream().anyMatch(p -> p.file().endsWith("incomplete.yaml") && p.message().contains("metadata.name")),
                result.problems().toString());
        assertEquals(result.problems().stream().map(problem -> "manifest problem " + problem).toList(),
                logs.messages(Level.WARN), "each problem is a warning in the server log");
    }

    @Test
    void aTypeSchemaThatCannotBeCompiledIsALoadProblemOfItsFileAndTheTypeStillLoads() throws IOException {
        Files.writeString(temp.resolve("odd-type.yaml"), """
                kind: Type
                revision: 0.1.0
                metadata: {prefix: cap.type.x, name: input}
                spec:
                  jsonSchema:
                    value: '{"$schema": "http://example.com/my-dialect", "type": "object"}'
                """);

        CatalogLoadResult result = ManifestLoader.load(temp);

        Ref type = new Ref("cap.type.x.input", "0.1.0");
        assertEquals(1, result.problems().size(), result.problems().toString());
        assertEquals("odd-type.yaml", result.problems().get(0).file());
        assertTrue(result.problems().get(0).message().startsWith("Type cap.type.x.input:0.1.0: spec.jsonSchema.value cannot be used: "
                + "$schema \"http://example.com/my-dialect\" is not a JSON Schema dialect"), result.problems().toString());
        assertTrue(result.catalog().type(type).isPresent());
        assertTrue(result.catalog().schema(type).isEmpty());
        assertEquals(java.util.List.of("manifest problem " + result.problems().get(0)), logs.messages(Level.WARN));
    }

    @Test
    void highestInterfaceRevisionUsesSemanticOrder() {
        Catalog catalog = new Catalog(java.util.List.of(), java.util.List.of(
                new Ref("cap.interface.x", "0.9.0"), new Ref("cap.interface.x", "0.10.0"), new Ref("cap.interface.x", "0.2.0")),
                java.util.List.of(), java.util.List.of());

        assertEquals("0.10.0", catalog.highestInterfaceRevision("cap.interface.x").orElseThrow());
        assertTrue(catalog.highestInterfaceRevision("cap.interface.unknown").isEmpty());
    }
}
