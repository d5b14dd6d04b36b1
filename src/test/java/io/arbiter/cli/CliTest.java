package io.arbiter.cli;

import ch.qos.logback.classic.Level;
import io.arbiter.http.ArbiterServer;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.testing.LogCapture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line: decide, lint, migrate, policy order, help, and clear errors. */
class CliTest {

    @TempDir
    Path temp;

    @RegisterExtension
    final LogCapture serverLog = LogCapture.of(ArbiterServer.class);

    private static CliRun run(String... args) {
        return CliRun.run(args);
    }

    @Test
    void decideImplementationPrintsTheDecision() {
        CliRun run = run("decide", "implementation", "--interface", "cap.interface.database.postgresql.install:0.1.0");

        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("\"outcome\" : \"SELECTED\""), run.out());
        assertTrue(run.out().contains("\"alias\" : \"helm-storage\""), run.out());
    }

    @Test
    void decideWithoutARequestExplainsWhatIsMissing() {
        CliRun run = run("decide", "implementation");

        assertEquals(2, run.exit());
        assertTrue(run.err().contains("give --request FILE or the request options"), run.err());
    }

    @Test
    void decideRefusesABadInterfacePathWithTheSchemaProblem() {
        CliRun run = run("decide", "implementation", "--interface", "interface.database.postgresql.install");

        assertEquals(2, run.exit());
        assertTrue(run.err().contains("$.interface.path"), run.err());
    }

    @Test
    void lintReportsEveryProblemWithLocationsAndFails() throws Exception {
        Path policy = Files.writeString(temp.resolve("policy.yaml"), """
                interface:
                  rules:
                    - interface: {path: cap.interface.a, revision: "1"}
                      oneOf:
                        - implementationConstraints: {pth: x}
                    - interface: {path: nope}
                      oneOf: []
                """);

        CliRun run = run("lint", policy.toString());

        assertEquals(1, run.exit(), run.out() + run.err());
        assertTrue(run.out().startsWith(policy + "\n"), "grouped under the file: " + run.out());
        assertTrue(run.out().contains("  3:42: error [schema] $.interface.rules[0].interface.revision: "), run.out());
        assertTrue(run.out().contains("  5:39: error [schema] $.interface.rules[0].oneOf[0].implementationConstraints.pth: "), run.out());
        assertTrue(run.out().contains("  6:19: error [schema] $.interface.rules[1].interface.path: "), run.out());
        assertTrue(run.out().contains("invalid: 3 error(s), 0 warning(s)"), run.out());
    }

    @Test
    void lintShowsTheOffendingLineWithACaretUnderTheColumn() throws Exception {
        Path policy = Files.writeString(temp.resolve("policy.yaml"), "interface:\n  rules:\n    - interface: {path: nope}\n      oneOf: []\n");

        CliRun run = run("lint", policy.toString());

        assertTrue(run.out().contains("""
                    |     - interface: {path: nope}
                    |                   ^
                """), run.out());
    }

    @Test
    void lintPassesAValidPolicyAndWarnsAboutUnknownIds() throws Exception {
        Path policy = Files.writeString(temp.resolve("policy.yaml"), """
                interface:
                  default:
                    inject:
                      requiredTypeInstances: [{id: not-in-the-store}]
                  rules:
                    - interface: {path: cap.*}
                      oneOf: [{implementationConstraints: {}}]
                """);

        CliRun run = run("lint", policy.toString());
        CliRun strict = run("lint", policy.toString(), "--strict");

        assertEquals(0, run.exit(), run.out() + run.err());
        assertTrue(run.out().contains("4:32: warning [unknown-typeinstance] $.interface.default.inject.requiredTypeInstances[0].id:"
                + " TypeInstance not-in-the-store"), run.out());
        assertTrue(run.out().contains("valid: 0 error(s), "), run.out());
        assertEquals(1, strict.exit(), "--strict fails on warnings: " + strict.out());
    }

    @Test
    void lintJsonIsTheValidateShapeWithSeverityAndCode() throws Exception {
        Path policy = Files.writeString(temp.resolve("policy.yaml"), """
                interface:
                  default:
                    inject:
                      requiredTypeInstances: [{id: not-in-the-store}]
                  rules:
                    - interface: {path: nope}
                      oneOf: []
                """);

        CliRun run = run("lint", policy.toString(), "--format", "json");

        assertEquals(1, run.exit(), run.out() + run.err());
        var json = io.arbiter.document.Documents.jsonMapper().readTree(run.out());
        assertEquals(false, json.path("valid").asBoolean(true));
        assertEquals(2, json.path("problems").size(), run.out());
        var error = json.path("problems").get(1);
        assertEquals("error", error.path("severity").asText());
        assertEquals("schema", error.path("code").asText());
        assertEquals("$.interface.rules[0].interface.path", error.path("path").asText());
        assertEquals(6, error.path("line").asInt());
        assertEquals(19, error.path("column").asInt());
        assertEquals("warning", json.path("problems").get(0).path("severity").asText());
    }

    @Test
    void lintSarifNamesEachFindingsRuleFileAndRegion() throws Exception {
        Path policy = Files.writeString(temp.resolve("policy.yaml"), "interface:\n  rules:\n    - interface: {path: nope}\n      oneOf: []\n");

        CliRun run = run("lint", policy.toString(), "--format", "SARIF");

        assertEquals(1, run.exit(), run.out() + run.err());
        var sarif = io.arbiter.document.Documents.jsonMapper().readTree(run.out());
        assertEquals("2.1.0", sarif.path("version").asText());
        var result = sarif.path("runs").get(0).path("results").get(0);
        assertEquals("schema", result.path("ruleId").asText());
        assertEquals("error", result.path("level").asText());
        var physical = result.path("locations").get(0).path("physicalLocation");
        assertEquals(policy.toString(), physical.path("artifactLocation").path("uri").asText());
        assertEquals(3, physical.path("region").path("startLine").asInt());
        assertEquals(19, physical.path("region").path("startColumn").asInt());
        assertEquals("schema", sarif.path("runs").get(0).path("tool").path("driver").path("rules").get(0).path("id").asText());
    }

    @Test
    void lintWithoutAnythingToCheckOrWithABadRoleIsAUsageError() throws Exception {
        Path policy = Files.writeString(temp.resolve("policy.yaml"), "interface: {rules: []}\n");

        CliRun nothing = run("lint");
        CliRun badRole = run("lint", policy.toString(), "--as", "boss");
        CliRun badFormat = run("lint", policy.toString(), "--format", "xml");

        assertEquals(2, nothing.exit());
        assertTrue(nothing.err().contains("give a policy FILE, or --rules DIR --decision-tables DIR"), nothing.err());
        assertEquals(2, badRole.exit());
        assertTrue(badRole.err().contains("'boss' is not a policy role"), badRole.err());
        assertEquals(2, badFormat.exit());
    }

    @Test
    void lintAsAnActionPolicyReportsARuleTheGlobalPolicyShadows() throws Exception {
        Path global = Files.writeString(temp.resolve("global.yaml"), """
                interface:
                  default:
                    inject:
                      requiredTypeInstances: [{id: c268d3f5-8834-434b-bea2-b677793611c5}]
                  rules:
                    - interface: {path: cap.interface.database.postgresql.install, revision: 0.1.0}
                      oneOf: [{implementationConstraints: {path: cap.implementation.bitnami.postgresql.install}}]
                """);
        Path action = Files.writeString(temp.resolve("action.yaml"), """
                interface:
                  rules:
                    - interface: {path: cap.interface.database.postgresql.install}
                      oneOf: [{implementationConstraints: {}}]
                """);

        CliRun run = run("lint", action.toString(), "--as", "action", "--policy", global.toString());

        assertEquals(0, run.exit(), run.out() + run.err());
        assertTrue(run.out().contains("3:7: warning [shadowed-rule] $.interface.rules[0].interface: never decides"), run.out());
    }

    private static final String RDS_POLICY = """
            interface:
              rules:
                - interface: {path: cap.interface.database.postgresql.install}
                  oneOf:
                    - implementationConstraints: {path: cap.implementation.aws.rds.postgresql.install}
                      inject:
                        requiredTypeInstances: [{id: 517cf827-233c-4bf1-8fc9-48534424dd58}]
                        additionalParameters:
                          - name: additional-parameters
                            value: {region: %s}
            """;

    @Test
    void lintWithTheHubRejectsParametersThatADecisionRejects() throws Exception {
        String hub = io.arbiter.testing.Fixtures.requireHubManifests().toString();
        Path policy = Files.writeString(temp.resolve("rds.yaml"), RDS_POLICY.formatted("42"));

        CliRun run = run("lint", policy.toString(), "--hub", hub);

        assertEquals(1, run.exit(), run.out() + run.err());
        assertTrue(run.out().contains("9:17: error [decision-refuses] $.interface.rules[0].oneOf[0].inject.additionalParameters[0]:"), run.out());
        assertTrue(run.out().contains("deciding cap.interface.database.postgresql.install:0.1.0 selects"
                + " cap.implementation.aws.rds.postgresql.install:0.1.0: additional parameter 'additional-parameters'"
                + " does not match cap.type.aws.rds.postgresql.install-input:0.1.0: $.region: "), run.out());
        assertTrue(run.out().contains("invalid: 1 error(s)"), run.out());
    }

    @Test
    void lintWithTheHubPassesThePolicyADecisionApplies() throws Exception {
        String hub = io.arbiter.testing.Fixtures.requireHubManifests().toString();
        Path policy = Files.writeString(temp.resolve("rds.yaml"), RDS_POLICY.formatted("eu-west-1"));

        CliRun lint = run("lint", policy.toString(), "--hub", hub);
        CliRun decide = run("decide", "implementation", "--interface", "cap.interface.database.postgresql.install:0.1.0",
                "--hub", hub, "--policy", policy.toString());

        assertEquals(0, lint.exit(), lint.out() + lint.err());
        assertEquals(0, decide.exit(), decide.out() + decide.err());
        assertTrue(decide.out().contains("\"path\" : \"cap.implementation.aws.rds.postgresql.install\""), decide.out());
    }

    @Test
    void migratePrintsTheLegacyPolicyInTheCurrentSyntax() throws Exception {
        Path legacy = Files.writeString(temp.resolve("legacy.yaml"), """
                apiVersion: 0.1.0
                rules:
                  cap.interface.database.postgresql.install:0.1.0:
                    oneOf:
                      - implementationConstraints:
                          requires: [{path: cap.type.gcp.auth.service-account}]
                        injectTypeInstances:
                          - id: 9038dcdc-e959-41c4-a690-d8ebf929ac0c
                            typeRef: {path: cap.type.gcp.auth.service-account, revision: 0.1.0}
                  cap.*:
                    oneOf: []
                """);

        CliRun run = run("migrate", legacy.toString());

        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().startsWith("interface:"), run.out());
        assertTrue(run.out().contains("path: cap.interface.database.postgresql.install"), run.out());
        assertTrue(run.out().contains("revision: 0.1.0"), run.out());
        assertTrue(run.out().contains("requiredTypeInstances:"), run.out());
        assertTrue(run.out().contains("id: 9038dcdc-e959-41c4-a690-d8ebf929ac0c"), run.out());
        assertTrue(!run.out().contains("injectTypeInstances"), run.out());
    }

    @Test
    void migrateReportsAMalformedLegacyPolicy() throws Exception {
        Path legacy = Files.writeString(temp.resolve("legacy.yaml"), "apiVersion: 0.1.0\nrules:\n  cap.*:\n    oneOf:\n      - injectTypeInstances: [{typeRef: {path: x}}]\n");

        CliRun run = run("migrate", legacy.toString());

        assertEquals(1, run.exit());
        assertTrue(run.err().contains("injectTypeInstances[0]"), run.err());
    }

    @Test
    void policyOrderMustNameEachKindOnce() {
        CliRun run = run("decide", "implementation", "--interface", "cap.interface.x", "--policy-order", "ACTION,GLOBAL");

        assertEquals(2, run.exit());
        assertTrue(run.err().contains("policy order must name ACTION, GLOBAL and WORKFLOW once each"), run.err());
    }

    @Test
    void auditSummarisesADecisionLogAndFindsOneDecision() throws Exception {
        Path log = temp.resolve("decisions.log");
        var audit = new io.arbiter.audit.Audit(new io.arbiter.audit.FileDecisionLog(log, 1 << 20, 1, 100,
                io.arbiter.audit.DecisionLog.Mode.REQUIRED), new io.arbiter.audit.RecentDecisions(10), new io.arbiter.audit.Metrics(), false);
        var decisions = new io.arbiter.runtime.Decisions(PolicyTypeRegistry.discover(),
                io.arbiter.testing.Fixtures.snapshot(io.arbiter.testing.Fixtures.embeddedPolicy()), audit);
        var decided = decisions.decide("implementation", "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\"}}".getBytes(),
                "application/json");
        String id = decided.path("decisionId").asText();
        decisions.decide("implementation", "{\"interface\": {\"path\": \"cap.interface.unknown.x\"}}".getBytes(), "application/json");
        audit.close();

        CliRun summary = run("audit", log.toString(), "--top", "50");
        CliRun one = run("audit", log.toString(), "--id", id);
        CliRun none = run("audit", log.toString(), "--id", "nope");

        assertEquals(0, summary.exit(), summary.err());
        assertTrue(summary.out().contains("cap.interface.database.postgresql.install: {SELECTED=1}"), summary.out());
        assertTrue(summary.out().contains("cap.interface.unknown.x: {NO_MATCH=1}") || summary.out().contains("cap.interface.unknown.x: {NO_RULE=1}"), summary.out());
        // the Interface-only decision carries its firings inline: they are counted like any other
        assertTrue(summary.out().contains("io.arbiter.rules.implementation.Outcome SELECTED"), summary.out());
        assertTrue(summary.out().contains("io.arbiter.rules.implementation.Outcome NO_"), summary.out());
        assertEquals(0, one.exit());
        assertTrue(one.out().contains(id), one.out());
        assertEquals(1, none.exit());
        assertTrue(none.err().contains("no decision nope in [" + log + "]"), none.err());
    }

    @Test
    void auditReadsSeveralFilesAndSaysWhatIsWrongWithItsInput() throws Exception {
        Path current = temp.resolve("decisions.log");
        Path rotated = temp.resolve("decisions.log.1");
        java.nio.file.Files.writeString(current, """
                {"decisionId": "d-2", "request": {"interface": {"path": "cap.interface.a"}}, "outcome": "SELECTED", "result": {"firedRules": [{"rule": "p.A"}]}}
                """);
        java.nio.file.Files.writeString(rotated, """
                {"decisionId": "d-1", "request": {"interface": {"path": "cap.interface.a"}}, "outcome": "NO_MATCH", "result": {"firedRules": [{"rule": "p.A"}]}}
                not json
                """);

        CliRun both = run("audit", current.toString(), rotated.toString());
        CliRun negativeTop = run("audit", current.toString(), "--top", "-1");
        CliRun missing = run("audit", current.toString(), temp.resolve("absent.log").toString());
        CliRun none = run("audit");

        assertEquals(1, both.exit(), "a line that is not a record: " + both.err());
        assertTrue(both.out().contains("cap.interface.a: {NO_MATCH=1, SELECTED=1}") && both.out().contains("  2  p.A"), both.out());
        assertTrue(both.err().contains(rotated + ":2: not a decision record"), both.err());
        assertEquals(2, negativeTop.exit());
        assertTrue(negativeTop.err().contains("--top must be 0 or more, not -1"), negativeTop.err());
        assertEquals(1, missing.exit());
        assertTrue(missing.err().contains("absent.log is not a file"), missing.err());
        assertEquals(2, none.exit());
        assertTrue(none.err().contains("name decision log FILEs, or a topic with --kafka-bootstrap"), none.err());
    }

    /** Every command names itself the same way before a failure: its whole name, as it was typed after java -jar. */
    @Test
    void failuresBeginWithTheCommandsFullName(@TempDir Path temp) {
        String absent = temp.resolve("absent.yaml").toString();
        assertTrue(run("lint").err().startsWith("arbiter lint: give a policy FILE"), run("lint").err());
        assertTrue(run("test").err().startsWith("arbiter test: give at least one suite"), run("test").err());
        assertTrue(run("migrate", absent).err().startsWith("arbiter migrate: " + absent + " is not a file"),
                run("migrate", absent).err());
        CliRun decide = run("decide", "implementation");
        assertTrue(decide.err().startsWith("arbiter decide implementation: give --request FILE"), decide.err());
        CliRun serve = run("serve", "--policy", absent, "--port", "0");
        assertEquals(2, serve.exit(), serve.err());
        assertTrue(serve.err().startsWith("arbiter serve: "), serve.err());
        assertTrue(serverLog.await(Level.ERROR, "arbiter failed to start: ").contains(absent), serverLog.events().toString());
    }

    @Test
    void helpListsEveryCommand() {
        CliRun run = run("--help");

        assertEquals(0, run.exit());
        for (String command : new String[]{"serve", "decide", "policy-types", "lint", "migrate", "audit"}) {
            assertTrue(run.out().contains(command), run.out());
        }
    }

    @Test
    void aMissingPolicyFileIsOneClearLine() {
        CliRun run = run("decide", "implementation", "--interface", "cap.interface.x", "--policy", temp.resolve("missing.yaml").toString());

        assertEquals(2, run.exit());
        assertTrue(run.err().contains("missing.yaml"), run.err());
        assertTrue(!run.err().contains("\tat "), run.err());
    }

    @Test
    void serveTakesTheRecentDecisionIndexAndAuditMemoryFromItsOptions() {
        var parsed = ArbiterCli.commandLine(PolicyTypeRegistry.discover())
                .parseArgs("serve", "--recent-decisions", "50", "--audit-memory", "16");
        ServeCommand serve = (ServeCommand) parsed.subcommand().commandSpec().userObject();

        var settings = serve.auditSettings();

        assertEquals(50, settings.recentDecisions());
        assertEquals(16L * 1024 * 1024, settings.memoryBytes());
    }

    @Test
    void serveTakesTheDecisionLogsRotationFromItsOptions() {
        var parsed = ArbiterCli.commandLine(PolicyTypeRegistry.discover())
                .parseArgs("serve", "--decision-log", "d.log", "--decision-log-size", "256", "--decision-log-files", "40");
        ServeCommand serve = (ServeCommand) parsed.subcommand().commandSpec().userObject();
        var defaults = (ServeCommand) ArbiterCli.commandLine(PolicyTypeRegistry.discover()).parseArgs("serve")
                .subcommand().commandSpec().userObject();

        assertEquals(256L * 1024 * 1024, serve.auditSettings().maxBytes());
        assertEquals(40, serve.auditSettings().keepFiles());
        assertEquals(64L * 1024 * 1024, defaults.auditSettings().maxBytes());
        assertEquals(5, defaults.auditSettings().keepFiles());
    }

    @Test
    void serveTakesTheDecisionDeadlineFromItsOption() {
        var parsed = ArbiterCli.commandLine(PolicyTypeRegistry.discover()).parseArgs("serve", "--decision-deadline", "500ms");
        ServeCommand serve = (ServeCommand) parsed.subcommand().commandSpec().userObject();
        var defaults = (ServeCommand) ArbiterCli.commandLine(PolicyTypeRegistry.discover()).parseArgs("serve")
                .subcommand().commandSpec().userObject();

        assertEquals(java.time.Duration.ofMillis(500), serve.decisionDeadline());
        assertEquals(java.time.Duration.ofSeconds(10), defaults.decisionDeadline());
    }

    @Test
    void serveRefusesADecisionDeadlineThatIsNotAPositiveDuration() {
        for (String deadline : new String[] {"0s", "ten", "10", "-1s"}) {
            CliRun refused = run("serve", "--decision-deadline", deadline);
            assertEquals(2, refused.exit(), deadline);
            assertTrue(refused.err().contains("--decision-deadline must be a positive duration"), refused.err());
        }
    }

    @Test
    void serveRefusesARotationThatCannotWork() {
        CliRun noSize = run("serve", "--decision-log-size", "0");
        CliRun hugeSize = run("serve", "--decision-log-size", "9000000000000");
        CliRun noFiles = run("serve", "--decision-log-files", "0");

        assertEquals(2, noSize.exit());
        assertTrue(noSize.err().contains("--decision-log-size must be from 1 to 1048576 (MiB), not 0"), noSize.err());
        assertEquals(2, hugeSize.exit());
        assertTrue(hugeSize.err().contains("--decision-log-size must be from 1 to 1048576"), hugeSize.err());
        assertEquals(2, noFiles.exit());
        assertTrue(noFiles.err().contains("--decision-log-files must be at least 1"), noFiles.err());
    }

    @Test
    void serveWithoutAuditOptionsSizesTheAuditMemoryByTheHeap() {
        var parsed = ArbiterCli.commandLine(PolicyTypeRegistry.discover()).parseArgs("serve");
        ServeCommand serve = (ServeCommand) parsed.subcommand().commandSpec().userObject();

        assertEquals(1_000, serve.auditSettings().recentDecisions());
        assertEquals(0, serve.auditSettings().memoryBytes(), "0: an eighth of the heap, at most 64 MiB");
    }

    @Test
    void serveRefusesAnIndexOrAuditMemoryWithoutRoom() {
        CliRun noIndex = run("serve", "--recent-decisions", "0");
        CliRun noMemory = run("serve", "--audit-memory", "0");

        assertEquals(2, noIndex.exit());
        assertTrue(noIndex.err().contains("--recent-decisions must be at least 1"), noIndex.err());
        assertEquals(2, noMemory.exit());
        assertTrue(noMemory.err().contains("--audit-memory must be at least 1"), noMemory.err());
    }
}
