package io.arbiter.http;

import io.arbiter.archive.ArchiveManifest;
import io.arbiter.archive.SnapshotArchive;
import io.arbiter.decision.Settings;
import io.arbiter.testing.Signal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** serve --snapshot-archive: the snapshot is archived at start and on each accepted PUT /v1/policy. */
class SnapshotArchiveServeTest {

    private static final String TOKEN = "archive-token";

    @TempDir
    Path dir;

    private final Signal archived = new Signal();

    @Test
    void theStartingSnapshotAndEachAcceptedPolicyAreArchived() throws Exception {
        SnapshotArchive archive = SnapshotArchive.at(dir, 5);
        ArbiterServer server = ArbiterServer.start(new ServerOptions("127.0.0.1", 0, Settings.embedded(), TOKEN,
                        Duration.ofMillis(200)).withSnapshotArchive(archive))
                .toCompletionStage().toCompletableFuture().get();
        server.onSnapshotArchived(archived);
        try {
            HttpTestClient client = new HttpTestClient(server.port());
            String initial = client.get("/readyz").json().path("snapshotRevision").asText();
            awaitTrue(() -> revisions(archive).equals(List.of(initial)));

            var accepted = client.send("PUT", "/v1/policy", "application/yaml",
                    "interface: {rules: [{interface: {path: cap.*}, oneOf: [{implementationConstraints: {}}]}]}".getBytes(),
                    "Authorization", "Bearer " + TOKEN);
            var refused = client.send("PUT", "/v1/policy", "application/yaml", "interface: {rules: 7}".getBytes(),
                    "Authorization", "Bearer " + TOKEN);

            assertEquals(200, accepted.status(), accepted.body());
            assertEquals(422, refused.status(), refused.body());
            String replaced = client.get("/readyz").json().path("snapshotRevision").asText();
            awaitTrue(() -> revisions(archive).equals(List.of(replaced, initial)));
            awaitTrue(() -> client.get("/metrics").body().contains("arbiter_snapshot_archive_written 2.0"));
            assertTrue(client.get("/metrics").body().contains("arbiter_snapshot_archive_failed 0.0"), client.get("/metrics").body());
        } finally {
            server.stop();
        }
    }

    @Test
    void aReloadedSnapshotIsArchived() throws Exception {
        Path policy = dir.resolve("policy.yaml");
        Files.writeString(policy, "interface: {rules: [{interface: {path: cap.*}, oneOf: [{implementationConstraints: {}}]}]}\n");
        SnapshotArchive archive = SnapshotArchive.at(dir.resolve("archive"), 5);
        ArbiterServer server = ArbiterServer.start(new ServerOptions("127.0.0.1", 0, Settings.embedded().withPolicyFile(policy),
                        null, Duration.ofMillis(200), io.arbiter.audit.AuditSettings.OFF, true).withSnapshotArchive(archive)
                        // the policy is replaced whole, by a rename: nothing to settle
                        .withWatchSettle(Duration.ofMillis(100)))
                .toCompletionStage().toCompletableFuture().get();
        server.onSnapshotArchived(archived);
        try {
            HttpTestClient client = new HttpTestClient(server.port());
            String initial = client.get("/readyz").json().path("snapshotRevision").asText();
            awaitTrue(() -> revisions(archive).equals(List.of(initial)));

            Path next = dir.resolve("policy.yaml.next");
            Files.writeString(next, "interface: {rules: [{interface: {path: cap.interface.x}, oneOf: []}]}\n");
            Files.move(next, policy, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);

            awaitTrue(() -> revisions(archive).size() == 2);
            String reloaded = client.get("/readyz").json().path("snapshotRevision").asText();
            assertEquals(List.of(reloaded, initial), revisions(archive));
        } finally {
            server.stop();
        }
    }

    private static List<String> revisions(SnapshotArchive archive) {
        try {
            return archive.manifests().stream().map(ArchiveManifest::snapshotRevision).toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Returns once {@code condition} holds, looked at again after each snapshot the server archives. */
    private void awaitTrue(BooleanSupplier condition) throws InterruptedException {
        archived.await(condition, Duration.ofSeconds(30), () -> "not archived");
    }
}
