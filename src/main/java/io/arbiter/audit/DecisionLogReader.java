package io.arbiter.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.document.Documents;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Reads decision logs back for auditors ({@code arbiter audit}): one or more files (a log and its rotated
 * siblings), streamed line by line, so a log of any size is read in constant memory. A line that is not a decision
 * record is reported with its file and line number and skipped.
 */
public final class DecisionLogReader {

    /** A line that is not a decision record: where, and why. */
    public record Unreadable(Path file, int line, String reason) {
        @Override
        public String toString() {
            return file + ":" + line + ": not a decision record: " + reason;
        }
    }

    /** One Interface's (or, for other targets, one endpoint's) decisions: outcome counts and firings by rule. */
    public record Subject(String name, Map<String, Integer> outcomes, Map<String, Integer> firings) {

        /** The {@code limit} most fired rules, most fired first, ties by rule name. */
        public List<Map.Entry<String, Integer>> mostFired(int limit) {
            return firings.entrySet().stream()
                    .sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder())
                            .thenComparing(Map.Entry.comparingByKey()))
                    .limit(limit).toList();
        }
    }

    private final List<Path> files;
    private final Consumer<Unreadable> unreadable;

    /** @param unreadable told about every line that is not a decision record */
    public DecisionLogReader(List<Path> files, Consumer<Unreadable> unreadable) {
        this.files = List.copyOf(files);
        this.unreadable = unreadable;
    }

    /** Every file's decisions by subject, subjects in name order. */
    public List<Subject> summary() throws IOException {
        Map<String, Subject> subjects = new TreeMap<>();
        forEachRecord(record -> {
            Subject subject = subjects.computeIfAbsent(subjectOf(record),
                    name -> new Subject(name, new TreeMap<>(), new TreeMap<>()));
            subject.outcomes().merge(record.path("outcome").asText(), 1, Integer::sum);
            record.path("result").path("firedRules")
                    .forEach(rule -> subject.firings().merge(rule.path("rule").asText(), 1, Integer::sum));
            // firings recorded once with the snapshot count by the reference (GET /v1/snapshots/{revision}/firings)
            JsonNode snapshot = record.path("result").path("snapshotFirings");
            if (snapshot.isObject()) {
                subject.firings().merge("snapshot " + snapshot.path("revision").asText() + " "
                        + snapshot.path("key").asText(), 1, Integer::sum);
            }
            return false;
        });
        return List.copyOf(subjects.values());
    }

    /** The record of one decision, as it was logged. */
    public Optional<JsonNode> find(String decisionId) throws IOException {
        JsonNode[] found = new JsonNode[1];
        forEachRecord(record -> {
            if (decisionId.equals(record.path("decisionId").asText())) {
                found[0] = record;
                return true;
            }
            return false;
        });
        return Optional.ofNullable(found[0]);
    }

    /** The Interface a decision was asked about; decisions of other targets are grouped by endpoint. */
    private static String subjectOf(JsonNode record) {
        String path = record.path("request").path("interface").path("path").asText("");
        return path.isEmpty() ? record.path("endpoint").asText() : path;
    }

    /** A record visitor; returns true to stop reading. */
    private interface Visitor {
        boolean visit(JsonNode record);
    }

    private void forEachRecord(Visitor visitor) throws IOException {
        for (Path file : files) {
            // Malformed UTF-8 becomes U+FFFD instead of ending the read: the line is then reported, the rest read.
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(Files.newInputStream(file),
                    StandardCharsets.UTF_8))) {
                int lineNumber = 0;
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    lineNumber++;
                    JsonNode record;
                    try {
                        record = Documents.jsonMapper().readTree(line);
                    } catch (IOException e) {
                        unreadable.accept(new Unreadable(file, lineNumber,
                                e instanceof JsonProcessingException json ? json.getOriginalMessage() : e.getMessage()));
                        continue;
                    }
                    if (record == null || !record.isObject()) {
                        unreadable.accept(new Unreadable(file, lineNumber, "not a JSON object"));
                    } else if (visitor.visit(record)) {
                        return;
                    }
                }
            }
        }
    }
}
