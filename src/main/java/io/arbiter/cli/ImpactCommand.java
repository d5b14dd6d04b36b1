package io.arbiter.cli;

import io.arbiter.audit.DecisionLogReader;
import io.arbiter.decision.Settings;
import io.arbiter.decision.Snapshot;
import io.arbiter.impact.ImpactAnalysis;
import io.arbiter.impact.ImpactReport;
import io.arbiter.impact.ImpactText;
import io.arbiter.impact.Probe;
import io.arbiter.impact.Probes;
import io.arbiter.runtime.Decisions;
import io.arbiter.runtime.SnapshotLoader;
import io.arbiter.suite.TestCase;
import io.arbiter.suite.TestSuites;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code arbiter impact}: what a candidate policy, rules or decision tables would decide differently from the
 * baseline (the snapshot options, as {@code serve} takes them), over a sweep of the catalog, replayed decision logs
 * and test suites.
 */
@Command(name = "impact", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Compare the decisions of a candidate (--candidate-policy, and/or --candidate-rules with"
                + " --candidate-decision-tables) with those of the baseline (the snapshot options, as serve takes"
                + " them; the embedded default when absent), before it goes live.",
                "",
                "Decided under both: every Interface revision and every Type revision of the catalog (--sweep, the"
                        + " default when nothing else is named), the requests of logged decisions of every kind"
                        + " (--replay), the tests of test suites (--tests). For each request decided differently it"
                        + " shows the fields before and after (outcome, selected Implementation, injections, backends,"
                        + " template states, rollout lists) and the rules or decision-table rows that fired only"
                        + " before or only after. A request decided alike by other rules is listed as refired; requests"
                        + " of a kind that reads nothing the candidate changed are counted as unaffected without being"
                        + " decided (rollouts do not read the global policy).",
                "",
                "Exit status: 0 compared (1 with --fail-on-change when anything changed or a test fails), 2 usage or configuration"
                        + " error (nothing was compared).",
                ""},
        footer = {"", "Examples:",
                "  arbiter impact --candidate-policy new-policy.yaml",
                "  arbiter impact --policy live.yaml --candidate-policy new.yaml --replay decisions.log* --format json",
                "  arbiter impact --candidate-rules my/rules --candidate-decision-tables my/decision-tables --sweep --fail-on-change"})
final class ImpactCommand extends ArbiterCommand {

    @Mixin
    SnapshotOptions baseline;

    @Option(names = "--candidate-policy", paramLabel = "FILE", description = "The candidate global policy (default: the baseline's).")
    Path candidatePolicy;

    @Option(names = "--candidate-rules", paramLabel = "DIR",
            description = "The candidate's DRL, DIR/<kind>/ as for --rules (needs --candidate-decision-tables).")
    Path candidateRules;

    @Option(names = "--candidate-decision-tables", paramLabel = "DIR",
            description = "The candidate's decision tables, DIR/<kind>/ as for --decision-tables (needs --candidate-rules).")
    Path candidateTables;

    @Option(names = "--sweep", description = "Decide every Interface and every Type revision of the catalog (the default"
            + " when neither --replay nor --tests is given).")
    boolean sweep;

    @Option(names = "--replay", paramLabel = "LOG", arity = "1..*",
            description = "Decision-log files (serve --decision-log) whose requests are decided again; name every file of a rotated log.")
    List<Path> replay = new ArrayList<>();

    @Option(names = "--tests", paramLabel = "PATH", arity = "1..*",
            description = "Test suites (files or folders, as arbiter test takes them): each test is run under both; a test"
                    + " the candidate breaks is listed first.")
    List<Path> tests = new ArrayList<>();

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "text (default) or json ({\"decisions\", \"changed\", \"byKind\", \"changes\", ...}).")
    Format format;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "100",
            description = "Changes listed at most, those standing for most decisions first (default: ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--fail-on-change", description = "Exit 1 when any decision changed or a test fails under the candidate,"
            + " for gating a change in CI.")
    boolean failOnChange;

    @Option(names = "--progress", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Show progress on the terminal while deciding (default: on when standard error is a terminal).")
    boolean progress;

    enum Format { text, json }

    @Override
    public Integer call() throws IOException {
        if (candidatePolicy == null && candidateRules == null && candidateTables == null) {
            throw console.usage("name a candidate: --candidate-policy FILE and/or --candidate-rules DIR --candidate-decision-tables DIR");
        }
        if ((candidateRules == null) != (candidateTables == null)) {
            throw console.usage("--candidate-rules and --candidate-decision-tables go together: give both or neither");
        }
        if (limit < 0) {
            throw console.usage("--limit must be 0 or more, not " + limit);
        }
        for (Path log : replay) {
            if (!Files.isRegularFile(log)) {
                throw console.usage("--replay " + log + " is not a file");
            }
        }
        PrintWriter out = console.out();
        PrintWriter err = console.err();
        Settings baseSettings = baseline.settings();
        Settings candidateSettings = baseSettings.withPolicyFile(candidatePolicy != null ? candidatePolicy : baseSettings.policyFile());
        if (candidateRules != null) {
            candidateSettings = candidateSettings.withRules(candidateRules, candidateTables);
        }
        Snapshot before = SnapshotLoader.load(baseSettings, registry());
        Snapshot after = SnapshotLoader.withCandidate(candidateSettings, registry(), before);

        List<Probe> probes = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        List<TestCase> testCases = tests.isEmpty() ? List.of() : TestSuites.load(tests, registry());
        if (sweep || (replay.isEmpty() && tests.isEmpty())) {
            probes.addAll(Probes.sweep(before.catalog(), after.catalog()));
        }
        if (!replay.isEmpty()) {
            new DecisionLogReader(replay, unreadable -> skipped.add(unreadable.toString())).forEach(record ->
                    Probes.replay(record, "decision " + record.path("decisionId").asText("?"), probes, skipped));
        }
        ImpactAnalysis.Progress shown = progress && System.console() != null && format == Format.text
                ? new ProgressBar(err) : ImpactAnalysis.Progress.NONE;
        ImpactReport report = ImpactAnalysis.run(new Decisions(registry(), before), new Decisions(registry(), after),
                probes, testCases, skipped, limit, null, shown);
        if (shown instanceof ProgressBar bar) {
            bar.finish();
        }
        if (format == Format.json) {
            console.printJson(report);
        } else {
            ImpactText.print(report, out);
        }
        out.flush();
        boolean testFails = report.tests() != null && report.tests().passedAfter() < report.tests().tests();
        return failOnChange && (report.changed() > 0 || testFails) ? 1 : 0;
    }

    /** A one-line bar redrawn in place on the terminal, at most every 1% of the way. */
    private static final class ProgressBar implements ImpactAnalysis.Progress {
        private final PrintWriter err;
        private int shownPercent = -1;

        ProgressBar(PrintWriter err) {
            this.err = err;
        }

        @Override
        public synchronized void decided(int done, int total) {
            int percent = total == 0 ? 100 : (int) (100L * done / total);
            if (percent != shownPercent) {
                shownPercent = percent;
                int width = 40;
                int filled = percent * width / 100;
                err.printf("\r[%s%s] %3d%%  %,d/%,d requests", "=".repeat(filled), " ".repeat(width - filled), percent, done, total);
                err.flush();
            }
        }

        void finish() {
            err.print("\r" + " ".repeat(80) + "\r");
            err.flush();
        }
    }
}
