package io.arbiter.decision;

import io.arbiter.catalog.CatalogLoadResult;
import io.arbiter.catalog.ManifestLoader;
import io.arbiter.catalog.TypeInstanceLoader;
import io.arbiter.catalog.TypeInstanceStore;
import io.arbiter.decision.implementation.ImplementationDecider;
import io.arbiter.document.DocumentException;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.engine.RuleBaseBuilder;
import io.arbiter.engine.RuleFiles;
import io.arbiter.policy.PolicyDocument;
import io.arbiter.policy.PolicyParser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Builds a complete snapshot from settings: policy, catalog, TypeInstances and compiled rule bases. */
public final class SnapshotLoader {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotLoader.class);

    private SnapshotLoader() {
    }

    public static Snapshot load(Settings settings) {
        Path rules = settings.rulesDir() != null ? settings.rulesDir() : RuleFiles.classpathFolder("rules");
        Path tables = settings.tablesDir() != null ? settings.tablesDir() : RuleFiles.classpathFolder("decision-tables");
        CompiledRuleBase implementation = RuleBaseBuilder.build(ImplementationDecider.KIND,
                rules.resolve(ImplementationDecider.KIND), tables.resolve(ImplementationDecider.KIND),
                ImplementationDecider.PHASES);

        Path hub = settings.hubDir() != null ? settings.hubDir() : RuleFiles.classpathFolder("embedded/catalog");
        CatalogLoadResult catalog = ManifestLoader.load(hub);
        LOG.info("catalog {}: {} Implementations, {} Interfaces, {} Types from {} files ({} skipped)", hub,
                catalog.catalog().implementations().size(), catalog.catalog().interfaceCount(),
                catalog.catalog().typeCount(), catalog.filesRead(), catalog.problems().size());

        Path typeInstancesFile = settings.typeInstancesFile() != null ? settings.typeInstancesFile()
                : RuleFiles.classpathFolder("embedded").resolve("type-instances.yaml");
        TypeInstanceStore store = TypeInstanceLoader.load(typeInstancesFile);

        Path policyFile = settings.policyFile() != null ? settings.policyFile()
                : RuleFiles.classpathFolder("embedded").resolve("policy.yaml");
        PolicyDocument policy = loadPolicy(policyFile);

        return new Snapshot(policy, Map.of(ImplementationDecider.KIND, implementation), catalog.catalog(), store,
                settings.platformTypeInstances());
    }

    public static PolicyDocument loadPolicy(Path file) {
        byte[] content;
        try {
            content = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read policy " + file, e);
        }
        try {
            return PolicyParser.parse(content, "application/yaml");
        } catch (DocumentException e) {
            throw new DocumentException("policy " + file + ": " + e.getMessage(), e.problems());
        }
    }
}
