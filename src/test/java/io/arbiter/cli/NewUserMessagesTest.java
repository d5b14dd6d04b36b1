package io.arbiter.cli;

import ch.qos.logback.classic.Level;
import io.arbiter.http.ArbiterServer;
import io.arbiter.testing.LogCapture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 45, "tried as a new user would": each failure is one line saying what is wrong and what to do next, never a
 * stack trace or a library's exception name.
 */
class NewUserMessagesTest {

    @TempDir
    Path temp;

    @RegisterExtension
    final LogCapture serverLog = LogCapture.of(ArbiterServer.class, io.arbiter.runtime.SnapshotLoader.class).from(Level.INFO);

    private static void assertNoStackTrace(CliRun run) {
        assertFalse(run.err().contains("\tat ") || run.err().contains("Exception"), run.err());
    }

    @Test
    void theStartUpLogSaysWhereDecisionsAreLoggedAndWhereTheBrowserPageIs() throws Exception {
        ArbiterServer server = ArbiterServer.start(new io.arbiter.http.ServerOptions("127.0.0.1", 0,
                io.arbiter.decision.Settings.embedded(), null)).toCompletionStage().toCompletableFuture().get();
        try {
            String started = serverLog.await(Level.INFO, "arbiter listening on ");
            assertTrue(started.contains("decision log: nowhere (no --decision-log FILE; recent decisions and metrics "
                    + "are still kept)"), started);
            assertTrue(started.contains("decision explorer: http://127.0.0.1:" + server.port() + "/ui/"), started);
        } finally {
            server.stop();
        }
    }

    @Test
    void aMissingRequestFileIsNamedWithoutAStackTrace() {
        CliRun run = CliRun.run("decide", "implementation", "--request", temp.resolve("missing.yaml").toString());
        assertEquals(2, run.exit(), run.err());
        assertNoStackTrace(run);
        assertTrue(run.err().contains("--request " + temp.resolve("missing.yaml") + ": no such file (give the path of a "
                + "JSON or YAML request, or - to read it from standard input)"), run.err());
    }

    @Test
    void aPortInUseIsNamedAtOnceWithoutAStackTrace() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            CliRun run = CliRun.run("serve", "--port", String.valueOf(port));
            assertEquals(2, run.exit(), run.err());
            assertNoStackTrace(run);
            assertTrue(run.err().contains("port " + port + " on 127.0.0.1 is in use (another arbiter?): stop what "
                    + "listens there, or give another --port (--port 0 picks a free one)"), run.err());
            // checked before the snapshot loads: nothing was loaded
            assertTrue(serverLog.messages(Level.INFO).stream().noneMatch(m -> m.startsWith("catalog ")),
                    serverLog.events().toString());
        }
    }

    @Test
    void anEmptyHubFolderIsRefusedAsAnEmptyRulesFolderIs() throws Exception {
        Path hub = Files.createDirectories(temp.resolve("hub"));
        CliRun run = CliRun.run("decide", "implementation", "--hub", hub.toString(), "--interface",
                "cap.interface.database.postgresql.install");
        assertEquals(2, run.exit(), run.err());
        assertNoStackTrace(run);
        assertTrue(run.err().contains("the catalog folder " + hub + " holds no manifest files (*.yaml, *.yml): give "
                + "--hub the folder of the Hub's OCF manifests"), run.err());
    }

    @Test
    void auditReportsAndSkipsAJsonLineThatIsNoDecisionRecord() throws Exception {
        Path log = temp.resolve("decisions.log");
        Files.writeString(log, "{\"level\": \"info\", \"msg\": \"started\"}\n");
        CliRun run = CliRun.run("audit", log.toString());
        assertEquals(1, run.exit(), run.out() + run.err());
        assertTrue(run.err().contains(log + ":1: not a decision record: a JSON object without a decisionId (another "
                + "program's log?): name only the files serve --decision-log writes"), run.err());
        assertFalse(run.out().contains("{=1}"), "counted as a decision: " + run.out());
    }

    @Test
    void serveHelpGivesTheRecordSizesTheReadmeGives() throws Exception {
        CliRun run = CliRun.run("serve", "--help");
        String help = run.out().replaceAll("\\s+", " ");
        assertTrue(help.contains("a usual record takes 1.5 to 13 KB, any record at most 16 KiB"), help);
        String readme = Files.readString(Path.of("docs/audit.md")).replaceAll("\\s+", " ");
        assertTrue(readme.contains("usual records of 1.5 to 13 KB"), "docs/audit.md and help disagree");
        assertTrue(readme.contains("A record takes at most 16 KiB"), "docs/audit.md and help disagree");
    }

    @Test
    void lintWithoutAServerDoesNotSpeakOfTheServersStore() throws Exception {
        Path policy = temp.resolve("policy.yaml");
        Files.writeString(policy, """
                interface:
                  rules:
                    - interface: {path: cap.interface.database.postgresql.install}
                      oneOf:
                        - implementationConstraints: {}
                          inject:
                            requiredTypeInstances: [{id: 00000000-0000-0000-0000-00000000beef, description: x}]
                """);
        CliRun run = CliRun.run("lint", policy.toString());
        assertTrue(run.out().contains("is not in the TypeInstance store (the file --type-instances names, by default "
                + "the embedded one): add it there if it should be"), run.out() + run.err());
        assertFalse(run.out().contains("server's"), run.out());
    }

    /** A copy of the packaged rules and tables with one table cell misspelt (row 10, column 3). */
    private Path[] brokenTables() throws Exception {
        Path rules = io.arbiter.testing.TestFiles.copyTree(Path.of("rules"), temp.resolve("rules"));
        Path tables = io.arbiter.testing.TestFiles.copyTree(Path.of("decision-tables"), temp.resolve("decision-tables"));
        // the test-only policy type's own rules, as every type's folder must be there
        io.arbiter.testing.TestFiles.copyTree(Path.of("src/test/resources/rules"), rules);
        io.arbiter.testing.TestFiles.copyTree(Path.of("src/test/resources/decision-tables"), tables);
        Path table = tables.resolve("implementation/rule-key-precedence.drl.csv");
        Files.writeString(table, Files.readString(table).replace("PATH_REVISION,1", "PATH_REVISON,1"));
        return new Path[]{rules, tables};
    }

    @Test
    void aTableThatDoesNotCompileIsReportedByServeAndTestAsLintReportsIt() throws Exception {
        Path[] dirs = brokenTables();
        CliRun lint = CliRun.run("lint", "--rules", dirs[0].toString(), "--decision-tables", dirs[1].toString());
        CliRun test = CliRun.run("test", "--rules", dirs[0].toString(), "--decision-tables", dirs[1].toString(),
                "--policy", "docs/examples/impact/policy.yaml", "docs/examples/impact/tests");
        CliRun serve = CliRun.run("serve", "--port", "0", "--rules", dirs[0].toString(), "--decision-tables",
                dirs[1].toString());
        String table = dirs[1].resolve("implementation/rule-key-precedence.drl.csv").toString();
        assertTrue(lint.out().contains("10:3: error [unknown-value]"), lint.out());
        for (CliRun run : java.util.List.of(test, serve)) {
            assertEquals(2, run.exit(), run.err());
            assertNoStackTrace(run);
            assertTrue(run.err().contains("does not compile (as arbiter lint --rules " + dirs[0] + " --decision-tables "
                    + dirs[1] + " reports it)"), run.err());
            assertTrue(run.err().contains(table), run.err());
            assertTrue(run.err().contains("10:3: error [unknown-value]"), run.err());
            assertFalse(run.err().contains("line -1"), run.err());
        }
    }
}
