package io.arbiter.analysis;

import io.arbiter.decision.Settings;
import io.arbiter.engine.RuleBaseException;
import io.arbiter.policytype.PolicyTypeRegistry;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Rules that do not compile, reported the way {@code arbiter lint --rules DIR --decision-tables DIR} reports them
 * (issue 45): each error at its file, row and column, with the line and a caret, and for a table cell the values it
 * allows. Every path that compiles rules (serve, test, a {@code --watch} reload) reports through this, instead of the
 * compiler's message, which names an internal build path and often "line -1".
 */
public final class CompileProblems {

    private CompileProblems() {
    }

    /** The rule base that did not compile in {@code failure} or what caused it, or null. */
    private static RuleBaseException compileFailure(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof RuleBaseException rules && rules.getMessage() != null
                    && rules.getMessage().contains("does not compile")) {
                return rules;
            }
        }
        return null;
    }

    /** Whether {@code failure}, or what caused it, is rules that do not compile. */
    public static boolean isCompileFailure(Throwable failure) {
        return compileFailure(failure) != null;
    }

    /**
     * {@code failure} told as lint tells the errors it finds in the rules and tables {@code settings} name, under the
     * failure's first line; empty when the failure is no compile error, when the rules are the packaged ones, or when
     * lint finds no error (the failure's own message then says it best).
     */
    public static Optional<String> located(Throwable failure, PolicyTypeRegistry registry, Settings settings) {
        RuleBaseException compile = compileFailure(failure);
        if (compile == null || (settings.rulesDir() == null && settings.tablesDir() == null)) {
            return Optional.empty();
        }
        List<Finding> errors = TableLint.lint(registry, settings.rulesDir(), settings.tablesDir(), null).stream()
                .filter(Finding::isError).toList();
        if (errors.isEmpty()) {
            return Optional.empty();
        }
        String head = compile.getMessage().lines().findFirst().orElse("").replaceAll(":$", "");
        return Optional.of(head + " (as arbiter lint --rules " + settings.rulesDir() + " --decision-tables "
                + settings.tablesDir() + " reports it):\n" + LintOutput.text(errors, CompileProblems::lines).stripTrailing());
    }

    private static List<String> lines(String name) {
        try {
            Path path = Path.of(name);
            return Files.isRegularFile(path)
                    ? List.of(new String(Files.readAllBytes(path), StandardCharsets.UTF_8).split("\r?\n", -1)) : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
