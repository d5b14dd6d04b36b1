package io.arbiter.tables;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.analysis.Finding;
import io.arbiter.analysis.TableGrid;
import io.arbiter.analysis.TableLint;
import io.arbiter.decision.DecisionException;
import io.arbiter.decision.RevisionMatch;
import io.arbiter.decision.Snapshot;
import io.arbiter.document.Documents;
import io.arbiter.document.Problem;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.engine.RuleBaseBuilder;
import io.arbiter.engine.RuleBaseException;
import io.arbiter.engine.RuleSources;
import io.arbiter.policytype.PolicyType;
import io.arbiter.runtime.Decisions;
import io.arbiter.runtime.TableSource;
import org.kie.api.io.ResourceType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The decision tables of the live snapshot, as {@code /v1/decision-tables} serves them: listed with their revision and
 * the rules they feed, read as a grid or as CSV, and replaced through the live {@link TableSource} after the checks a
 * reload makes (lint located at row and cell; a table that leaves a decision undecided is refused with the uncovered
 * cases named). Candidate tables and rule files also make a candidate snapshot for an impact.
 */
public final class DecisionTables {

    /** Lint's finding that a value of an enumerated column has no row: a decision left undecided. */
    private static final String UNCOVERED = "uncovered-value";

    private DecisionTables() {
    }

    /** One table of one policy type: {@code folder/file} as the rule base names it, and its revision. */
    public record Table(PolicyType type, String name, String folder, String file, RuleBaseBuilder.RuleFile ruleFile,
                        String revision) {
        public String display() {
            return "decision-tables/" + folder + "/" + file;
        }
    }

    /** A table as {@code GET /v1/decision-tables} lists it. */
    public record Listed(String type, String name, String file, String revision, String rulesRevision, List<String> rules) {
    }

    /** Every table of every policy type, with its revision and the rules (by {@code package.name}) it feeds. */
    public static List<Listed> list(Decisions decisions) {
        List<Listed> tables = new ArrayList<>();
        Snapshot snapshot = decisions.snapshot();
        for (PolicyType type : decisions.registry().types()) {
            CompiledRuleBase ruleBase = snapshot.ruleBases().get(type.name());
            if (ruleBase == null) {
                continue;
            }
            List<RuleSources.RuleSource> listing = ruleBase.listing();
            for (Table table : tablesOf(type, ruleBase)) {
                tables.add(new Listed(type.name(), table.name(), table.display(), table.revision(), ruleBase.revision(),
                        listing.stream().filter(rule -> table.display().equals(rule.file())).map(RuleSources.RuleSource::rule).toList()));
            }
        }
        return tables;
    }

    private static List<Table> tablesOf(PolicyType type, CompiledRuleBase ruleBase) {
        List<Table> tables = new ArrayList<>();
        for (RuleBaseBuilder.RuleFile file : ruleBase.files()) {
            if (file.type() != ResourceType.DTABLE || !file.name().endsWith(".drl.csv")) {
                continue;
            }
            int slash = file.name().indexOf('/');
            String folder = file.name().substring(0, slash);
            String fileName = file.name().substring(slash + 1);
            tables.add(new Table(type, fileName.substring(0, fileName.length() - ".drl.csv".length()), folder, fileName,
                    file, TableSource.revisionOf(file.content())));
        }
        return tables;
    }

    /** The table {@code name} of policy type {@code type}; a 404 names the tables there are. */
    public static Table find(Decisions decisions, String typeName, String name) {
        PolicyType type = decisions.registry().types().stream().filter(t -> t.name().equals(typeName)).findFirst()
                .orElseThrow(() -> new DecisionException(DecisionException.Code.NOT_FOUND, "no policy type named '"
                        + typeName + "'; types: " + decisions.registry().types().stream().map(PolicyType::name).toList(), List.of()));
        CompiledRuleBase ruleBase = decisions.snapshot().ruleBase(type.name());
        List<Table> tables = tablesOf(type, ruleBase);
        return tables.stream().filter(t -> t.name().equals(name)).findFirst()
                .orElseThrow(() -> new DecisionException(DecisionException.Code.NOT_FOUND, "policy type '" + typeName
                        + "' has no decision table named '" + name + "'; its tables: " + tables.stream().map(Table::name).toList(),
                        List.of()));
    }

