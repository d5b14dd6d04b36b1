package io.arbiter.analysis;

import io.arbiter.analysis.DecisionTable.Row;
import io.arbiter.analysis.DecisionTable.Table;
import io.arbiter.analysis.Finding.Severity;
import io.arbiter.runtime.SnapshotLoader;
import io.arbiter.engine.RuleBaseBuilder;
import io.arbiter.engine.RuleBaseException;
import io.arbiter.policytype.PolicyType;
import io.arbiter.policytype.PolicyTypeRegistry;
import org.kie.api.io.ResourceType;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Lint of the rules and decision tables of every policy type ({@code arbiter lint --rules DIR --decision-tables DIR}):
 * compile errors located at the table's row and column, duplicate and masked rows, ranks given twice, enum values no
 * row covers, and (with the names of the rules a scenario suite fired) rows that never fire. Files are named
 * {@code <tables or rules folder>/<kind>/<file>}.
 */
public final class TableLint {

    private static final Pattern ENUM_PARAM = Pattern.compile("([A-Z][A-Za-z0-9_]*)\\.\\$param");
    /** How a CSV table marks a cell merged with its neighbours (Drools' CsvParser). */
    private static final String MERGED = "...";
    private static final Pattern RANK_HEADER = Pattern.compile("(?i).*\\b(precedence|rank|priority)\\b.*");

    private TableLint() {
    }

    public static List<Finding> lint(PolicyTypeRegistry registry, Path rulesRoot, Path tablesRoot, Set<String> firedRules) {
        List<Finding> findings = new ArrayList<>();
        for (PolicyType type : registry.types()) {
            List<RuleBaseBuilder.RuleFile> files;
            try {
                files = SnapshotLoader.ruleFiles(type, rulesRoot, tablesRoot);
            } catch (RuleBaseException e) {
                findings.add(new Finding(Severity.ERROR, "rule-files", "policy type " + type.name(), "$", null, null,
                        e.getMessage()));
                continue;
            }
            findings.addAll(lintFiles(type, files, firedRules));
        }
        return findings.stream().map(f -> f.file() == null ? f : f.inFile(display(f.file(), rulesRoot, tablesRoot)))
                .distinct().sorted(Finding.ORDER).toList();
    }

    /**
     * Lint of one policy type's rule files as given (a candidate table edited over HTTP, say): the row checks, the
     * compile errors located at row and cell, and the type's own rule-base checks. Files keep their
     * {@code <folder>/<file>} names.
     */
    public static List<Finding> lintFiles(PolicyType type, List<RuleBaseBuilder.RuleFile> files, Set<String> firedRules) {
        List<Finding> findings = new ArrayList<>();
        Map<String, DecisionTable> tables = csvTables(files);
        tables.values().forEach(table -> findings.addAll(rowChecks(table, firedRules)));
        RuleBaseBuilder.Check check = RuleBaseBuilder.check(type.name(), files);
        List<Finding> compileErrors = compileErrors(check, type, tables);
        findings.addAll(compileErrors);
        if (compileErrors.isEmpty()) {
            findings.addAll(ruleBaseChecks(type, files, check));
        }
        return findings;
    }

    /** The checks of the rows of each CSV table of {@code files}, without compiling (cheap: for a baseline). */
    public static List<Finding> rowFindings(List<RuleBaseBuilder.RuleFile> files) {
        return csvTables(files).values().stream().flatMap(table -> rowChecks(table, null).stream()).toList();
    }

    /** The CSV tables of {@code files}, by file name. */
    private static Map<String, DecisionTable> csvTables(List<RuleBaseBuilder.RuleFile> files) {
        Map<String, DecisionTable> tables = new LinkedHashMap<>();
        files.stream().filter(file -> file.type() == ResourceType.DTABLE && file.name().endsWith(".csv"))
                .forEach(file -> tables.put(file.name(), DecisionTable.parse(file.name(), file.content())));
        return tables;
    }

    /** The constants an enumerated condition column ({@code x == Enum.$param}) allows, or null for a free column. */
    static List<String> allowedValues(DecisionTable file, Table table, int column) {
        Class<?> type = enumType(file, table, column);
        return type == null ? null : Arrays.stream(type.getEnumConstants()).map(constant -> ((Enum<?>) constant).name()).toList();
    }

