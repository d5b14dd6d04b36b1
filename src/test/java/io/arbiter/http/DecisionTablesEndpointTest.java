package io.arbiter.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.archive.ArchiveManifest;
import io.arbiter.archive.SnapshotArchive;
import io.arbiter.decision.Settings;
import io.arbiter.testing.Signal;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code /v1/decision-tables} (issue 48): the tables listed, read as a grid and as CSV, and replaced through the
 * source that serves them, after the checks a reload makes; {@code ?dryRun=true} and {@code POST /v1/impact} answer
 * the impact of a candidate table without applying it. One server serves from copies of the rule folders (so a PUT
 * writes a file), with a snapshot archive; the tests that change its table run in one test, in order.
 */
class DecisionTablesEndpointTest {

    private static final String TOKEN = "tables-admin-token";
    private static final String TABLE = "/v1/decision-tables/capact.backend/backend-priority";
    private static final String CREDENTIALS_0_2 = "{\"typeRefs\": [{\"path\": \"cap.type.aws.auth.credentials\", \"revision\": \"0.2.0\"}]}";

    @TempDir
    static Path dir;

    private static ArbiterServer server;
    private static HttpTestClient client;
    private static SnapshotArchive archive;
    private static Path tables;
    private static final Signal archived = new Signal();

    @BeforeAll
    static void start() throws Exception {
        Path rules = io.arbiter.testing.TestFiles.copyTree(Path.of("rules"), dir.resolve("rules"));
        tables = io.arbiter.testing.TestFiles.copyTree(Path.of("decision-tables"), dir.resolve("decision-tables"));
        io.arbiter.testing.TestFiles.copyTree(Path.of("src/test/resources/rules"), rules);
        io.arbiter.testing.TestFiles.copyTree(Path.of("src/test/resources/decision-tables"), tables);
        archive = SnapshotArchive.at(dir.resolve("archive"), 10);
        // seed 001's backend rules: an exact path and a pattern both have a backend for the credentials
        Path policy = Files.writeString(dir.resolve("policy.yaml"), """
                typeInstance:
                  rules:
                    - typeRef: {path: cap.type.aws.auth.credentials, revision: 0.1.0}
                      backend: {id: 31bb8355-10d7-49ce-a739-4554d8a40b63}
                    - typeRef: {path: cap.type.aws.auth.credentials}
                      backend: {id: 00fd161c-01bd-47a6-9872-47490e11f996}
                    - typeRef: {path: cap.type.aws.*}
                      backend: {id: 31bb8355-10d7-49ce-a739-4554d8a40b63}
                """);
        server = TestServers.start(new ServerOptions("127.0.0.1", 0, Settings.embedded().withPolicyFile(policy).withRules(rules, tables), TOKEN,
                TestServers.SHUTDOWN_GRACE).withSnapshotArchive(archive));
        server.onSnapshotArchived(archived);
        client = new HttpTestClient(server.port());
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    private static String original() throws Exception {
        return Files.readString(Path.of("decision-tables/backend/backend-priority.drl.csv"));
    }

    /** The backend-priority table with the PATH row moved below the PATTERN rows. */
    private static String pathRowLast() throws Exception {
        List<String> lines = new ArrayList<>(original().lines().toList());
        int path = IntStream.range(0, lines.size()).filter(i -> lines.get(i).startsWith("Exact path without revision"))
                .findFirst().orElseThrow();
        String row = lines.remove(path);
        lines.add(row);
        return String.join("\n", lines) + "\n";
    }

    private static HttpTestClient.Response put(String path, String contentType, byte[] body, String... headers) {
        String[] all = Stream.concat(Stream.of("Authorization", "Bearer " + TOKEN), Arrays.stream(headers)).toArray(String[]::new);
        return client.send("PUT", path, contentType, body, all);
    }

    @Test
    void listsEveryTableOfEveryTypeWithItsRevisionAndRules() {
        var answer = client.get("/v1/decision-tables");

        assertEquals(200, answer.status(), answer.body());
        List<String> names = new ArrayList<>();
        answer.json().path("tables").forEach(t -> names.add(t.path("type").asText() + "/" + t.path("name").asText()));
        assertTrue(names.contains("capact.backend/backend-priority"), names.toString());
        assertTrue(names.contains("ocm.rollout/cluster-treatment"), names.toString());
        JsonNode backend = find(answer.json().path("tables"), "backend-priority");
        assertTrue(backend.path("revision").asText().startsWith("t-"), backend.toString());
        assertEquals("decision-tables/backend/backend-priority.drl.csv", backend.path("file").asText());
        assertEquals(4, backend.path("rules").size(), backend.toString());
        assertTrue(backend.path("rules").toString().contains("io.arbiter.rules.backend.Exact path without revision"), backend.toString());
    }

    private static JsonNode find(JsonNode tables, String name) {
        for (JsonNode table : tables) {
            if (table.path("name").asText().equals(name)) {
                return table;
            }
        }
        throw new AssertionError("no table " + name + " in " + tables);
    }

    @Test
    void aTableIsAGridWithTheAnalystsColumnsRowNotesAndAllowedValues() {
        var answer = client.get(TABLE);

        assertEquals(200, answer.status(), answer.body());
        JsonNode table = answer.json();
        assertEquals("\"" + table.path("revision").asText() + "\"", answer.header("ETag"));
        JsonNode grid = table.path("tables").get(0);
        assertEquals("Backend priority", grid.path("name").asText());
        assertEquals("Candidate level", grid.path("columns").get(2).path("header").asText());
        assertEquals("CONDITION", grid.path("columns").get(2).path("kind").asText());
        assertTrue(grid.path("columns").get(2).path("allowed").toString().contains("PATTERN_REVISION"), grid.toString());
        assertEquals("Exact path without revision", grid.path("rows").get(1).path("name").asText());
        assertEquals(12, grid.path("rows").get(1).path("row").asInt());
        assertTrue(table.path("notes").asText().startsWith("Row order is the decision (Sequential): Backend priority"),
                table.toString());
        assertEquals("RuleSet", table.path("cells").get(0).get(0).asText());
        assertEquals(12, table.path("rules").get(1).path("row").asInt(), table.toString());
    }

    @Test
    void aTableIsItsCsvForTextCsv() throws Exception {
        var answer = client.get(TABLE, "Accept", "text/csv");

        assertEquals(200, answer.status(), answer.body());
        assertTrue(answer.header("Content-Type").startsWith("text/csv"), answer.header("Content-Type"));
        assertEquals(original(), answer.body());
    }

    @Test
    void anUnknownTableOrTypeIs404NamingWhatThereIs() {
        var table = client.get("/v1/decision-tables/capact.backend/no-such-table");
        var type = client.get("/v1/decision-tables/no-such-type/backend-priority");
        var put = put("/v1/decision-tables/capact.backend/no-such-table", "text/csv", "a,b\n".getBytes());

        assertEquals(404, table.status(), table.body());
        assertTrue(table.body().contains("backend-priority"), table.body());
        assertEquals(404, type.status(), type.body());
        assertEquals(404, put.status(), put.body());
    }

    @Test
    void aPutNeedsTheAdminToken() throws Exception {
        var answer = client.send("PUT", TABLE, "text/csv", pathRowLast().getBytes());

        assertEquals(401, answer.status(), answer.body());
    }

    @Test
    void aTableThatLeavesADecisionUndecidedIsRefusedNamingTheUncoveredCase() throws Exception {
        String withoutPattern = original().lines().filter(line -> !line.startsWith("Longest pattern without revision"))
                .collect(Collectors.joining("\n", "", "\n"));

        var answer = put(TABLE, "text/csv", withoutPattern.getBytes());

        assertEquals(422, answer.status(), answer.body());
        assertTrue(answer.body().contains("MatchLevel.PATTERN "), answer.body());
        assertTrue(answer.body().contains("undecided"), answer.body());
        assertEquals(original(), Files.readString(tables.resolve("backend/backend-priority.drl.csv")));
    }

    @Test
    void anInvalidValueIsRefusedAtItsCellWithTheAllowedValues() throws Exception {
        String invalid = original().replace("Exact path without revision,backend-priority,PATH,", "Exact path without revision,backend-priority,PATHS,");

        var answer = put(TABLE, "text/csv", invalid.getBytes());

        assertEquals(422, answer.status(), answer.body());
        JsonNode details = answer.json().path("error").path("details");
        boolean located = false;
        for (JsonNode detail : details) {
            located |= detail.path("line").asInt() == 12 && detail.path("column").asInt() == 3
                    && detail.path("problem").asText().contains("EXACT");
        }
        assertTrue(located, answer.body());
    }

    @Test
    void validateLocatesProblemsWithoutATokenAndAppliesNothing() throws Exception {
        String invalid = original().replace("Exact path without revision,backend-priority,PATH,", "Exact path without revision,backend-priority,PATHS,");

        var bad = client.send("POST", TABLE + "/validate", "text/csv", invalid.getBytes());
        var good = client.send("POST", TABLE + "/validate", "application/json", Documents.cells(pathRowLast()));

        assertEquals(200, bad.status(), bad.body());
        assertFalse(bad.json().path("valid").asBoolean(), bad.body());
        boolean located = false;
        for (JsonNode problem : bad.json().path("problems")) {
            located |= problem.path("row").asInt() == 12 && problem.path("column").asInt() == 3;
        }
        assertTrue(located, bad.body());
        assertTrue(good.json().path("valid").asBoolean(), good.body());
        assertEquals(original(), Files.readString(tables.resolve("backend/backend-priority.drl.csv")));
    }

    @Test
    void aTableThatDoesNotCompileIsRefusedAtItsRow() throws Exception {
        String broken = original().replace("\"insert(new BackendChoice(", "\"insert(new NoSuchChoice(");

        var answer = put(TABLE, "text/csv", broken.getBytes());

        assertEquals(422, answer.status(), answer.body());
        assertTrue(answer.body().contains("NoSuchChoice cannot be resolved"), answer.body());
    }

    @Test
    void hostileCsvIsALocated4xx() {
        byte[] invalidUtf8 = "RuleSet,x\nNotes,\u00e9\n".getBytes(StandardCharsets.ISO_8859_1);
        String manyRows = "a,b\n".repeat(100_000);
        String manyColumns = "a,".repeat(10_000) + "\n";
        String bigCell = "RuleSet," + "x".repeat(1024 * 1024) + "\n";

        var utf8 = put(TABLE, "text/csv", invalidUtf8);
        var rows = put(TABLE, "text/csv", manyRows.getBytes());
        var columns = put(TABLE, "text/csv", manyColumns.getBytes());
        var cell = put(TABLE, "text/csv", bigCell.getBytes());
        var smallBigCell = put(TABLE, "text/csv", ("RuleSet," + "x".repeat(10_000) + "\n").getBytes());

        assertEquals(400, utf8.status(), utf8.body());
        assertTrue(utf8.body().contains("row 2"), utf8.body());
        assertEquals(400, rows.status(), rows.body());
        assertTrue(rows.body().contains("rows"), rows.body());
        assertEquals(400, columns.status(), columns.body());
        assertTrue(columns.body().contains("row 1, column 101"), columns.body());
        assertTrue(cell.status() == 413 || cell.status() == 400, cell.status() + " " + cell.body());
        assertEquals(400, smallBigCell.status(), smallBigCell.body());
        assertTrue(smallBigCell.body().contains("row 1, column 2"), smallBigCell.body());
    }

    @Test
    void aStaleIfMatchIs412() throws Exception {
        var answer = put(TABLE, "text/csv", pathRowLast().getBytes(), "If-Match", "\"t-0000000000000000\"");

        assertEquals(412, answer.status(), answer.body());
        assertEquals(original(), Files.readString(tables.resolve("backend/backend-priority.drl.csv")));
    }

    @Test
    void packagedTablesHaveNoSourceToWriteTo() throws Exception {
        ArbiterServer packaged = TestServers.start(new ServerOptions("127.0.0.1", 0, Settings.embedded(), TOKEN,
                TestServers.SHUTDOWN_GRACE));
        try {
            var answer = new HttpTestClient(packaged.port()).send("PUT", TABLE, "text/csv", pathRowLast().getBytes(),
                    "Authorization", "Bearer " + TOKEN);

            assertEquals(409, answer.status(), answer.body());
            assertEquals("POLICY_CONFLICT", answer.errorCode());
            assertTrue(answer.body().contains("--decision-tables"), answer.body());
        } finally {
            packaged.stop();
        }
    }

    /** With --watch the file is written too; the watcher then loads the same content, and the edit stays. */
    @Test
    void withWatchTheFileIsWrittenAndTheWatcherKeepsTheEdit() throws Exception {
        Path watched = dir.resolve("watched");
        Path rules = io.arbiter.testing.TestFiles.copyTree(Path.of("rules"), watched.resolve("rules"));
        Path folders = io.arbiter.testing.TestFiles.copyTree(Path.of("decision-tables"), watched.resolve("decision-tables"));
        io.arbiter.testing.TestFiles.copyTree(Path.of("src/test/resources/rules"), rules);
        io.arbiter.testing.TestFiles.copyTree(Path.of("src/test/resources/decision-tables"), folders);
        ArbiterServer watching = TestServers.start(new ServerOptions("127.0.0.1", 0, Settings.embedded().withRules(rules, folders),
                TOKEN, TestServers.SHUTDOWN_GRACE, io.arbiter.audit.AuditSettings.OFF, true).withWatchSettle(Duration.ofMillis(100)));
        Signal reloaded = new Signal();
        watching.decisions().onReload(state -> reloaded.run());
        try {
            HttpTestClient watchingClient = new HttpTestClient(watching.port());
            String etag = watchingClient.get(TABLE).header("ETag");

            var answer = watchingClient.send("PUT", TABLE, "text/csv", pathRowLast().getBytes(), "Authorization",
                    "Bearer " + TOKEN, "If-Match", etag);

            assertEquals(200, answer.status(), answer.body());
            assertEquals(pathRowLast(), Files.readString(folders.resolve("backend/backend-priority.drl.csv")));
            long reloads = watching.decisions().reloadState().reloads();
            reloaded.await(() -> watching.decisions().reloadState().reloads() > reloads, Duration.ofSeconds(60),
                    () -> "the watcher did not reload: " + watching.decisions().reloadState());
            assertEquals(answer.header("ETag"), watchingClient.get(TABLE).header("ETag"), "the watcher loaded the written table");
            assertEquals(null, watching.decisions().reloadState().lastReloadError());
        } finally {
            watching.stop();
        }
    }

    @Test
    void impactTakesCandidateTablesAndRuleFiles() throws Exception {
        String body = "{\"candidate\": {\"tables\": {\"capact.backend/backend-priority\": "
                + io.arbiter.document.Documents.jsonMapper().writeValueAsString(pathRowLast()) + "}}}";

        // a recent decision the PATH row decides
        assertEquals(200, client.postJson("/v1/decisions/backend", CREDENTIALS_0_2).status());

        var answer = client.send("POST", "/v1/impact", "application/json", body.getBytes(), "Authorization", "Bearer " + TOKEN);
        var broken = client.send("POST", "/v1/impact", "application/json",
                "{\"candidate\": {\"rules\": {\"backend/extra.drl\": \"package x; rule broken when then nothing( end\"}}}".getBytes(),
                "Authorization", "Bearer " + TOKEN);

        assertEquals(200, answer.status(), answer.body());
        assertTrue(answer.json().path("changed").asInt() > 0, answer.body());
        assertTrue(answer.body().contains("Exact path without revision"), "the rows that fired before and after: " + answer.body());
        assertEquals(422, broken.status(), broken.body());
    }

    /** Dry run, then apply: the file is written, decisions use the moved row, the snapshot is archived and recorded. */
    @Test
    void aDryRunAnswersTheImpactThenAnAppliedEditServesIsArchivedAndRecorded() throws Exception {
        try {
            String etag = client.get(TABLE).header("ETag");
            String before = client.postJson("/v1/decisions/backend", CREDENTIALS_0_2).json().path("backends").get(0)
                    .path("matchedBy").asText();
            assertEquals("PATH", before);

            var dryRun = put(TABLE + "?dryRun=true", "text/csv", pathRowLast().getBytes(), "If-Match", etag);

            assertEquals(200, dryRun.status(), dryRun.body());
            assertTrue(dryRun.json().path("impact").path("changed").asInt() > 0, dryRun.body());
            assertEquals(etag, client.get(TABLE).header("ETag"), "a dry run applies nothing");

            String initial = client.get("/readyz").json().path("snapshotRevision").asText();
            var applied = put(TABLE, "application/json", Documents.cells(pathRowLast()), "If-Match", etag);

            assertEquals(200, applied.status(), applied.body());
            assertNotEquals(etag, applied.header("ETag"));
            assertEquals(applied.header("ETag"), client.get(TABLE).header("ETag"));
            List<String> written = Files.readAllLines(tables.resolve("backend/backend-priority.drl.csv"));
            assertTrue(written.get(written.size() - 1).startsWith("Exact path without revision,"), written.toString());
            var decided = client.postJson("/v1/decisions/backend", CREDENTIALS_0_2);
            assertEquals("PATTERN", decided.json().path("backends").get(0).path("matchedBy").asText(), decided.body());
            String snapshot = applied.json().path("snapshotRevision").asText();
            assertNotEquals(initial, snapshot);
            assertEquals(snapshot, decided.json().path("snapshotRevision").asText(), decided.body());
            awaitTrue(() -> revisions().contains(snapshot));

            var again = put(TABLE, "text/csv", original().getBytes(), "If-Match", etag);
            assertEquals(412, again.status(), "the old ETag is stale now: " + again.body());
        } finally {
            var restored = put(TABLE, "text/csv", original().getBytes());
            assertEquals(200, restored.status(), restored.body());
        }
    }

    /** JSON bodies for a PUT. */
    private static final class Documents {
        static byte[] cells(String csv) throws Exception {
            List<List<String>> rows = new ArrayList<>();
            var parser = new org.drools.decisiontable.parser.csv.CsvLineParser();
            csv.lines().forEach(line -> rows.add(parser.parse(line)));
            return io.arbiter.document.Documents.jsonMapper().writeValueAsBytes(java.util.Map.of("cells", rows));
        }
    }

    private static List<String> revisions() {
        try {
            return archive.manifests().stream().map(ArchiveManifest::snapshotRevision).toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
        archived.await(condition, Duration.ofSeconds(30), () -> "not archived: " + revisions());
    }
}
