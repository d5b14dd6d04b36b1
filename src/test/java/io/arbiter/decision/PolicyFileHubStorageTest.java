package io.arbiter.decision;

import io.arbiter.runtime.SnapshotLoader;
import io.arbiter.document.DocumentException;
import io.arbiter.document.Problem;
import io.arbiter.policytype.PolicyTypeRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A policy file whose backend is not a Hub storage refuses start-up and reload, as PUT refuses the same policy. */
class PolicyFileHubStorageTest {

    /** The embedded store's AWS credentials: a TypeInstance whose Type does not extend cap.core.type.hub.storage. */
    private static final String NOT_A_STORAGE = "517cf827-233c-4bf1-8fc9-48534424dd58";

    @TempDir
    Path temp;

    @Test
    void aBackendThatIsNotAHubStorageRefusesTheSnapshotAtItsLine() throws IOException {
        Path policy = Files.writeString(temp.resolve("policy.yaml"), """
                typeInstance:
                  rules:
                    - typeRef: {path: cap.type.aws.*}
                      backend: {id: %s}
                """.formatted(NOT_A_STORAGE));

        DocumentException refused = assertThrows(DocumentException.class, () ->
                SnapshotLoader.load(Settings.embedded().withPolicyFile(policy), PolicyTypeRegistry.discover()));

        Problem problem = refused.problems().get(0);
        assertEquals("$.typeInstance.rules[0].backend.id", problem.path(), refused.getMessage());
        assertEquals(4, problem.line(), problem.toString());
    }
}