    /** The enum of an enumerated condition column ({@code x == Enum.$param}), or null for a free column. */
    private static Class<?> enumType(DecisionTable file, Table table, int column) {
        Matcher matcher = ENUM_PARAM.matcher(table.code().cell(column));
        Class<?> type = matcher.find() ? resolve(file.imports(), matcher.group(1)) : null;
        return type != null && type.isEnum() ? type : null;
    }

    private static String display(String file, Path rulesRoot, Path tablesRoot) {
        if (file.endsWith(".drl")) {
            return rulesRoot == null ? "rules/" + file : rulesRoot.resolve(file).toString();
        }
        if (file.endsWith(".drl.csv") || file.endsWith(".drl.xlsx")) {
            return tablesRoot == null ? "decision-tables/" + file : tablesRoot.resolve(file).toString();
        }
        return file;
    }

    /** Checks of the rows themselves, without compiling. */
    static List<Finding> rowChecks(DecisionTable file, Set<String> firedRules) {
        List<Finding> findings = new ArrayList<>();
        for (Table table : file.tables()) {
            List<Integer> conditions = new ArrayList<>(table.columnsOf("CONDITION"));
            conditions.addAll(table.columnsOf("RULEFLOW-GROUP"));
            for (int a = 0; a < table.rows().size(); a++) {
                Row later = table.rows().get(a);
                for (int b = 0; b < a; b++) {
                    Row earlier = table.rows().get(b);
                    if (conditions.stream().allMatch(c -> earlier.cell(c).equals(later.cell(c)))) {
                        findings.add(Finding.inTable(Severity.ERROR, "duplicate-row", file.file(), later.number(), null,
                                "row " + later.number() + " has the same conditions as row " + earlier.number()
                                        + (file.sequential() ? ": it never fires (the table is Sequential)"
                                        : ": both fire for the same facts")));
                        break;
                    }
                    if (file.sequential() && conditions.stream().allMatch(c -> earlier.cell(c).isEmpty()
                            || earlier.cell(c).equals(later.cell(c)))) {
                        findings.add(Finding.inTable(Severity.WARNING, "masked-row", file.file(), later.number(), null,
                                "row " + later.number() + " is masked by row " + earlier.number() + ", which matches"
                                        + " everything it matches and comes first in this Sequential table"));
                        break;
                    }
                    if (!file.sequential() && conditions.stream().allMatch(c -> earlier.cell(c).isEmpty()
                            || later.cell(c).isEmpty() || earlier.cell(c).equals(later.cell(c)))) {
                        findings.add(Finding.inTable(Severity.WARNING, "overlapping-rows", file.file(), later.number(), null,
                                "row " + later.number() + " overlaps row " + earlier.number() + ": facts that match"
                                        + " both fire both, and the table is not Sequential"));
                        break;
                    }
                }
            }
            for (int c : table.columnsOf("ACTION")) {
                if (!RANK_HEADER.matcher(table.headers().cell(c)).matches()) {
                    continue;
                }
                Map<String, Row> seen = new LinkedHashMap<>();
                for (Row row : table.rows()) {
                    String value = row.cell(c);
                    Row first = seen.putIfAbsent(value, row);
                    if (first != null && !value.isEmpty()) {
                        findings.add(Finding.inTable(Severity.ERROR, "duplicate-precedence", file.file(), row.number(), c + 1,
                                "'" + table.headers().cell(c) + "' " + value + " is also row " + first.number()
                                        + "'s: the order between the two is undefined"));
                    }
                }
            }
            for (int c : table.columnsOf("CONDITION")) {
                enumColumn(file, table, c, findings);
            }
            repeatedPatterns(file, table, findings);
            if (firedRules != null) {
                List<Integer> names = table.columnsOf("NAME");
                for (Row row : table.rows()) {
                    String name = names.isEmpty() ? table.name().replace(' ', '_') + "_" + row.number() : row.cell(names.get(0));
                    if (!firedRules.contains(name)) {
                        findings.add(Finding.inTable(Severity.WARNING, "never-fired", file.file(), row.number(), null,
                                "rule '" + name + "' of row " + row.number() + " fired in no scenario of the suite"));
                    }
                }
            }
        }
        return findings;
    }

