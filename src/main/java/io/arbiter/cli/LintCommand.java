package io.arbiter.cli;

import io.arbiter.decision.Decisions;
import io.arbiter.decision.SnapshotLoader;
import io.arbiter.policytype.PolicyTypeRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code arbiter lint FILE}: every problem of a policy with its location, as {@code POST /v1/policy/validate} reports
 * them, and what a decision with this policy as the global policy would reject against the catalog ({@code --hub}).
 */
@Command(name = "lint", mixinStandardHelpOptions = true,
        description = {"Check a policy and print every problem with its location (path, line, column), never just the first.",
                "The policy is also applied, as the global policy, to a decision for each catalog Interface its rules can"
                        + " apply to (--hub): what those decisions reject (e.g. additional parameters that fail the"
                        + " Implementation's schema) is a problem.",
                "Warnings (deprecated syntax, ids the TypeInstance store cannot resolve) do not fail the check.",
                "Exit status: 0 valid, 1 invalid, 2 usage error."})
final class LintCommand implements Callable<Integer> {

    private final PolicyTypeRegistry registry;

    @Parameters(paramLabel = "FILE", description = "The policy to check (YAML or JSON).")
    Path file;

    @Mixin
    SnapshotOptions snapshot;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    LintCommand(PolicyTypeRegistry registry) {
        this.registry = registry;
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (!Files.isRegularFile(file)) {
            spec.commandLine().getErr().println("arbiter lint: " + file + " is not a file");
            return 2;
        }
        Decisions decisions = new Decisions(registry, SnapshotLoader.load(snapshot.settings(), registry));
        Decisions.Validation validation = decisions.lintPolicy(Files.readAllBytes(file), "application/yaml");
        validation.problems().forEach(problem -> out.println(file + ": error: " + problem));
        validation.warnings().forEach(warning -> out.println(file + ": warning: " + warning));
        out.println(validation.valid() ? file + ": valid" : file + ": " + validation.problems().size() + " problem(s)");
        return validation.valid() ? 0 : 1;
    }
}
