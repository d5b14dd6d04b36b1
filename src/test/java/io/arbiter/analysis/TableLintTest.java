package io.arbiter.analysis;

import ch.qos.logback.classic.Level;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.testing.LogCapture;
import io.arbiter.testing.RuleTestSupport;
import io.arbiter.testing.TestFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The decision-table checks: each fires at its row and column, and the project's own tables pass. */
class TableLintTest {

    @RegisterExtension
    final LogCapture droolsLog = LogCapture.of(RuleTestSupport.DROOLS_COMPILE_LOG);

    private static final String PRECEDENCE = """
            RuleSet,io.arbiter.rules.implementation
            Import,io.arbiter.decision.implementation.ImplementationFacts.*
            Notes,"Rule-key precedence."
            ,
            RuleTable Rule key precedence
            NAME,RULEFLOW-GROUP,CONDITION,ACTION
            ,,$match : RuleKeyMatch,
            ,,kind == RuleKeyKind.$param,"insert(new RuleKeyRank($match, $param));"
            Rule,Phase,Rule key kind,Precedence
            Exact path and revision,rule-key,PATH_REVISION,1
            Path without revision,rule-key,PATH,2
            Catch-all cap.*,rule-key,ANY,3
            """;

    private static List<Finding> rows(String csv, Set<String> fired) {
        return TableLint.rowChecks(DecisionTable.parse("t.drl.csv", csv.getBytes(StandardCharsets.UTF_8)), fired);
    }

    private static List<Finding> rows(String csv) {
        return rows(csv, null);
    }

    @Test
    void aCompleteTableHasNoFinding() {
        assertEquals(List.of(), rows(PRECEDENCE));
    }

    // issue 28, fourth defect: two rows with the same precedence were accepted silently
    @Test
    void twoRowsWithTheSamePrecedenceAreAnErrorAtTheCell() {
        List<Finding> findings = rows(PRECEDENCE.replace("ANY,3", "ANY,2"));

        assertEquals(1, findings.size(), findings.toString());
        Finding twice = findings.get(0);
        assertEquals("duplicate-precedence", twice.code());
        assertEquals(Finding.Severity.ERROR, twice.severity());
        assertEquals(List.of(12, 4), List.of(twice.line(), twice.column()));
        assertTrue(twice.problem().contains("also row 11's"), twice.problem());
    }

    @Test
    void aKindWithNoRowIsAGap() {
        List<Finding> findings = rows(PRECEDENCE.replace("Catch-all cap.*,rule-key,ANY,3\n", ""));

        assertEquals(1, findings.size(), findings.toString());
        assertEquals("uncovered-value", findings.get(0).code());
        assertTrue(findings.get(0).problem().contains("no row has RuleKeyKind.ANY"), findings.get(0).problem());
    }

    @Test
    void aValueThatIsNoConstantIsAnErrorAtTheCell() {
        Finding bad = rows(PRECEDENCE.replace("PATH_REVISION,1", "PATH_REVISON,1")).stream()
                .filter(f -> f.code().equals("unknown-value")).findFirst().orElseThrow();

        assertEquals(List.of(10, 3), List.of(bad.line(), bad.column()));
    }

    @Test
    void aRowWithTheSameConditionsAsAnotherIsAnError() {
        List<Finding> findings = rows(PRECEDENCE.replace("Catch-all cap.*,rule-key,ANY,3", "Catch-all cap.*,rule-key,PATH,3"));

        assertTrue(findings.stream().anyMatch(f -> f.code().equals("duplicate-row") && f.line() == 12
                && f.problem().contains("same conditions as row 11")), findings.toString());
    }

    private static final String SEQUENTIAL = """
            RuleSet,io.arbiter.rules.rollout
            Import,io.arbiter.decision.rollout.RolloutFacts.*
            Sequential,true
            ,
            RuleTable Treatment
            NAME,RULEFLOW-GROUP,CONDITION,CONDITION,ACTION
            ,,$s : Situation,$s2 : Settings,
            ,,name == $param,remediationAction == $param,insert(new X($param));
            Treatment,Phase,Situation,Root action,Reports
            Skipped while enforcing,rollout-treatment,skipped,enforce,Skip
            Skipped,rollout-treatment,skipped,,Skip
            Watched,rollout-treatment,watched,,Progressing
            """;

