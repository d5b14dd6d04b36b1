package io.arbiter.archive;

import io.arbiter.decision.Settings;
import io.arbiter.decision.Snapshot;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.runtime.SnapshotLoader;
import io.arbiter.testing.Fixtures;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SnapshotArchiveTest {

    private static final PolicyTypeRegistry REGISTRY = PolicyTypeRegistry.discover();
    private static Snapshot embedded;

    @TempDir
    Path dir;

    @BeforeAll
    static void load() {
        embedded = SnapshotLoader.load(Settings.embedded(), REGISTRY);
    }

    @Test
    void theEmbeddedDefaultLoadsBackWithTheSameRevisions() throws Exception {
        SnapshotArchive archive = SnapshotArchive.at(dir, 5);
        ArchiveManifest manifest = archive.write(embedded, Instant.parse("2026-11-24T10:00:00Z"));

        Snapshot loaded = archive.load(embedded.revision(), REGISTRY);

        assertSameRevisions(loaded, embedded);
        assertEquals(embedded.revision(), manifest.snapshotRevision());
    }

    @Test
    void theHubManifestsLoadBackWithTheSameRevisions() throws Exception {
        Snapshot hub = SnapshotLoader.load(Settings.embedded().withHubDir(Fixtures.requireHubManifests()), REGISTRY);
        SnapshotArchive archive = SnapshotArchive.at(dir, 5);
        archive.write(hub, Instant.now());

        Snapshot loaded = archive.load(hub.revision(), REGISTRY);

        assertSameRevisions(loaded, hub);
        assertEquals(java.util.Set.copyOf(hub.catalog().implementations()), java.util.Set.copyOf(loaded.catalog().implementations()));
    }

    @Test
    void aPolicyOrderAndPlatformTypeInstancesAreKeptInTheManifest() throws Exception {
        Snapshot ordered = SnapshotLoader.load(Settings.embedded().withPolicyOrder(List.of("WORKFLOW", "ACTION", "GLOBAL")), REGISTRY);
        SnapshotArchive archive = SnapshotArchive.at(dir, 5);
        archive.write(ordered, Instant.now());

        Snapshot loaded = archive.load(ordered.revision(), REGISTRY);

        assertEquals(List.of("WORKFLOW", "ACTION", "GLOBAL"), loaded.policyOrder());
        assertEquals(ordered.platformTypeInstances(), loaded.platformTypeInstances());
        assertEquals(ordered.revision(), loaded.revision());
        assertNotEquals(embedded.revision(), loaded.revision());
    }

    @Test
    void keepingTheLastNDeletesOlderManifestsAndOnlyThePartsNoKeptManifestNames() throws Exception {
        SnapshotArchive archive = SnapshotArchive.at(dir, 2);
        List<Snapshot> snapshots = List.of(withPolicy("cap.first.*"), withPolicy("cap.second.*"), withPolicy("cap.third.*"));
        for (int i = 0; i < snapshots.size(); i++) {
            archive.write(snapshots.get(i), Instant.parse("2026-11-24T10:00:00Z").plusSeconds(i));
        }

        assertEquals(List.of(snapshots.get(2).revision(), snapshots.get(1).revision()), revisions(archive));
        assertEquals(java.util.Set.of(snapshots.get(1).policy().revision() + ".json", snapshots.get(2).policy().revision() + ".json"),
                java.util.Set.copyOf(files("policy")));
        // shared by every snapshot: stored once, and kept
        assertEquals(List.of(embedded.catalog().revision() + ".json"), files("catalog"));
        assertEquals(embedded.ruleBases().size(), files("rules").size());
        assertTrue(archive.manifest(snapshots.get(0).revision()).isEmpty());
        assertEquals(snapshots.get(1).revision(), archive.load(snapshots.get(1).revision(), REGISTRY).revision());
    }

    @Test
    void aSnapshotThatGoesLiveAgainIsKeptAsTheNewest() throws Exception {
        SnapshotArchive archive = SnapshotArchive.at(dir, 2);
        Snapshot first = withPolicy("cap.first.*");
        archive.write(first, Instant.parse("2026-11-24T10:00:00Z"));
        archive.write(withPolicy("cap.second.*"), Instant.parse("2026-11-24T10:00:01Z"));
        archive.write(first, Instant.parse("2026-11-24T10:00:02Z"));
        archive.write(withPolicy("cap.third.*"), Instant.parse("2026-11-24T10:00:03Z"));

        assertEquals(List.of(withPolicy("cap.third.*").revision(), first.revision()), revisions(archive));
    }

    @Test
    void aLoggedDecisionsRevisionsFindTheNewestMatchingSnapshot() throws Exception {
        SnapshotArchive archive = SnapshotArchive.at(dir, 5);
        archive.write(embedded, Instant.parse("2026-11-24T10:00:00Z"));
        Snapshot other = withPolicy("cap.other.*");
        archive.write(other, Instant.parse("2026-11-24T10:00:01Z"));
        String backendRules = embedded.ruleBase("capact.backend").revision();

        // a dependencies-like decision names only rules, catalog and store: both snapshots match, the newest wins
        assertEquals(other.revision(), archive.find(Map.of("rulesRevision", backendRules, "catalogRevision",
                embedded.catalog().revision()), "capact.backend").orElseThrow().snapshotRevision());
        assertEquals(embedded.revision(), archive.find(Map.of("policyRevision", embedded.policy().revision()),
                "capact.backend").orElseThrow().snapshotRevision());
        assertTrue(archive.find(Map.of("snapshotRevision", embedded.revision(), "policyRevision", other.policy().revision()),
                "capact.implementation").isEmpty());
        assertTrue(archive.find(Map.of("rulesRevision", "0123456789abcdef"), "capact.backend").isEmpty());
    }

    @Test
    void aChangedPartLoadsButIsReported() throws Exception {
        SnapshotArchive archive = SnapshotArchive.at(dir, 5);
        ArchiveManifest manifest = archive.write(embedded, Instant.now());
        Path policy = dir.resolve("parts/policy/" + manifest.policy() + ".json");
        Files.writeString(policy, Files.readString(policy).replace("cap.*", "cap.changed.*"));

        SnapshotArchive.Restored restored = archive.restore(manifest, REGISTRY);

        assertEquals(1, restored.changed().size());
        assertTrue(restored.changed().get(0).startsWith("policy " + manifest.policy()), restored.changed().toString());
        assertThrowsContaining(() -> archive.load(embedded.revision(), REGISTRY), "was changed");
    }

    @Test
    void archivedRulesThatLeaveACaseUndecidedAreRefusedAsLoadedRulesAre() throws Exception {
        SnapshotArchive archive = SnapshotArchive.at(dir, 5);
        ArchiveManifest manifest = archive.write(embedded, Instant.now());
        Path rules = dir.resolve("parts/rules/" + manifest.rules().get("ocm.rollout") + ".json");
        String catchAll = "\nAny other record in neither list was rolled out before,";
        String part = Files.readString(rules);
        int row = part.indexOf(catchAll.replace("\n", "\\n"));
        assertTrue(row > 0, "the archived situation table has its catch-all row");
        int end = part.indexOf("\\n", row + 2);
        Files.writeString(rules, part.substring(0, row) + part.substring(end));

        assertThrowsContaining(() -> archive.restore(manifest, REGISTRY), "rules part " + manifest.rules().get("ocm.rollout"),
                "cluster-situation", "in neither list as Succeeded");
    }

    @Test
    void aMissingPartIsAClearError() throws Exception {
        SnapshotArchive archive = SnapshotArchive.at(dir, 5);
        ArchiveManifest manifest = archive.write(embedded, Instant.now());
        Files.delete(dir.resolve("parts/catalog/" + manifest.catalog() + ".json"));

        assertThrowsContaining(() -> archive.load(embedded.revision(), REGISTRY), "catalog part " + manifest.catalog() + " is missing");
    }

    @Test
    void aCorruptedPartIsAClearError() throws Exception {
        SnapshotArchive archive = SnapshotArchive.at(dir, 5);
        ArchiveManifest manifest = archive.write(embedded, Instant.now());
        Path catalog = dir.resolve("parts/catalog/" + manifest.catalog() + ".json");
        byte[] bytes = Files.readAllBytes(catalog);
        Files.write(catalog, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        Path store = dir.resolve("parts/type-instances/" + manifest.typeInstances() + ".json");

        assertThrowsContaining(() -> archive.load(embedded.revision(), REGISTRY), "catalog part " + manifest.catalog(), "is damaged: it is not JSON");
        Files.write(catalog, bytes);
        Files.writeString(store, "{\"typeInstances\": [{\"id\": 7}]}");
        assertThrowsContaining(() -> archive.load(embedded.revision(), REGISTRY), "type-instances part " + manifest.typeInstances() + " (", "is damaged");
        Files.writeString(store, "[]");
        assertThrowsContaining(() -> archive.load(embedded.revision(), REGISTRY), "is damaged: it is not a JSON object");
    }

    @Test
    void aManifestNamingAPathOutsideTheArchiveIsRefused() throws Exception {
        SnapshotArchive archive = SnapshotArchive.at(dir, 5);
        archive.write(embedded, Instant.now());
        Path manifest = dir.resolve("snapshots/" + embedded.revision() + ".json");
        Files.writeString(manifest, Files.readString(manifest).replaceFirst("\"catalog\" : \"[0-9a-f]+\"",
                "\"catalog\" : \"../../../../etc/passwd\""));

        assertThrowsContaining(() -> archive.load(embedded.revision(), REGISTRY), "names catalog part '../../../../etc/passwd', which is not a revision");
        assertThrowsContaining(() -> archive.manifest("../etc/passwd"), "is not a snapshot revision");
    }

    @Test
    void aManifestWhoseWentLiveTimesAreNotTimesIsDamagedAndRewrittenWhenItGoesLiveAgain() throws Exception {
        SnapshotArchive archive = SnapshotArchive.at(dir, 5);
        archive.write(embedded, Instant.now());
        Path manifest = dir.resolve("snapshots/" + embedded.revision() + ".json");
        Files.writeString(manifest, Files.readString(manifest).replaceFirst("\"liveFrom\" : \\[ \"[^\"]+\"",
                "\"liveFrom\" : [ \"yesterday\""));

        assertThrowsContaining(() -> archive.manifest(embedded.revision()), "is damaged: liveFrom holds 'yesterday'",
                "not a time");
        Instant again = Instant.now();
        assertEquals(java.util.List.of(again.toString()), archive.write(embedded, again).liveFrom());
    }

    @Test
    void aSymbolicLinkOutOfTheArchiveIsNotFollowed(@TempDir Path outside) throws Exception {
        SnapshotArchive archive = SnapshotArchive.at(dir, 5);
        ArchiveManifest manifest = archive.write(embedded, Instant.now());
        Path catalog = dir.resolve("parts/catalog/" + manifest.catalog() + ".json");
        Files.move(catalog, outside.resolve("catalog.json"));
        Files.createSymbolicLink(catalog, outside.resolve("catalog.json"));

        assertThrowsContaining(() -> archive.load(embedded.revision(), REGISTRY), "is not a regular file");
    }

    /** The writer refuses what the reader refuses: a folder linked out of the archive would fill what pruning never empties. */
    @Test
    void aSymbolicLinkedPartsFolderIsNotWrittenThrough(@TempDir Path outside) throws Exception {
        Files.createDirectories(dir);
        Files.createSymbolicLink(dir.resolve("parts"), outside);
        SnapshotArchive archive = SnapshotArchive.at(dir, 5);

        assertThrowsContaining(() -> archive.write(embedded, Instant.now()),
                dir.resolve("parts") + " is a symbolic link, which the archive does not follow");

        try (var written = Files.walk(outside)) {
            assertEquals(List.of(outside), written.toList(), "nothing is written outside the archive");
        }
        assertFalse(Files.exists(dir.resolve("snapshots")), "no manifest names parts that were not written");
    }

    @Test
    void aHugePartIsRefusedBeforeItIsRead() throws Exception {
        SnapshotArchive archive = SnapshotArchive.at(dir, 5, 64 * 1024);
        ArchiveManifest manifest = archive.write(embedded, Instant.now());
        Path store = dir.resolve("parts/type-instances/" + manifest.typeInstances() + ".json");
        try (var channel = java.nio.channels.FileChannel.open(store, java.nio.file.StandardOpenOption.WRITE)) {
            channel.write(java.nio.ByteBuffer.wrap(" ".getBytes(StandardCharsets.US_ASCII)), 10L * 1024 * 1024 * 1024);
        }

        assertThrowsContaining(() -> archive.load(embedded.revision(), REGISTRY), "more than the 65536 an archived file may take");
    }

    @Test
    void aHalfWrittenTemporaryFileIsNeverLoadedAndIsPruned() throws Exception {
        SnapshotArchive archive = SnapshotArchive.at(dir, 5);
        archive.write(embedded, Instant.now());
        Path stray = dir.resolve("parts/catalog/.0123456789abcdef.json12345.tmp");
        Files.writeString(stray, "{\"implementations\": [");

        archive.write(withPolicy("cap.next.*"), Instant.now());

        assertFalse(Files.exists(stray));
        assertEquals(embedded.revision(), archive.load(embedded.revision(), REGISTRY).revision());
    }

    private static Snapshot withPolicy(String interfacePattern) {
        Snapshot snapshot = embedded.withPolicy(Fixtures.policy("""
                interface:
                  rules:
                    - interface:
                        path: %s
                      oneOf:
                        - implementationConstraints: {}
                """.formatted(interfacePattern)));
        return snapshot;
    }

    private List<String> files(String part) throws Exception {
        try (Stream<Path> files = Files.list(dir.resolve("parts").resolve(part))) {
            return files.map(file -> file.getFileName().toString()).toList();
        }
    }

    private static List<String> revisions(SnapshotArchive archive) throws Exception {
        return archive.manifests().stream().map(ArchiveManifest::snapshotRevision).toList();
    }

    private static void assertThrowsContaining(org.junit.jupiter.api.function.Executable action, String... parts) {
        ArchiveException e = assertThrows(ArchiveException.class, action);
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), () -> "'" + e.getMessage() + "' does not say " + part);
        }
    }

    private static void assertSameRevisions(Snapshot loaded, Snapshot original) {
        assertEquals(original.policy().revision(), loaded.policy().revision());
        original.ruleBases().forEach((kind, base) -> assertEquals(base.revision(), loaded.ruleBase(kind).revision(), kind));
        assertEquals(original.catalog().revision(), loaded.catalog().revision());
        assertEquals(original.typeInstances().revision(), loaded.typeInstances().revision());
        assertEquals(original.revision(), loaded.revision());
    }
}
