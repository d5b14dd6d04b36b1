package io.arbiter.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.archive.ArchiveException;
import io.arbiter.archive.Replay;
import io.arbiter.archive.ReplayText;
import io.arbiter.archive.SnapshotArchive;
import io.arbiter.audit.DecisionLogReader;
import io.arbiter.audit.KafkaTopicSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/** {@code arbiter audit FILE...} or {@code --kafka-bootstrap}: what a decision log says, per Interface, or about one decision. */
@Command(name = "audit", mixinStandardHelpOptions = true,
        description = {"Summarise a decision log (files, or a Kafka topic): per Interface (or decision target), outcome counts and the most fired rules.",
                "With --id, say why that one decision came out as it did, from its record alone: what was asked, under which revisions, "
                        + "what was decided and every rule that fired, phase by phase, with the facts it matched; with --json, print the record as it was logged.",
                "With --id, --replay LOG... and --archive DIR, decide it again under the archived snapshot it was decided with "
                        + "(serve --snapshot-archive DIR) and say whether the outcome and the firings are identical, and if not what differs.",
                "Exit status: 0 done (a replay: identical); 1 decision not found, a file or topic unreadable, or a line that is not a decision record "
                        + "(reported with its file and line, or partition and offset, and skipped); a replay: different, or no archived snapshot; 2 usage error."},
        footer = {"", "A rotated log is several files: name them all, e.g. arbiter audit arbiter-decisions.log*",
                "A topic: arbiter audit --kafka-bootstrap kafka:9092 --topic arbiter-decisions [--from-time 2026-11-24T00:00:00Z]",
                "A replay: arbiter audit --id 3f2a... --replay arbiter-decisions.log* --archive /var/lib/arbiter/snapshots"})
final class AuditCommand extends ArbiterCommand {

    /** How long the Kafka cluster may take to answer, and to hand over records it has. */
    private static final Duration KAFKA_TIMEOUT = Duration.ofSeconds(30);

    @Parameters(arity = "0..*", paramLabel = "FILE", description = "Decision log files written by serve --decision-log.")
    List<Path> files = new ArrayList<>();

    @Option(names = "--kafka-bootstrap", paramLabel = "HOST:PORT[,...]",
            description = "Read a Kafka topic written by serve --decision-log-sink kafka instead of files.")
    String kafkaBootstrap;

    @Option(names = "--topic", paramLabel = "TOPIC", description = "The topic to read (default: arbiter.topic of --kafka-properties).")
    String topic;

    @Option(names = "--kafka-properties", paramLabel = "PROPERTIES",
            description = "Kafka client properties for the read (TLS: security.protocol, ssl.*; SASL: sasl.*); the sink's own file will do.")
    Path kafkaProperties;

    @Option(names = "--from-offset", paramLabel = "OFFSET", description = "Read each partition from this offset (default: its earliest record).")
    Long fromOffset;

    @Option(names = "--from-time", paramLabel = "TIME",
            description = "Read each partition from its first record at or after TIME (RFC 3339, e.g. 2026-11-24T08:00:00Z).")
    String fromTime;

    @Option(names = "--id", paramLabel = "DECISION_ID", description = "Explain the decision with this id.")
    String decisionId;

    @Option(names = "--json", description = "With --id: print the record as it was logged (JSON) instead of explaining it.")
    boolean json;

    @Option(names = "--replay", arity = "1..*", paramLabel = "LOG",
            description = "Decision log files to find --id in and replay it (the FILEs count too); needs --archive.")
    List<Path> replay = new ArrayList<>();

    @Option(names = "--archive", paramLabel = "DIR",
            description = "The snapshot archive written by serve --snapshot-archive: replay --id under the snapshot it was decided with.")
    Path archive;

    @Option(names = "--top", defaultValue = "5", paramLabel = "N", description = "Rules listed per Interface (default: ${DEFAULT-VALUE}).")
    int top;

