package io.arbiter.analysis;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.arbiter.document.Problem;

import java.util.Comparator;

/**
 * One located finding of lint: an error (a decision would fail, or the file cannot be used) or a warning (it can be
 * used, but part of it does nothing or is likely a mistake). {@code code} names the check, for suppression and
 * code-review tools. Documents are located by JSON path, line and column; decision tables by file, 1-based row and
 * 1-based column (then {@code path} is {@code row R, column C} and {@code line} is the row).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Finding(Severity severity, String code, String file, String path, Integer line, Integer column,
                      String problem) {

    public enum Severity {
        ERROR, WARNING;

        @com.fasterxml.jackson.annotation.JsonValue
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public static final Comparator<Finding> ORDER = Comparator
            .comparing((Finding f) -> f.file == null ? "" : f.file)
            .thenComparing(f -> f.line == null ? 0 : f.line)
            .thenComparing(f -> f.column == null ? 0 : f.column)
            .thenComparing(Finding::path)
            .thenComparing(Finding::severity)
            .thenComparing(Finding::problem);

    public static Finding error(String code, Problem problem) {
        return of(Severity.ERROR, code, problem);
    }

    public static Finding warning(String code, Problem problem) {
        return of(Severity.WARNING, code, problem);
    }

    private static Finding of(Severity severity, String code, Problem problem) {
        return new Finding(severity, code, null, problem.path(), problem.line(), problem.column(), problem.problem());
    }

    /** A finding in a decision table: row and column are 1-based, as a spreadsheet numbers them. */
    public static Finding inTable(Severity severity, String code, String file, int row, Integer column, String problem) {
        return new Finding(severity, code, file, column == null ? "row " + row : "row " + row + ", column " + column,
                row, column, problem);
    }

    public Finding inFile(String name) {
        return new Finding(severity, code, name, path, line, column, problem);
    }

    @JsonIgnore
    public boolean isError() {
        return severity == Severity.ERROR;
    }

    /** The contract's problem shape: {@code path}, {@code problem}, {@code line}, {@code column}. */
    public Problem asProblem() {
        return new Problem(path, problem, line, column);
    }
}
