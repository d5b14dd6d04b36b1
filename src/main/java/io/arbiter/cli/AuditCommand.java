package io.arbiter.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.document.Documents;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/** {@code arbiter audit FILE}: what a decision log says, per Interface, or about one decision. */
@Command(name = "audit", mixinStandardHelpOptions = true,
        description = {"Summarise a decision log: per Interface (or decision target), outcome counts and the most fired rules.",
                "With --id, print that one decision as it was logged. Exit status: 0 found, 1 not found or unreadable."})
final class AuditCommand implements Callable<Integer> {

    @Parameters(paramLabel = "FILE", description = "A decision log written by serve --decision-log.")
    Path file;

    @Option(names = "--id", paramLabel = "DECISION_ID", description = "Print the decision with this id.")
    String decisionId;

    @Option(names = "--top", defaultValue = "5", paramLabel = "N", description = "Rules listed per Interface (default: ${DEFAULT-VALUE}).")
    int top;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    private record Summary(Map<String, Integer> outcomes, Map<String, Integer> rules) {
        Summary() {
            this(new TreeMap<>(), new TreeMap<>());
        }
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!Files.isRegularFile(file)) {
            err.println("arbiter audit: " + file + " is not a file");
            return 1;
        }
        Map<String, Summary> byInterface = new TreeMap<>();
        int lineNumber = 0;
        int unreadable = 0;
        try (BufferedReader reader = Files.newBufferedReader(file)) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lineNumber++;
                JsonNode record;
                try {
                    record = Documents.jsonMapper().readTree(line);
                } catch (IOException e) {
                    err.println(file + ":" + lineNumber + ": not a decision record: " + e.getMessage());
                    unreadable++;
                    continue;
                }
                if (decisionId != null) {
                    if (decisionId.equals(record.path("decisionId").asText())) {
                        out.println(Documents.jsonMapper().writerWithDefaultPrettyPrinter().writeValueAsString(record));
                        return 0;
                    }
                    continue;
                }
                String subject = record.path("request").path("interface").path("path").asText("");
                String key = subject.isEmpty() ? record.path("endpoint").asText() : subject;
                Summary summary = byInterface.computeIfAbsent(key, k -> new Summary());
                summary.outcomes().merge(record.path("outcome").asText(), 1, Integer::sum);
                record.path("result").path("firedRules").forEach(rule -> summary.rules().merge(rule.path("rule").asText(), 1, Integer::sum));
            }
        }
        if (decisionId != null) {
            err.println("arbiter audit: no decision " + decisionId + " in " + file);
            return 1;
        }
        byInterface.forEach((key, summary) -> {
            out.println(key + ": " + summary.outcomes());
            summary.rules().entrySet().stream()
                    .sorted(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                    .limit(top).forEach(rule -> out.println("  " + rule.getValue() + "  " + rule.getKey()));
        });
        return unreadable == 0 ? 0 : 1;
    }
}