    @Test
    void aRowAnEarlierRowCoversInASequentialTableIsMasked() {
        assertEquals(List.of(), rows(SEQUENTIAL), "a more specific row first masks nothing");

        List<Finding> findings = rows(SEQUENTIAL.replace("Skipped while enforcing,rollout-treatment,skipped,enforce,Skip\n", "")
                .replace("Watched,rollout-treatment,watched,,Progressing", "Skipped while enforcing,rollout-treatment,skipped,enforce,Skip"));

        assertEquals(1, findings.size(), findings.toString());
        assertEquals("masked-row", findings.get(0).code());
        assertEquals(11, findings.get(0).line());
    }

    @Test
    void overlappingRowsOfATableThatIsNotSequentialAreAWarning() {
        List<Finding> findings = rows(SEQUENTIAL.replace("Sequential,true", "Sequential,false")
                .replace("Skipped,rollout-treatment,skipped,,Skip", "Skipped,rollout-treatment,,enforce,Skip"));

        assertTrue(findings.stream().anyMatch(f -> f.code().equals("overlapping-rows") && f.line() == 11), findings.toString());
    }

    @Test
    void rowsNoScenarioFiredAreListed() {
        List<Finding> findings = rows(PRECEDENCE, Set.of("Exact path and revision", "Path without revision"));

        assertEquals(1, findings.size(), findings.toString());
        assertEquals("never-fired", findings.get(0).code());
        assertEquals(12, findings.get(0).line());
    }

    // issue 28, third defect: a bad value in a decision-table row compiled to an error at "line -1", with no row
    @Test
    void aCompileErrorIsLocatedAtTheTableRowAndColumn(@TempDir Path temp) throws IOException {
        Path rules = TestFiles.copyTree(Path.of("rules"), temp.resolve("rules"));
        Path tables = TestFiles.copyTree(Path.of("decision-tables"), temp.resolve("decision-tables"));
        Path table = tables.resolve("implementation/rule-key-precedence.drl.csv");
        Files.writeString(table, Files.readString(table).replace("rule-key,PATH_REVISION,1", "rule-key,PATH_REVISON,1"));

        // only the type whose table is broken: compiling every type would add minutes, not coverage
        PolicyTypeRegistry implementation = new PolicyTypeRegistry(List.of(
                PolicyTypeRegistry.discover().type("capact.implementation").orElseThrow()));

        List<Finding> findings = TableLint.lint(implementation, rules, tables, null);

        Finding compile = findings.stream().filter(f -> f.code().equals("compile")).findFirst().orElseThrow();
        assertEquals(table.toString(), compile.file());
        assertEquals(List.of(10, 3), List.of(compile.line(), compile.column()), compile.toString());
        assertTrue(compile.problem().contains("PATH_REVISON"), compile.problem());
        // Drools logs the error too, at a line of the DRL the table generates
        droolsLog.await(Level.ERROR, "PATH_REVISON");
        assertEquals(List.of(table.toString()), findings.stream().filter(Finding::isError).map(Finding::file).distinct().toList(),
                "the other files compile: " + findings);
    }

    @Test
    void aSituationTableThatLeavesAClusterWithoutASituationIsAnError(@TempDir Path temp) throws IOException {
        Path rules = TestFiles.copyTree(Path.of("rules"), temp.resolve("rules"));
        Path tables = TestFiles.copyTree(Path.of("decision-tables"), temp.resolve("decision-tables"));
        TestFiles.dropRow(tables.resolve("rollout/cluster-situation.drl.csv"), "Timed out by this decision is timed out now");
        PolicyTypeRegistry rollout = new PolicyTypeRegistry(List.of(
                PolicyTypeRegistry.discover().type("ocm.rollout").orElseThrow()));

        List<Finding> findings = TableLint.lint(rollout, rules, tables, null);

        List<Finding> errors = findings.stream().filter(Finding::isError).toList();
        assertEquals(1, errors.size(), findings.toString());
        assertEquals("rule-base", errors.get(0).code());
        assertTrue(errors.get(0).problem().contains("in timedOut as Succeeded"), errors.get(0).problem());
    }