    /** A table as a grid: its cells, notes, columns (with allowed values) and rows, with the rules it feeds. */
    public static Map<String, Object> view(Decisions decisions, Table table) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("type", table.type().name());
        view.put("name", table.name());
        view.put("file", table.display());
        view.put("revision", table.revision());
        view.putAll(TableGrid.view(table.ruleFile().name(), table.ruleFile().content()));
        view.put("rules", decisions.snapshot().ruleBase(table.type().name()).listing().stream()
                .filter(rule -> table.display().equals(rule.file()))
                .map(rule -> new FedRule(rule.rule(), rule.row())).toList());
        return view;
    }

    /** A rule a table feeds: the row it stands for. */
    record FedRule(String rule, Integer row) {
    }

    /** A candidate: the table's new content, and the live snapshot with it (checked as a reload checks it). */
    public record Candidate(Table table, byte[] content, Snapshot snapshot, List<Finding> warnings) {
    }

    /**
     * The body of a PUT (CSV, or JSON {@code {"cells": [[...], ...]}}) as the table's new content; a body that cannot
     * be a table is a located 400.
     */
    public static byte[] content(byte[] body, String contentType) {
        String type = contentType == null ? "" : contentType.toLowerCase(java.util.Locale.ROOT);
        if (type.startsWith("text/csv")) {
            List<Problem> problems = TableGrid.shapeProblems(body);
            if (!problems.isEmpty()) {
                throw new DecisionException(DecisionException.Code.INVALID_REQUEST, "the table cannot be read: "
                        + problems.get(0).path() + ": " + problems.get(0).problem(), problems);
            }
            return body;
        }
        if (type.startsWith("application/json") || type.isEmpty()) {
            return TableGrid.toCsv(cells(body));
        }
        throw new DecisionException(DecisionException.Code.INVALID_REQUEST, "a decision table is sent as text/csv, or"
                + " as application/json {\"cells\": [[...]]}, not " + contentType, List.of(Problem.at("Content-Type",
                "text/csv or application/json")));
    }

    private static List<List<String>> cells(byte[] body) {
        JsonNode node;
        try {
            node = Documents.jsonMapper().readTree(body);
        } catch (IOException e) {
            throw new DecisionException(DecisionException.Code.INVALID_REQUEST, "the body is not JSON: send {\"cells\": "
                    + "[[...], ...]} or the table as text/csv", List.of(Problem.at("$", "not JSON")));
        }
        JsonNode cells = node == null ? null : node.get("cells");
        if (cells == null || !cells.isArray()) {
            throw new DecisionException(DecisionException.Code.INVALID_REQUEST, "the body has no cells: send {\"cells\": "
                    + "[[...], ...]}, one array of strings per row", List.of(Problem.at("$.cells", "an array of rows")));
        }
        if (cells.size() > TableGrid.MAX_ROWS) {
            throw new DecisionException(DecisionException.Code.INVALID_REQUEST, "the table has " + cells.size()
                    + " rows; at most " + TableGrid.MAX_ROWS, List.of(new Problem("row " + (TableGrid.MAX_ROWS + 1),
                    "too many rows", TableGrid.MAX_ROWS + 1, null)));
        }
        List<List<String>> rows = new ArrayList<>();
        for (int r = 0; r < cells.size(); r++) {
            JsonNode row = cells.get(r);
            if (!row.isArray()) {
                throw new DecisionException(DecisionException.Code.INVALID_REQUEST, "row " + (r + 1) + " is not an array"
                        + " of cells", List.of(new Problem("$.cells[" + r + "]", "an array of strings", r + 1, null)));
            }
            List<String> values = new ArrayList<>();
            for (int c = 0; c < row.size() && c <= TableGrid.MAX_COLUMNS; c++) {
                JsonNode cell = row.get(c);
                if (!cell.isTextual() && !cell.isNull()) {
                    throw new DecisionException(DecisionException.Code.INVALID_REQUEST, "row " + (r + 1) + ", column "
                            + (c + 1) + " is not a string", List.of(new Problem("row " + (r + 1) + ", column " + (c + 1),
                            "a string", r + 1, c + 1)));
                }
                values.add(cell.isNull() ? "" : cell.asText());
            }
            rows.add(values);
        }
        List<Problem> problems = TableGrid.gridProblems(rows);
        if (!problems.isEmpty()) {
            throw new DecisionException(DecisionException.Code.INVALID_REQUEST, "the table cannot be written: "
                    + problems.get(0).path() + ": " + problems.get(0).problem(), problems);
        }
        return rows;
    }

    /** {@code table} with {@code content}: linted, compiled and checked, or refused with located problems (422). */
    public static Candidate candidate(Decisions decisions, Table table, byte[] content) {
        Map<String, byte[]> replaced = Map.of(table.folder() + "/" + table.file(), content);
        Checked checked = check(decisions, decisions.snapshot(), replaced, Map.of(), table.display());
        return new Candidate(table, content, checked.snapshot(), checked.warnings());
    }

    /**
     * Every problem of a candidate table, located at row and cell, without applying it (the browser's lint as you
     * type): {@code valid} is false when a PUT would refuse it; warnings are listed too.
     */
    public static Validation validate(Decisions decisions, Table table, byte[] body, String contentType) {
        List<TableProblem> problems = new ArrayList<>();
        boolean valid = true;
        try {
            Candidate candidate = candidate(decisions, table, content(body, contentType));
            // what the live table already has (the backend table's BUILTIN left to the default) is not the edit's
            Set<String> live = new LinkedHashSet<>();
            TableLint.rowFindings(List.of(table.ruleFile())).forEach(f -> live.add(f.code() + " " + f.problem()));
            for (Finding warning : candidate.warnings()) {
                if ((warning.file() == null || warning.file().endsWith(table.folder() + "/" + table.file()))
                        && !live.contains(warning.code() + " " + warning.problem())) {
                    problems.add(new TableProblem("warning", warning.path(), warning.line(), warning.column(), warning.problem()));
                }
            }
        } catch (DecisionException e) {
            if (e.code() != DecisionException.Code.INVALID_POLICY && e.code() != DecisionException.Code.INVALID_REQUEST) {
                throw e;
            }
            valid = false;
            for (Problem problem : e.problems()) {
                problems.add(new TableProblem("error", problem.path(), problem.line(), problem.column(), problem.problem()));
            }
            if (problems.isEmpty()) {
                problems.add(new TableProblem("error", "$", null, null, e.getMessage()));
            }
        }
        return new Validation(valid, problems);
    }

    /** A candidate table's problems; {@code valid} is false when a PUT would refuse it. */
    public record Validation(boolean valid, List<TableProblem> problems) {
    }

    /** A problem of a candidate table, at a row and column of its grid where it has one. */
    record TableProblem(String severity, String path, Integer row, Integer column, String problem) {
    }

    /** A snapshot checked with the warnings lint still has for it. */
    public record Checked(Snapshot snapshot, List<Finding> warnings) {
    }

    /**
     * {@code base} with files replaced or added, each {@code <folder>/<file>}: tables in {@code tables}, DRL in
     * {@code rules}. Every policy type reading a changed folder gets a rule base of its own again, after lint: an
     * error, or a value of an enumerated column no row decides, refuses the candidate (422, located at row and cell).
     */
    public static Checked check(Decisions decisions, Snapshot base, Map<String, byte[]> tables, Map<String, byte[]> rules,
                                String what) {
        Set<String> folders = new LinkedHashSet<>();
        tables.keySet().forEach(name -> folders.add(name.substring(0, name.indexOf('/'))));
        rules.keySet().forEach(name -> folders.add(name.substring(0, name.indexOf('/'))));
        Map<String, CompiledRuleBase> ruleBases = new LinkedHashMap<>(base.ruleBases());
        List<Finding> warnings = new ArrayList<>();
        Set<String> placed = new LinkedHashSet<>();
        for (PolicyType type : decisions.registry().types()) {
            if (type.ruleSet().folders().stream().noneMatch(folders::contains) || !ruleBases.containsKey(type.name())) {
                continue;
            }
            List<RuleBaseBuilder.RuleFile> files = new ArrayList<>();
            Set<String> seen = new LinkedHashSet<>();
            for (RuleBaseBuilder.RuleFile file : ruleBases.get(type.name()).files()) {
                Map<String, byte[]> changes = file.type() == ResourceType.DTABLE ? tables : rules;
                byte[] content = changes.get(file.name());
                files.add(content == null ? file : new RuleBaseBuilder.RuleFile(file.name(), content, file.type()));
                seen.add(file.name());
            }
            for (Map.Entry<String, byte[]> added : rules.entrySet()) {
                if (!seen.contains(added.getKey()) && type.ruleSet().folders().contains(folderOf(added.getKey()))) {
                    files.add(new RuleBaseBuilder.RuleFile(added.getKey(), added.getValue(), ResourceType.DRL));
                    seen.add(added.getKey());
                }
            }
            placed.addAll(seen);
            // a value no row decides that the live tables leave undecided too is by design (backend BUILTIN): only a
            // value the edit leaves undecided refuses it
            Set<String> undecidedBefore = new LinkedHashSet<>();
            TableLint.rowFindings(ruleBases.get(type.name()).files()).stream().filter(f -> UNCOVERED.equals(f.code()))
                    .forEach(f -> undecidedBefore.add(f.file() + " " + f.problem()));
            List<Finding> findings = TableLint.lintFiles(type, files, null).stream().distinct().toList();
            List<Finding> refusing = findings.stream().filter(f -> f.isError() || UNCOVERED.equals(f.code())
                    && !undecidedBefore.contains(f.file() + " " + f.problem())).toList();
            if (!refusing.isEmpty()) {
                throw refused(what, type, refusing);
            }
            warnings.addAll(findings);
            try {
                ruleBases.put(type.name(), type.buildRuleBase(files));
            } catch (RuleBaseException e) {
                throw new DecisionException(DecisionException.Code.INVALID_POLICY, what + " is refused: " + e.getMessage(),
                        List.of(Problem.at("$", e.getMessage())));
            }
        }
        for (String name : tables.keySet()) {
            if (!placed.contains(name)) {
                throw new DecisionException(DecisionException.Code.NOT_FOUND, "no policy type has the decision table "
                        + name, List.of(Problem.at(name, "no such table")));
            }
        }
        for (String name : rules.keySet()) {
            if (!placed.contains(name)) {
                throw new DecisionException(DecisionException.Code.INVALID_REQUEST, "no policy type reads the rule folder"
                        + " of " + name, List.of(Problem.at(name, "no such rule folder")));
            }
        }
        Snapshot candidate = new Snapshot(base.policy(), ruleBases, base.catalog(), base.typeInstances(),
                base.platformTypeInstances(), base.policyOrder());
        return new Checked(candidate, warnings.stream().distinct().toList());
    }

    private static String folderOf(String name) {
        return name.substring(0, name.indexOf('/'));
    }

    private static DecisionException refused(String what, PolicyType type, List<Finding> findings) {
        List<Problem> problems = findings.stream().map(f -> new Problem(
                (f.file() == null ? "" : f.file() + ": ") + f.path(), f.problem(), f.line(), f.column())).toList();
        boolean undecided = findings.stream().anyMatch(f -> UNCOVERED.equals(f.code()));
        Finding first = findings.get(0);
        return new DecisionException(DecisionException.Code.INVALID_POLICY, what + " is refused for policy type '"
                + type.name() + "'" + (undecided ? ", it leaves a decision undecided" : "") + ": "
                + (first.file() == null ? "" : first.file() + " ") + first.path() + ": " + first.problem(), problems);
    }

    /**
     * Replaces {@code table} through the live source once {@code ifMatch} matches its revision and the candidate passes
     * the checks: answers the new revision and the source's note. Serialised, so the revision checked is the one
     * replaced.
     */
    public static synchronized Replaced replace(Decisions decisions, Table asked, byte[] content,
                                                Optional<RevisionMatch> ifMatch) {
        Table table = find(decisions, asked.type().name(), asked.name());
        if (ifMatch.isPresent() && !ifMatch.get().matches(table.revision())) {
            throw new Decisions.StaleRevisionException("the decision table changed: If-Match names "
                    + (ifMatch.get().revisions().isEmpty() ? "no strong entity tag" : ifMatch.get()) + " but the live"
                    + " revision of " + table.display() + " is " + table.revision() + "; GET it again");
        }
        Candidate candidate = candidate(decisions, table, content);
        String note = decisions.tableSource().write(table.folder(), table.file(), content, table.revision(),
                table.type().name(), candidate.snapshot());
        return new Replaced(TableSource.revisionOf(content), decisions.snapshot().revision(), note, candidate.warnings());
    }

    public record Replaced(String revision, String snapshotRevision, String note, List<Finding> warnings) {
    }

    /** A table's CSV text, for {@code Accept: text/csv}. */
    public static String csv(Table table) {
        return new String(table.ruleFile().content(), StandardCharsets.UTF_8);
    }
}
