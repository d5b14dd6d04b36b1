package io.arbiter.suite;

import io.arbiter.document.DocumentException;
import io.arbiter.document.Problem;

import java.nio.file.Path;
import java.util.List;

/** A suite file that cannot be run: every problem found in it, located by path, line and column. */
public final class SuiteException extends DocumentException {

    private final Path file;

    public SuiteException(Path file, List<Problem> problems) {
        super("test suite " + file + ": " + problems.get(0), problems);
        this.file = file;
    }

    public Path file() {
        return file;
    }

    /** One line per problem: {@code FILE:LINE:COLUMN: PATH: problem}, as compilers and editors read them. */
    public List<String> lines() {
        return problems().stream().map(problem -> file + (problem.line() == null ? "" : ":" + problem.line() + ":"
                + problem.column()) + ": " + problem.path() + ": " + problem.problem()).toList();
    }
}
