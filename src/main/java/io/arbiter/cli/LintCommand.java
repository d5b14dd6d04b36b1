package io.arbiter.cli;

import io.arbiter.analysis.DependencyLint;
import io.arbiter.analysis.Finding;
import io.arbiter.analysis.LintOutput;
import io.arbiter.analysis.PolicyLint;
import io.arbiter.analysis.TableLint;
import io.arbiter.runtime.Decisions;
import io.arbiter.decision.Settings;
import io.arbiter.decision.Snapshot;
import io.arbiter.runtime.SnapshotLoader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code arbiter lint [FILE] [--rules DIR --decision-tables DIR]}: every problem of a policy and of rule files, errors
 * and warnings together, each located, as {@code POST /v1/policy/validate} reports them for a policy.
 */
@Command(name = "lint", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Check a policy (FILE) against a catalog and TypeInstance store, and/or the rules and decision tables"
                + " (--rules DIR --decision-tables DIR), and print every problem with its location: errors and warnings"
                + " together, never just the first.",
                "",
                "A policy is checked as its syntax requires, then by running decisions with the service's own rules for"
                        + " every catalog Interface its rules name: what a decision would refuse (e.g. additional"
                        + " parameters that fail the Implementation's schema) is an error; rules that never apply or are"
                        + " shadowed, oneOf items that no Implementation satisfies or that can never win, injections"
                        + " nothing takes and ids the store cannot resolve are warnings.",
                "Dependency policies are checked by the dependencies decision: cycles are errors, dependencies on a"
                        + " Policy or PolicySet the document does not hold are warnings.",
                "Decision tables are compiled as the service compiles them (errors at file, row and column) and their"
                        + " rows checked: duplicate, masked or overlapping rows, a rank given twice, enum values no row"
                        + " covers, and with --fired FILE rows that no scenario fired. Rules that compile are also"
                        + " checked as start-up checks them (e.g. a rollout situation for every cluster).",
                "",
                "Exit status: 0 no errors (warnings allowed, unless --strict), 1 errors found (or warnings with --strict),"
                        + " 2 usage or configuration error (nothing was checked).",
                ""},
        footer = {"", "Examples:",
                "  arbiter lint policy.yaml",
                "  arbiter lint action.yaml --as action --policy global.yaml --hub hub/",
                "  arbiter lint --rules rules --decision-tables decision-tables",
                "  arbiter lint policy.yaml --format sarif > lint.sarif"})
final class LintCommand extends ArbiterCommand {

    @Parameters(paramLabel = "FILE", arity = "0..1", description = "The policy to check (YAML or JSON): an implementation"
            + " policy, or dependency policies (a document with a top-level policies list, as a dependencies request has).")
    Path file;

    @Option(names = "--as", paramLabel = "ROLE", defaultValue = "global",
            description = "Where FILE is used: global (default), action or workflow. An action or workflow policy is"
                    + " checked merged with the global policy (--policy), as a request merges it.")
    String role;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "text (default: grouped by file, with the offending line), json"
                    + " ({\"valid\", \"problems\": [{\"severity\", \"code\", \"path\", \"line\", \"column\", \"problem\"}]})"
                    + " or sarif (SARIF 2.1.0).")
    LintOutput.Format format;

    @Option(names = "--strict", description = "Warnings fail the check too (exit 1).")
    boolean strict;

    @Option(names = "--fired", paramLabel = "FILE",
            description = "Names of the rules a scenario suite fired, one per line (the scenario tests write"
                    + " target/fired-rules.txt): table rows whose rule is not listed are reported as never fired.")
    Path fired;

    @Mixin
    SnapshotOptions snapshot;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = console.out();
        Settings settings = snapshot.settings();
        boolean tables = settings.rulesDir() != null;
        if (file == null && !tables) {
            console.error("give a policy FILE, or --rules DIR --decision-tables DIR, or both (see --help)");
            return 2;
        }
        if (file != null && !Files.isRegularFile(file)) {
            console.error(file + " is not a file");
            return 2;
        }
        if (fired != null && !Files.isRegularFile(fired)) {
            console.error("--fired " + fired + " is not a file");
            return 2;
        }
        PolicyLint.Role as = PolicyLint.Role.parse(role);
        List<Finding> findings = new ArrayList<>();
        if (tables) {
            java.util.Set<String> firedRules = fired == null ? null : java.util.Set.copyOf(Files.readAllLines(fired).stream()
                    .map(String::trim).filter(line -> !line.isEmpty()).toList());
            findings.addAll(TableLint.lint(registry(), settings.rulesDir(), settings.tablesDir(), firedRules));
        }
        if (file != null) {
            // rules that do not compile cannot decide: the policy is then checked with the packaged ones
            Settings used = findings.stream().anyMatch(Finding::isError) ? settings.withRules(null, null) : settings;
            Snapshot loaded = SnapshotLoader.load(used, registry());
            byte[] body = Files.readAllBytes(file);
            (DependencyLint.isDependencyPolicies(body, "application/yaml")
                    ? DependencyLint.lint(body, "application/yaml", new Decisions(registry(), loaded))
                    : PolicyLint.lint(body, "application/yaml", as, loaded, registry(), java.time.Duration.ofMinutes(10)))
                    .forEach(finding -> findings.add(finding.inFile(file.toString())));
        }
        switch (format) {
            case JSON -> console.printJson(LintOutput.json(findings));
            case SARIF -> console.printJson(LintOutput.sarif(findings));
            case TEXT -> out.print(LintOutput.text(findings, LintCommand::lines));
        }
        out.flush();
        boolean errors = findings.stream().anyMatch(Finding::isError);
        return errors || (strict && !findings.isEmpty()) ? 1 : 0;
    }

    private static List<String> lines(String name) {
        try {
            Path path = Path.of(name);
            return Files.isRegularFile(path) ? List.of(new String(Files.readAllBytes(path), StandardCharsets.UTF_8).split("\r?\n", -1)) : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