    @Test
    void theProjectsTablesHaveNoRowError() throws IOException {
        try (Stream<Path> files = Files.walk(Path.of("decision-tables"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".drl.csv")).toList()) {
                List<Finding> findings = TableLint.rowChecks(DecisionTable.parse(file.toString(), Files.readAllBytes(file)), null);
                assertTrue(findings.stream().noneMatch(Finding::isError), file + ": " + findings);
                assertTrue(findings.stream().allMatch(f -> f.code().equals("uncovered-value")), file + ": " + findings);
            }
        }
    }

    private static final Path ROLLOUT_STATUS = Path.of("decision-tables/rollout/rollout-status.drl.csv");
    private static final Path CLUSTER_TREATMENT = Path.of("decision-tables/rollout/cluster-treatment.drl.csv");

    /** The table with the status cell (third) of the row named {@code rowName} replaced, or the row removed (null). */
    private static String withStatusCell(String rowName, String status) throws IOException {
        StringBuilder csv = new StringBuilder();
        for (String line : Files.readAllLines(ROLLOUT_STATUS)) {
            if (line.startsWith(rowName + ",")) {
                if (status == null) {
                    continue;
                }
                String[] cells = line.split(",", -1);
                cells[2] = status;
                line = String.join(",", cells);
            }
            csv.append(line).append('\n');
        }
        return csv.toString();
    }

    // issue 31: the rollout tables compared statuses as strings, so a misspelt or missing status passed every check
    @Test
    void aMisspeltRolloutStatusIsAnErrorAtItsCell() throws IOException {
        List<Finding> findings = rows(withStatusCell("Skip is done", "Skipp"));

        Finding bad = findings.stream().filter(f -> f.code().equals("unknown-value")).findFirst().orElseThrow(
                () -> new AssertionError("no unknown-value finding: " + findings));
        assertEquals(3, bad.column(), bad.toString());
        assertTrue(bad.problem().contains("'Skipp' is not a Status"), bad.problem());
    }

    @Test
    void aRolloutStatusWithNoRowIsAGap() throws IOException {
        List<Finding> findings = rows(withStatusCell("Skip is done", null));

        assertEquals(1, findings.size(), findings.toString());
        assertEquals("uncovered-value", findings.get(0).code());
        assertTrue(findings.get(0).problem().contains("no row has Status.Skip"), findings.get(0).problem());
    }

    /** Every status and every situation has a row; a blank cell (any remediation action) covers every constant. */
    @Test
    void theRolloutTablesCoverEveryStatusAndSituation() throws IOException {
        assertEquals(List.of(), rows(Files.readString(ROLLOUT_STATUS)));
        assertEquals(List.of(), rows(Files.readString(CLUSTER_TREATMENT)));
        assertEquals(List.of(), rows(Files.readString(Path.of("decision-tables/rollout/cluster-situation.drl.csv"))));
    }

    // Without the ... the situation table matched two Placements per row, and a ToApply record waiting its turn was
    // reported as updated now.
    @Test
    void conditionColumnsRepeatingAnObjectTypeWithoutDotsAreAWarningAtTheSecond() throws IOException {
        String merged = Files.readString(CLUSTER_TREATMENT);
        String repeated = merged.replace("$settings : Settings...", "$settings : Settings");

        List<Finding> findings = rows(repeated);

        assertEquals(List.of("repeated-pattern", "repeated-pattern"), findings.stream().map(Finding::code).toList());
        assertEquals(8, findings.get(0).line(), findings.toString());
        assertEquals(List.of(5, 6), findings.stream().map(Finding::column).toList());
        assertTrue(findings.get(0).problem().contains("end both cells in ..."), findings.get(0).problem());
    }

    /** A merge ends at the first cell without ...: a column after it is a pattern of its own again. */
    @Test
    void aColumnLeftOutOfTheMergeIsAWarningToo() throws IOException {
        String merged = Files.readString(CLUSTER_TREATMENT);
        String lastLeftOut = merged.replace("$settings : Settings...,$settings : Settings...,$settings : Settings...,",
                "$settings : Settings...,$settings : Settings...,$settings : Settings,");

        List<Finding> findings = rows(lastLeftOut);

        assertEquals(List.of("repeated-pattern"), findings.stream().map(Finding::code).toList());
        assertEquals(List.of(6), findings.stream().map(Finding::column).toList());
    }
}
