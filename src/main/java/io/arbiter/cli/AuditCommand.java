package io.arbiter.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.audit.DecisionLogReader;
import io.arbiter.document.Documents;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code arbiter audit FILE...}: what a decision log says, per Interface, or about one decision. */
@Command(name = "audit", mixinStandardHelpOptions = true,
        description = {"Summarise a decision log: per Interface (or decision target), outcome counts and the most fired rules.",
                "With --id, print that one decision as it was logged.",
                "Exit status: 0 done; 1 decision not found, a file unreadable, or a line that is not a decision record "
                        + "(reported with its file and line, and skipped); 2 usage error."},
        footer = {"", "A rotated log is several files: name them all, e.g. arbiter audit arbiter-decisions.log*"})
final class AuditCommand implements Callable<Integer> {

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "Decision log files written by serve --decision-log.")
    List<Path> files;

    @Option(names = "--id", paramLabel = "DECISION_ID", description = "Print the decision with this id.")
    String decisionId;

    @Option(names = "--top", defaultValue = "5", paramLabel = "N", description = "Rules listed per Interface (default: ${DEFAULT-VALUE}).")
    int top;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (top < 0) {
            throw new ParameterException(spec.commandLine(), "--top must be 0 or more, not " + top);
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        for (Path file : files) {
            if (!Files.isRegularFile(file)) {
                err.println("arbiter audit: " + file + " is not a file");
                return 1;
            }
        }
        int[] unreadable = new int[1];
        DecisionLogReader reader = new DecisionLogReader(files, line -> {
            err.println(line);
            unreadable[0]++;
        });
        try {
            if (decisionId != null) {
                Optional<JsonNode> record = reader.find(decisionId);
                if (record.isEmpty()) {
                    err.println("arbiter audit: no decision " + decisionId + " in " + files);
                    return 1;
                }
                out.println(Documents.jsonMapper().writerWithDefaultPrettyPrinter().writeValueAsString(record.get()));
                return 0;
            }
            for (DecisionLogReader.Subject subject : reader.summary()) {
                out.println(subject.name() + ": " + subject.outcomes());
                subject.mostFired(top).forEach(rule -> out.println("  " + rule.getValue() + "  " + rule.getKey()));
            }
        } catch (IOException e) {
            err.println("arbiter audit: cannot read the log: " + e);
            return 1;
        }
        return unreadable[0] == 0 ? 0 : 1;
    }
}