    /**
     * A condition {@code x == Enum.$param}: every cell must name a constant, and every constant should have a row
     * (a constant with none is a gap, e.g. a rule-key kind with no precedence: facts of that kind match no row). A
     * blank cell leaves the condition out, so its row covers every constant.
     */
    private static void enumColumn(DecisionTable file, Table table, int column, List<Finding> findings) {
        List<String> constants = allowedValues(file, table, column);
        if (constants == null) {
            return;
        }
        String type = enumType(file, table, column).getSimpleName();
        List<String> covered = new ArrayList<>();
        boolean blank = false;
        for (Row row : table.rows()) {
            String value = row.cell(column);
            if (value.isEmpty()) {
                blank = true;
                continue;
            }
            if (!constants.contains(value)) {
                findings.add(Finding.inTable(Severity.ERROR, "unknown-value", file.file(), row.number(), column + 1,
                        "'" + value + "' is not a " + type + "; one of " + constants));
            }
            covered.add(value);
        }
        for (String constant : constants) {
            if (!blank && !covered.contains(constant)) {
                findings.add(Finding.inTable(Severity.WARNING, "uncovered-value", file.file(), table.code().number(),
                        column + 1, "no row has " + type + "." + constant + " in '" + table.headers().cell(column)
                                + "': facts with it match no row of '" + table.name() + "'"));
            }
        }
    }

    /**
     * Condition columns side by side with the same object type each match a fact of their own unless their cells end
     * in {@code ...} (the CSV form of merged spreadsheet cells): {@code $p : Placement} twice is two Placements, any
     * two, not one Placement meeting both conditions.
     */
    private static void repeatedPatterns(DecisionTable file, Table table, List<Finding> findings) {
        List<Integer> conditions = table.columnsOf("CONDITION");
        for (int i = 1; i < conditions.size(); i++) {
            int previous = conditions.get(i - 1);
            int column = conditions.get(i);
            String type = table.objectTypes().cell(column);
            String before = table.objectTypes().cell(previous);
            boolean merged = type.endsWith(MERGED) && before.endsWith(MERGED);
            if (column == previous + 1 && !type.isEmpty() && !merged
                    && withoutMerge(type).equals(withoutMerge(before))) {
                findings.add(Finding.inTable(Severity.WARNING, "repeated-pattern", file.file(),
                        table.objectTypes().number(), column + 1, "'" + type + "' repeats the column before it: each"
                                + " column matches a fact of its own; end both cells in ... to constrain one fact"));
            }
        }
    }

    private static String withoutMerge(String objectType) {
        return objectType.endsWith(MERGED) ? objectType.substring(0, objectType.length() - MERGED.length()).trim() : objectType;
    }

    private static Class<?> resolve(List<String> imports, String simpleName) {
        for (String imported : imports) {
            List<String> candidates = imported.endsWith(".*")
                    ? List.of(imported.substring(0, imported.length() - 2) + "$" + simpleName,
                    imported.substring(0, imported.length() - 1) + simpleName)
                    : imported.endsWith("." + simpleName) ? List.of(imported) : List.of();
            for (String candidate : candidates) {
                try {
                    return Class.forName(candidate, false, TableLint.class.getClassLoader());
                } catch (ClassNotFoundException | LinkageError e) {
                    // not this import
                }
            }
        }
        return null;
    }

