package io.arbiter.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.document.Documents;

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
import java.util.function.Predicate;

/**
 * Reads decision logs back for auditors ({@code arbiter audit}): one or more files (a log and its rotated
 * siblings), or a Kafka topic ({@link KafkaTopicSource}), streamed record by record, so a log of any size is read in
 * constant memory. A line or message that is not a decision record is reported with where it is and skipped.
 */
public final class DecisionLogReader {

    /**
     * A line or message that is not a decision record: where ({@code source} a file, or a topic's partition), at
     * which {@code line} (a file's line number, a partition's offset), and why.
     */
    public record Unreadable(String source, long line, String reason) {
        @Override
        public String toString() {
            return source + ":" + line + ": not a decision record: " + reason;
        }
    }

    /** Where records are read from, in order. */
    public interface Source {
        /** Hands every line or message to {@code visitor} until it returns true. */
        void forEach(LineVisitor visitor) throws IOException;
    }

    /**
     * One line or message: {@code source} and {@code line} say where, as in {@link Unreadable}; {@code text} is null
     * when the line is longer than {@link #MAX_LINE_CHARS} (or the reader's own bound), and was not kept.
     */
    public interface LineVisitor {
        boolean visit(String source, long line, String text);
    }

    /**
     * The longest line read as a record: 64 Mi characters. A record is one line and no larger than the log's buffer
     * budget (64 MiB by default) unless it was written alone; a decision's record takes kilobytes, a large dependency
     * decision's megabytes. A longer line is no record the service wrote, and is reported and skipped, not held.
     */
    public static final int MAX_LINE_CHARS = 64 * 1024 * 1024;

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

    private final Source source;
    private final Consumer<Unreadable> unreadable;
    private final int maxLineChars;

    /** @param unreadable told about every line that is not a decision record */
    public DecisionLogReader(List<Path> files, Consumer<Unreadable> unreadable) {
        this(files, MAX_LINE_CHARS, unreadable);
    }

    /** @param maxLineChars a longer line is reported as unreadable and skipped without being held */
    DecisionLogReader(List<Path> files, int maxLineChars, Consumer<Unreadable> unreadable) {
        this(files(files, maxLineChars), maxLineChars, unreadable);
    }

    /** @param unreadable told about every line or message that is not a decision record */
    public DecisionLogReader(Source source, Consumer<Unreadable> unreadable) {
        this(source, MAX_LINE_CHARS, unreadable);
    }

    private DecisionLogReader(Source source, int maxLineChars, Consumer<Unreadable> unreadable) {
        this.source = source;
        this.maxLineChars = maxLineChars;
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
            // a summarised record counts its firings per rule instead of listing them
            JsonNode counted = record.path("summarised").path("firings");
            counted.path("byRule").forEach(rule ->
                    subject.firings().merge(rule.path("rule").asText(), rule.path("count").asInt(), Integer::sum));
            if (counted.path("otherRules").isObject()) {
                subject.firings().merge("(rules a summarised record counts together)",
                        counted.path("otherRules").path("count").asInt(), Integer::sum);
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

    /** Every decision record, in log order; lines that are not decision records are reported and skipped. */
    public void forEach(Consumer<JsonNode> action) throws IOException {
        forEachRecord(record -> {
            action.accept(record);
            return false;
        });
    }

    /** The Interface a decision was asked about; decisions of other targets are grouped by endpoint. */
    private static String subjectOf(JsonNode record) {
        String path = record.path("request").path("interface").path("path").asText("");
        return path.isEmpty() ? record.path("endpoint").asText() : path;
    }

    /** Hands every decision record to {@code visitor} until it returns true (stop reading). */
    private void forEachRecord(Predicate<JsonNode> visitor) throws IOException {
        source.forEach((where, line, text) -> {
            if (text == null) {
                unreadable.accept(new Unreadable(where, line, "the line is longer than " + maxLineChars
                        + " characters, more than any record the service writes; it was skipped unread"));
                return false;
            }
            JsonNode record;
            try {
                record = Documents.jsonMapper().readTree(text);
            } catch (IOException e) {
                unreadable.accept(new Unreadable(where, line,
                        e instanceof JsonProcessingException json ? json.getOriginalMessage() : e.getMessage()));
                return false;
            }
            if (record == null || !record.isObject()) {
                unreadable.accept(new Unreadable(where, line, "not a JSON object"));
                return false;
            }
            if (!record.path("decisionId").isTextual()) {
                // a JSON line of something else (another program's log, a response saved by hand): not a decision
                unreadable.accept(new Unreadable(where, line, "a JSON object without a decisionId (another "
                        + "program's log?): name only the files serve --decision-log writes"));
                return false;
            }
            return visitor.test(record);
        });
    }

    /** Files, one after the other, line by line, each line held up to {@code maxLineChars}. */
    private static Source files(List<Path> files, int maxLineChars) {
        List<Path> all = List.copyOf(files);
        return visitor -> {
            for (Path file : all) {
                // Malformed UTF-8 becomes U+FFFD instead of ending the read: the line is then reported, the rest read.
                try (BoundedLineReader reader = new BoundedLineReader(new InputStreamReader(Files.newInputStream(file),
                        StandardCharsets.UTF_8), maxLineChars)) {
                    for (BoundedLineReader.Line line = reader.next(); line != null; line = reader.next()) {
                        if (visitor.visit(file.toString(), line.number(), line.text())) {
                            return;
                        }
                    }
                }
            }
        };
    }
}