    @Override
    public Integer call() {
        if (top < 0) {
            throw console.usage("--top must be 0 or more, not " + top);
        }
        PrintWriter out = console.out();
        PrintWriter err = console.err();
        boolean replaying = archive != null || !replay.isEmpty();
        if (replaying) {
            if (archive == null) {
                throw console.usage("--replay needs --archive DIR, the snapshot archive of serve --snapshot-archive");
            }
            if (decisionId == null) {
                throw console.usage("--archive replays one decision: name it with --id");
            }
            files.addAll(replay);
        }
        DecisionLogReader.Source source = source();
        if (source == null) {
            for (Path file : files) {
                if (!Files.isRegularFile(file)) {
                    console.error(file + " is not a file");
                    return 1;
                }
            }
        }
        String read = source == null ? files.toString() : "topic " + topic;
        int[] unreadable = new int[1];
        java.util.function.Consumer<DecisionLogReader.Unreadable> report = line -> {
            err.println(line);
            unreadable[0]++;
        };
        DecisionLogReader reader = source == null ? new DecisionLogReader(files, report) : new DecisionLogReader(source, report);
        try {
            if (decisionId != null) {
                Optional<JsonNode> record = reader.find(decisionId);
                if (record.isEmpty()) {
                    console.error("no decision " + decisionId + " in " + read);
                    return 1;
                }
                if (replaying) {
                    return replay(record.get(), out);
                }
                if (json) {
                    console.printJson(record.get());
                } else {
                    io.arbiter.audit.DecisionExplanation.print(record.get(), out);
                    out.flush();
                }
                return 0;
            }
            for (DecisionLogReader.Subject subject : reader.summary()) {
                out.println(subject.name() + ": " + subject.outcomes());
                subject.mostFired(top).forEach(rule -> out.println("  " + rule.getValue() + "  " + rule.getKey()));
            }
        } catch (IOException e) {
            console.error("cannot read the log: " + e);
            return 1;
        }
        return unreadable[0] == 0 ? 0 : 1;
    }

    /** Replays {@code record} under its archived snapshot and reports: 0 identical, 1 different or not replayable. */
    private int replay(JsonNode record, PrintWriter out) throws IOException {
        if (!Files.isDirectory(archive)) {
            console.error("the snapshot archive " + archive + (Files.exists(archive) ? " is not a folder" : " does not exist"));
            return 1;
        }
        Replay.Report report;
        try {
            report = Replay.replay(record, SnapshotArchive.at(archive, SnapshotArchive.DEFAULT_KEEP), registry());
        } catch (ArchiveException e) {
            console.error(e.getMessage());
            return 1;
        }
        ReplayText.print(report, archive, out);
        return report.identical() ? 0 : 1;
    }

    /** The Kafka topic to read, or null to read the files; the options are checked here (usage errors). */
    private DecisionLogReader.Source source() {
        boolean kafka = kafkaBootstrap != null || kafkaProperties != null || topic != null;
        if (!kafka) {
            if (files.isEmpty()) {
                throw console.usage("name decision log FILEs, or a topic with --kafka-bootstrap and --topic");
            }
            if (fromOffset != null || fromTime != null) {
                throw console.usage("--from-offset and --from-time read a Kafka topic (--kafka-bootstrap)");
            }
            return null;
        }
        if (!files.isEmpty()) {
            throw console.usage("read files or a Kafka topic, not both: " + files);
        }
        Properties client = new Properties();
        if (kafkaProperties != null) {
            try (var in = Files.newBufferedReader(kafkaProperties, StandardCharsets.UTF_8)) {
                client.load(in);
            } catch (IOException | IllegalArgumentException e) {
                throw console.usage("cannot read --kafka-properties " + kafkaProperties + ": " + e.getMessage());
            }
        }
        if (kafkaBootstrap != null) {
            client.setProperty("bootstrap.servers", kafkaBootstrap);
        }
        if (client.getProperty("bootstrap.servers", "").isBlank()) {
            throw console.usage("--kafka-bootstrap (or bootstrap.servers in --kafka-properties) is needed to read a topic");
        }
        if (topic == null) {
            topic = client.getProperty("arbiter.topic");
        }
        if (topic == null || topic.isBlank()) {
            throw console.usage("--topic is needed to read a Kafka topic");
        }
        if (fromOffset != null && fromTime != null) {
            throw console.usage("--from-offset or --from-time, not both");
        }
        KafkaTopicSource.Start start = new KafkaTopicSource.Start.Earliest();
        if (fromOffset != null) {
            if (fromOffset < 0) {
                throw console.usage("--from-offset must be 0 or more, not " + fromOffset);
            }
            start = new KafkaTopicSource.Start.Offset(fromOffset);
        } else if (fromTime != null) {
            try {
                start = new KafkaTopicSource.Start.Time(OffsetDateTime.parse(fromTime).toInstant());
            } catch (DateTimeParseException e) {
                throw console.usage("--from-time must be an RFC 3339 time such as 2026-11-24T08:00:00Z, not '" + fromTime + "'");
            }
        }
        return new KafkaTopicSource(client, topic, start, KAFKA_TIMEOUT);
    }
}
