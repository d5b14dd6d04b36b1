package io.arbiter.runtime;

import io.arbiter.decision.Settings;
import io.arbiter.decision.Snapshot;
import io.arbiter.document.DocumentException;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.testing.TestFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A candidate is compared with the catalog and store the baseline read, not with a second reading of them. */
class SnapshotCandidateTest {

    @TempDir
    Path temp;

    @Test
    void aCandidatePolicyIsDecidedOverTheBaselinesCatalogAndStoreWithoutReadingThemAgain() throws IOException {
        Path hub = TestFiles.copyTree(Path.of("fixtures/embedded/catalog"), temp.resolve("hub"));
        Path store = Files.copy(Path.of("fixtures/embedded/type-instances.yaml"), temp.resolve("type-instances.yaml"));
        Path candidatePolicy = Files.writeString(temp.resolve("candidate.yaml"), """
                interface:
                  rules:
                    - interface: {path: cap.*}
                      oneOf: []
                """);
        PolicyTypeRegistry registry = PolicyTypeRegistry.discover();
        Settings baseline = Settings.embedded().withHubDir(hub).withTypeInstancesFile(store);
        Snapshot before = SnapshotLoader.load(baseline, registry);
        TestFiles.deleteTree(hub);
        Files.delete(store);

        Snapshot after = SnapshotLoader.withCandidate(baseline.withPolicyFile(candidatePolicy), registry, before);

        assertSame(before.catalog(), after.catalog());
        assertSame(before.typeInstances(), after.typeInstances());
        assertSame(before.ruleBases().get("implementation"), after.ruleBases().get("implementation"),
                "unchanged rules are reused");
        assertNotEquals(before.policy().revision(), after.policy().revision());
        assertEquals(before.catalog().revision(), after.catalog().revision());
    }

    @Test
    void aCandidatePolicyTheStoreCannotServeIsRefusedAsAtStartUp() throws IOException {
        Path policy = Files.writeString(temp.resolve("policy.yaml"), """
                typeInstance:
                  rules:
                    - typeRef: {path: cap.type.aws.*}
                      backend: {id: 517cf827-233c-4bf1-8fc9-48534424dd58}
                """);
        PolicyTypeRegistry registry = PolicyTypeRegistry.discover();
        Snapshot before = SnapshotLoader.load(Settings.embedded(), registry);

        DocumentException refused = assertThrows(DocumentException.class,
                () -> SnapshotLoader.withCandidate(Settings.embedded().withPolicyFile(policy), registry, before));
        assertEquals("$.typeInstance.rules[0].backend.id", refused.problems().get(0).path());
    }
}
