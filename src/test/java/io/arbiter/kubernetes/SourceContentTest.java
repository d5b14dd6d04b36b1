package io.arbiter.kubernetes;

import io.arbiter.decision.Settings;
import io.arbiter.engine.RuleBaseException;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.runtime.SnapshotLoader;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the ConfigMaps hold, as every replica reads it: one content revision, and the folders a file reload reads. */
class SourceContentTest {

    private static final List<String> FOLDERS = List.of("backend", "policy-merge");

    @TempDir
    Path dir;

    private static ConfigMap configMap(String name, String resourceVersion, Map<String, String> data, Map<String, String> binary) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withResourceVersion(resourceVersion).endMetadata()
                .withData(data).withBinaryData(binary).build();
    }

    private static ConfigMap policy(String resourceVersion, String text) throws Exception {
        return configMap("arbiter-policy", resourceVersion, Map.of("policy.yaml", text), Map.of());
    }

    private static String embeddedPolicy() throws Exception {
        return Files.readString(Path.of("fixtures/embedded/policy.yaml"));
    }

    @Test
    void theRevisionIsTheContentsNotTheObjects() throws Exception {
        SourceContent one = SourceContent.of("arbiter", FOLDERS, List.of(policy("10", embeddedPolicy())));
        SourceContent sameOtherVersion = SourceContent.of("arbiter", FOLDERS, List.of(policy("99", embeddedPolicy()),
                configMap("other-app-config", "5", Map.of("x", "y"), Map.of()),
                configMap("arbiter-rules-unknown-folder", "6", Map.of("a.drl", "rule"), Map.of())));
        SourceContent changed = SourceContent.of("arbiter", FOLDERS, List.of(policy("11", embeddedPolicy() + "\n# edited\n")));

        assertEquals(one.revision(), sameOtherVersion.revision(), "resourceVersions and unrelated ConfigMaps do not count");
        assertNotEquals(one.revision(), changed.revision());
        assertEquals(List.of("arbiter-policy"), changed.changedSince(one));
        assertEquals(List.of(), sameOtherVersion.changedSince(one));
    }

    @Test
    void materialisesDrlTablesAndBinaryDataAndThePackagedFilesOfAFolderWithoutAConfigMap() throws Exception {
        byte[] xlsx = {1, 2, 3, 0, (byte) 0xff};
        SourceContent content = SourceContent.of("arbiter", FOLDERS, List.of(policy("1", embeddedPolicy()),
                configMap("arbiter-rules-backend", "2", Map.of("backend.drl", "// drl", "backend-priority.drl.csv", "csv"),
                        Map.of("extra.drl.xlsx", Base64.getEncoder().encodeToString(xlsx)))));

        Settings settings = content.materialize(dir, Settings.embedded(), FOLDERS, "arbiter");

        assertEquals(dir.resolve("policy.yaml"), settings.policyFile());
        assertEquals("// drl", Files.readString(settings.rulesDir().resolve("backend/backend.drl")));
        assertEquals("csv", Files.readString(settings.tablesDir().resolve("backend/backend-priority.drl.csv")));
        assertArrayEquals(xlsx, Files.readAllBytes(settings.tablesDir().resolve("backend/extra.drl.xlsx")));
        assertEquals(Files.readString(Path.of("rules/policy-merge/merge-order.drl")),
                Files.readString(settings.rulesDir().resolve("policy-merge/merge-order.drl")), "packaged, for want of a ConfigMap");
    }

    @Test
    void aMisnamedTableIsRefusedAsOnDisk() throws Exception {
        List<String> folders = PolicyTypeRegistry.discover().types().stream()
                .flatMap(type -> type.ruleSet().folders().stream()).distinct().toList();
        SourceContent content = SourceContent.of("arbiter", folders, List.of(policy("1", embeddedPolicy()),
                configMap("arbiter-rules-backend", "2", Map.of("backend.drl", Files.readString(Path.of("rules/backend/backend.drl")),
                        "backend-priority.csv", Files.readString(Path.of("decision-tables/backend/backend-priority.drl.csv"))), Map.of())));

        var refused = assertThrows(RuleBaseException.class, () -> SnapshotLoader.load(
                content.materialize(dir, Settings.embedded(), folders, "arbiter"), PolicyTypeRegistry.discover()));
        // the backend folder's only table is misnamed: as on disk, the folder is refused for holding no table
        assertTrue(refused.getMessage().contains("decision-tables/backend holds no *.drl.csv"), refused.getMessage());
    }

    @Test
    void withoutThePolicyConfigMapNothingLoads() {
        SourceContent content = SourceContent.of("arbiter", FOLDERS, List.of());
        var refused = assertThrows(io.arbiter.decision.SnapshotLoadException.class,
                () -> content.materialize(dir, Settings.embedded(), FOLDERS, "arbiter"));
        assertTrue(refused.getMessage().contains("arbiter-policy"), refused.getMessage());
    }

    @Test
    void eventNamesAreValidObjectNames() {
        assertEquals("arbiter-policy.arbiter-7d9c-x2k4q.b48c877850926f7d",
                RefusalEvents.eventName("arbiter-policy", "arbiter-7d9c-x2k4q", "b48c877850926f7d"));
        String odd = RefusalEvents.eventName("arbiter-policy", "Host_Name" + "x".repeat(300), "b48c");
        assertTrue(odd.length() <= 253 && odd.matches("[a-z0-9][a-z0-9.-]*"), odd);
    }
}
