package io.arbiter.runtime;

import io.arbiter.decision.DecisionException;
import io.arbiter.decision.Settings;
import io.arbiter.decision.Snapshot;
import io.arbiter.decision.SnapshotLoadException;
import io.arbiter.catalog.Catalog;
import io.arbiter.document.Documents;
import io.arbiter.document.Locations;
import io.arbiter.document.Problem;
import io.arbiter.policy.HubStorageCheck;
import java.util.List;
import io.arbiter.catalog.CatalogLoadResult;
import io.arbiter.catalog.ManifestLoader;
import io.arbiter.catalog.TypeInstanceLoader;
import io.arbiter.catalog.TypeInstanceStore;
import io.arbiter.document.DocumentException;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.engine.RuleBaseBuilder;
import io.arbiter.engine.RuleBaseException;
import io.arbiter.engine.RuleFiles;
import io.arbiter.policy.PolicyDocument;
import io.arbiter.policy.PolicyParser;
import io.arbiter.policytype.PolicyType;
import io.arbiter.policytype.PolicyTypeRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** Builds a complete snapshot from settings: policy, catalog, TypeInstances and one rule base per policy type. */
public final class SnapshotLoader {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotLoader.class);

    private SnapshotLoader() {
    }

    /**
     * A snapshot of what {@code settings} name. A type whose rule files did not change since a snapshot this JVM built
     * gets the same rule base again ({@link RuleBaseBuilder#build} keeps them by content).
     */
    public static Snapshot load(Settings settings, PolicyTypeRegistry registry) {
        // Rule bases load on their own threads while this one reads the catalog, store and policy.
        Map<String, CompletableFuture<CompiledRuleBase>> ruleBases = startRuleBases(settings, registry);

        Path hub = settings.hubDir() != null ? settings.hubDir() : RuleFiles.classpathFolder("embedded/catalog");
        if (!Files.isDirectory(hub)) {
            throw new SnapshotLoadException("the catalog folder " + hub + (Files.exists(hub) ? " is not a folder" : " does not exist"));
        }
        CatalogLoadResult catalog = stage("the catalog " + hub, () -> ManifestLoader.load(hub));
        if (catalog.filesRead() == 0) {
            // as an empty rules folder is refused: serving no Implementation at all is a wrong path, not a catalog
            throw new SnapshotLoadException("the catalog folder " + hub + " holds no manifest files (*.yaml, *.yml): give "
                    + "--hub the folder of the Hub's OCF manifests (Implementations, Interfaces, Types, Attributes), or "
                    + "leave --hub out to serve the embedded catalog");
        }
        LOG.info("catalog {}: {} Implementations, {} Interfaces, {} Types from {} files ({} skipped)", hub,
                catalog.catalog().implementations().size(), catalog.catalog().interfaceCount(),
                catalog.catalog().types().size(), catalog.filesRead(), catalog.problems().size());

        Path typeInstancesFile = settings.typeInstancesFile() != null ? settings.typeInstancesFile()
                : RuleFiles.classpathFolder("embedded").resolve("type-instances.yaml");
        TypeInstanceStore store = stage("the TypeInstance store " + typeInstancesFile, () -> TypeInstanceLoader.load(typeInstancesFile));
        return assemble(settings, registry, ruleBases, catalog.catalog(), store);
    }

    /**
     * {@code base} with the policy and rules that {@code candidate} names: the catalog and TypeInstance store are
     * base's, not read again, and rule bases whose files did not change are the same. For comparing a
     * candidate with what is served ({@code arbiter impact}).
     */
    public static Snapshot withCandidate(Settings candidate, PolicyTypeRegistry registry, Snapshot base) {
        return assemble(candidate, registry, startRuleBases(candidate, registry), base.catalog(), base.typeInstances());
    }

    private static Map<String, CompletableFuture<CompiledRuleBase>> startRuleBases(Settings settings,
                                                                                   PolicyTypeRegistry registry) {
        Map<String, CompletableFuture<CompiledRuleBase>> loading = new LinkedHashMap<>();
        for (PolicyType type : registry.types()) {
            loading.put(type.name(), CompletableFuture.supplyAsync(
                    () -> type.buildRuleBase(ruleFiles(type, settings.rulesDir(), settings.tablesDir()))));
        }
        return loading;
    }

    /** Reads the policy and waits for the rule bases. */
    private static Snapshot assemble(Settings settings, PolicyTypeRegistry registry,
                                     Map<String, CompletableFuture<CompiledRuleBase>> loading, Catalog catalog,
                                     TypeInstanceStore store) {
        Path policyFile = settings.policyFile() != null ? settings.policyFile()
                : RuleFiles.classpathFolder("embedded").resolve("policy.yaml");
        PolicyDocument policy = stage("the policy " + policyFile, () -> loadPolicy(policyFile));
        requireHubStorages(policy, policyFile, store, catalog);

        Map<String, CompiledRuleBase> ruleBases = new LinkedHashMap<>();
        loading.forEach((name, future) -> ruleBases.put(name, stage("the rules of policy type '" + name + "'", () -> join(future))));
        return new Snapshot(policy, ruleBases, catalog, store, settings.platformTypeInstances(), settings.policyOrder());
    }

    /**
     * Loads one part. Our own failures already name the part and the problem; anything else (a library's or the
     * JDK's exception, whose text means nothing to an operator) becomes a message naming the part, and is logged
     * with its stack trace.
     */
    static <T> T stage(String part, java.util.function.Supplier<T> load) {
        try {
            return load.get();
        } catch (DocumentException | RuleBaseException | DecisionException | SnapshotLoadException e) {
            throw e;
        } catch (UncheckedIOException e) {
            String file = e.getCause() instanceof java.nio.file.FileSystemException fs && fs.getFile() != null ? ": " + fs.getFile() : "";
            throw new SnapshotLoadException(part + file + " " + unreadable(e.getCause()), e);
        } catch (RuntimeException | StackOverflowError e) {
            LOG.error("{} could not be loaded", part, e);
            throw new SnapshotLoadException(part + " could not be loaded: an unexpected error (the server log has the details)", e);
        }
    }

    private static String unreadable(IOException e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "does not exist";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "cannot be read: permission denied";
        }
        return "cannot be read";
    }

    private static CompiledRuleBase join(CompletableFuture<CompiledRuleBase> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    /**
     * A type's rule files: from the given roots when set, else from the classpath ({@code rules/}, {@code decision-tables/}).
     * A root given on disk replaces the packaged files folder by folder, so each folder the type has packaged must be
     * there and hold files: a missing or empty one would silently drop the rules it holds.
     */
    public static java.util.List<RuleBaseBuilder.RuleFile> ruleFiles(PolicyType type, Path rulesRoot, Path tablesRoot) {
        return RuleBaseBuilder.collect(type.ruleSet().folders(),
                folder -> rulesRoot != null ? requiredFolder(type, "rules", rulesRoot, folder)
                        : RuleFiles.optionalClasspathFolder("rules/" + folder),
                folder -> tablesRoot != null ? requiredFolder(type, "decision-tables", tablesRoot, folder)
                        : RuleFiles.optionalClasspathFolder("decision-tables/" + folder));
    }

    private static Path requiredFolder(PolicyType type, String kind, Path root, String folder) {
        if (!Files.isDirectory(root)) {
            throw new RuleBaseException("the " + kind + " folder " + root + (Files.exists(root) ? " is not a folder" : " does not exist"));
        }
        Path path = root.resolve(folder);
        boolean packaged = !RuleFiles.filesUnder(RuleFiles.optionalClasspathFolder(kind + "/" + folder)).isEmpty();
        if (packaged && !Files.isDirectory(path)) {
            throw new RuleBaseException("the " + kind + " folder " + path + " is missing: the policy type '" + type.name()
                    + "' has its " + kind + " there");
        }
        if (packaged && RuleFiles.filesUnder(path).stream().noneMatch(file -> isRuleFile(kind, file))) {
            throw new RuleBaseException("the " + kind + " folder " + path + " holds no " + (kind.equals("rules") ? "*.drl"
                    : "*.drl.csv or *.drl.xlsx") + " files: the policy type '" + type.name() + "' has its " + kind + " there");
        }
        return path;
    }

    private static boolean isRuleFile(String kind, Path file) {
        String name = file.getFileName().toString();
        return kind.equals("rules") ? name.endsWith(".drl") : name.endsWith(".drl.csv") || name.endsWith(".drl.xlsx");
    }

    /**
     * A backend that is not a Hub storage refuses the start-up or reload, as PUT refuses it: the file's text is
     * read again to locate the problems only when there are some.
     */
    private static void requireHubStorages(PolicyDocument policy, Path file, TypeInstanceStore store, Catalog catalog) {
        List<Problem> problems = HubStorageCheck.problems(policy.policy(), store, catalog);
        if (problems.isEmpty()) {
            return;
        }
        Locations locations = stage("the policy " + file, () -> Documents.parseYaml(read(file)).locations());
        List<Problem> located = problems.stream().map(problem -> problem.locatedBy(locations)).toList();
        throw new DocumentException("policy " + file + ": " + located.get(0), located);
    }

    public static PolicyDocument loadPolicy(Path file) {
        byte[] content = read(file);
        try {
            return PolicyParser.parse(content, "application/yaml");
        } catch (DocumentException e) {
            throw new DocumentException("policy " + file + ": " + e.getMessage(), e.problems());
        }
    }

    private static byte[] read(Path policy) {
        try {
            return Files.readAllBytes(policy);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read policy " + policy, e);
        }
    }
}
