package io.arbiter.testing;

import io.arbiter.catalog.Catalog;
import io.arbiter.catalog.ManifestLoader;
import io.arbiter.catalog.TypeInstanceLoader;
import io.arbiter.catalog.TypeInstanceStore;
import io.arbiter.decision.Settings;
import io.arbiter.decision.Snapshot;
import io.arbiter.decision.implementation.ImplementationDecider;
import io.arbiter.document.Documents;
import io.arbiter.policy.PolicyDocument;
import io.arbiter.policy.PolicyParser;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Paths and ready-made snapshots for tests. */
public final class Fixtures {

    public static final Path EMBEDDED = Path.of("fixtures/embedded");
    public static final Path SCENARIOS = Path.of("fixtures/scenarios");
    public static final Path SHARED = Path.of("../shared");
    public static final Path HUB_MANIFESTS = SHARED.resolve("hub-manifests");

    private static Catalog embeddedCatalog;
    private static TypeInstanceStore embeddedStore;

    private Fixtures() {
    }

    /** Skips the calling test when {@code ../shared/} is absent (a user's clone); CI has it. */
    public static Path requireHubManifests() {
        assumeTrue(Files.isDirectory(HUB_MANIFESTS), "../shared/hub-manifests is not present: skipping");
        return HUB_MANIFESTS;
    }

    public static synchronized Catalog embeddedCatalog() {
        if (embeddedCatalog == null) {
            embeddedCatalog = ManifestLoader.load(EMBEDDED.resolve("catalog")).catalog();
        }
        return embeddedCatalog;
    }

    public static synchronized TypeInstanceStore embeddedStore() {
        if (embeddedStore == null) {
            embeddedStore = TypeInstanceLoader.load(EMBEDDED.resolve("type-instances.yaml"));
        }
        return embeddedStore;
    }

    public static PolicyDocument policy(String yaml) {
        return PolicyParser.parse(yaml.getBytes(StandardCharsets.UTF_8), "application/yaml");
    }

    public static PolicyDocument embeddedPolicy() {
        try {
            return PolicyParser.parse(Files.readAllBytes(EMBEDDED.resolve("policy.yaml")), "application/yaml");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The embedded catalog and store with the given policy, and the project's rules from disk. */
    public static Snapshot snapshot(PolicyDocument policy) {
        return snapshot(policy, embeddedCatalog(), embeddedStore());
    }

    public static Snapshot snapshot(PolicyDocument policy, Catalog catalog, TypeInstanceStore store) {
        return new Snapshot(policy, Map.of(
                io.arbiter.decision.implementation.ImplementationPolicyType.NAME,
                RuleTestSupport.ruleBase(ImplementationDecider.KIND, ImplementationDecider.PHASES),
                io.arbiter.decision.backend.BackendPolicyType.NAME,
                RuleTestSupport.ruleBase(io.arbiter.decision.backend.BackendDecider.KIND, io.arbiter.decision.backend.BackendDecider.PHASES),
                io.arbiter.decision.dependencies.DependenciesPolicyType.NAME,
                RuleTestSupport.ruleBase(io.arbiter.decision.dependencies.DependenciesDecider.KIND,
                        io.arbiter.decision.dependencies.DependenciesDecider.PHASES),
                io.arbiter.decision.rollout.RolloutPolicyType.NAME,
                RuleTestSupport.ruleBase(io.arbiter.decision.rollout.RolloutDecider.KIND,
                        io.arbiter.decision.rollout.RolloutDecider.PHASES)),
                catalog, store, Settings.DEFAULT_PLATFORM);
    }

    /** The service facade over a snapshot, with every policy type on the test classpath. */
    public static io.arbiter.runtime.Decisions decisions(Snapshot snapshot) {
        return new io.arbiter.runtime.Decisions(io.arbiter.policytype.PolicyTypeRegistry.discover(), snapshot);
    }

    public static byte[] json(Object value) {
        try {
            return Documents.jsonMapper().writeValueAsBytes(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