    /**
     * The errors of compiling the type's files as the service does ({@link RuleBaseBuilder#check}), with each CSV table
     * turned into its DRL first so that an error's line names a generated rule, and so the table row (and the cell
     * whose text the error names) it comes from.
     */
    private static List<Finding> compileErrors(RuleBaseBuilder.Check check, PolicyType type,
                                               Map<String, DecisionTable> tables) {
        List<Finding> findings = new ArrayList<>();
        for (RuleBaseBuilder.CompileError error : check.errors()) {
            if (error.tableSyntax()) {
                findings.add(new Finding(Severity.ERROR, "table-syntax", error.file(), "$", null, null, error.text()));
            } else if (error.file() == null) {
                findings.add(new Finding(Severity.ERROR, "compile", type.name(), "$", null, null, error.text()));
            } else if (check.generatedDrl().containsKey(error.file()) && tables.containsKey(error.file())) {
                findings.add(tableError(tables.get(error.file()), check.generatedDrl().get(error.file()), error.line(), error.text()));
            } else {
                findings.add(new Finding(Severity.ERROR, "compile", error.file(), "$", error.line() > 0 ? error.line() : null,
                        error.column() > 0 ? error.column() : null, error.text()));
            }
        }
        return findings;
    }

    /**
     * What start-up and reload check of rules that compile: every rule in a phase of its type, and the type's own
     * {@link PolicyType#checkRuleBase} (e.g. a situation for every cluster of a rollout).
     */
    private static List<Finding> ruleBaseChecks(PolicyType type, List<RuleBaseBuilder.RuleFile> files,
                                                RuleBaseBuilder.Check check) {
        try {
            type.checkRuleBase(RuleBaseBuilder.build(type.name(), files, type.ruleSet().phases(), check));
            return List.of();
        } catch (RuleBaseException e) {
            return List.of(new Finding(Severity.ERROR, "rule-base", "policy type " + type.name(), "$", null, null,
                    e.getMessage()));
        }
    }

    /** A compile error in a table's generated DRL, at the row of the rule around that line and the cell it names. */
    private static Finding tableError(DecisionTable table, String drl, int line, String text) {
        String[] lines = drl.split("\n", -1);
        String rule = null;
        for (int i = Math.min(line, lines.length) - 1; i >= 0 && line > 0; i--) {
            Matcher name = Pattern.compile("^\\s*rule\\s+\"(.*)\"").matcher(lines[i]);
            if (name.find()) {
                rule = name.group(1);
                break;
            }
        }
        String errorLine = line > 0 && line <= lines.length ? lines[line - 1] : "";
        for (Table t : table.tables()) {
            Row row = rule == null ? null : t.rowOfRule(rule);
            if (row == null && rule == null) {
                row = rowNamedIn(t, text + " " + errorLine);
            }
            if (row != null) {
                Integer column = null;
                for (int c = 0; c < row.cells().size(); c++) {
                    String cell = row.cell(c);
                    if (!cell.isEmpty() && !t.kind(c).equals("NAME") && !t.kind(c).equals("RULEFLOW-GROUP")
                            && (text.contains(cell) || errorLine.contains(cell))) {
                        column = c + 1;
                        if (text.contains(cell)) {
                            break;
                        }
                    }
                }
                return Finding.inTable(Severity.ERROR, "compile", table.file(), row.number(), column,
                        "rule '" + (rule == null ? row.cell(0) : rule) + "' does not compile: " + text);
            }
        }
        return new Finding(Severity.ERROR, "compile", table.file(), "$", null, null, "does not compile: " + text
                + (line > 0 ? " (generated rule line " + line + ")" : ""));
    }

    /**
     * The row the compiler's text names (its executable model reports some errors without a line): by the rule's
     * NAME, else by the longest cell value the text names as a word (a misspelt enum constant, say).
     */
    private static Row rowNamedIn(Table table, String text) {
        List<Integer> names = table.columnsOf("NAME");
        for (Row row : table.rows()) {
            if (!names.isEmpty() && !row.cell(names.get(0)).isEmpty() && text.contains("\"" + row.cell(names.get(0)) + "\"")) {
                return row;
            }
        }
        Row best = null;
        int longest = 1;
        for (Row row : table.rows()) {
            for (int c = 0; c < row.cells().size(); c++) {
                String cell = row.cell(c);
                if (cell.length() > longest && !table.kind(c).equals("NAME") && !table.kind(c).equals("RULEFLOW-GROUP")
                        && Pattern.compile("(?<![A-Za-z0-9_])" + Pattern.quote(cell) + "(?![A-Za-z0-9_])").matcher(text).find()) {
                    best = row;
                    longest = cell.length();
                }
            }
        }
        return best;
    }
}
