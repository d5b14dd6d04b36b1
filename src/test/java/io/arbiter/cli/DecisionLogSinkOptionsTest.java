package io.arbiter.cli;

import io.arbiter.audit.AuditSettings;
import io.arbiter.audit.DecisionLog;
import io.arbiter.policytype.PolicyTypeRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** serve --decision-log-sink: the file by default, stdout, or Kafka from a properties file checked at start-up. */
class DecisionLogSinkOptionsTest {

    @TempDir
    Path temp;

    private static AuditSettings audit(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "serve";
        System.arraycopy(args, 0, all, 1, args.length);
        var parsed = ArbiterCli.commandLine(PolicyTypeRegistry.discover()).parseArgs(all);
        return ((ServeCommand) parsed.subcommand().commandSpec().userObject()).auditSettings();
    }

    private static String usageError(String... args) {
        return assertThrows(CommandLine.ParameterException.class, () -> audit(args)).getMessage();
    }

    private Path properties(String text) throws IOException {
        Path file = temp.resolve("kafka-" + text.hashCode() + ".properties");
        Files.writeString(file, text);
        return file;
    }

    @Test
    void theFileSinkIsTheDefault() {
        AuditSettings settings = audit("--decision-log", "d.log");

        assertEquals(AuditSettings.Sink.FILE, settings.sink());
        assertEquals(Path.of("d.log"), settings.file());
    }

    @Test
    void aDecisionLogIsWrittenWhateverIsServedUnlessItIsTurnedOff() {
        assertEquals(Path.of("arbiter-decisions.log"), audit().file());
        assertEquals(Path.of("arbiter-decisions.log"), audit("--policy", "my-policy.yaml").file());
        assertNull(audit("--decision-log", "off").file());
    }

    @Test
    void stdoutNeedsNoFile() {
        AuditSettings settings = audit("--decision-log-sink", "stdout", "--decision-log-mode", "REQUIRED");

        assertEquals(AuditSettings.Sink.STDOUT, settings.sink());
        assertEquals(DecisionLog.Mode.REQUIRED, settings.mode());
        assertNull(settings.file());
        assertTrue(usageError("--decision-log-sink", "stdout", "--decision-log", "d.log").contains("--decision-log-sink file"));
    }

    @Test
    void kafkaReadsTheTopicKeyAndClientPropertiesAndAlwaysWaitsForEveryReplica() throws IOException {
        Path file = properties("""
                arbiter.topic=decisions
                arbiter.key=policyRevision
                bootstrap.servers=k1:9092,k2:9092
                security.protocol=SASL_SSL
                sasl.mechanism=SCRAM-SHA-512
                """);

        AuditSettings settings = audit("--decision-log-sink", "kafka", "--decision-log-kafka", file.toString());

        assertEquals(AuditSettings.Sink.KAFKA, settings.sink());
        assertEquals("decisions", settings.kafka().topic());
        assertEquals(io.arbiter.audit.KafkaSinkSettings.Key.POLICY_REVISION, settings.kafka().key());
        assertEquals("all", settings.kafka().client().getProperty("acks"));
        assertEquals("true", settings.kafka().client().getProperty("enable.idempotence"));
        assertEquals("SASL_SSL", settings.kafka().client().getProperty("security.protocol"));
        assertEquals("lz4", settings.kafka().client().getProperty("compression.type"), "batches are compressed by default");
        assertNull(settings.kafka().client().getProperty("arbiter.topic"), "ours are not the producer's");
    }

    @Test
    void kafkaSettingsThatWouldLoseRecordsOrAreIncompleteAreUsageErrors() throws IOException {
        assertTrue(usageError("--decision-log-sink", "kafka").contains("--decision-log-kafka"));
        assertTrue(usageError("--decision-log-kafka", properties("arbiter.topic=t\nbootstrap.servers=k:9092\n").toString())
                .contains("--decision-log-sink kafka"));
        assertTrue(usageError("--decision-log-sink", "kafka", "--decision-log-kafka",
                properties("arbiter.topic=t\nbootstrap.servers=k:9092\nacks=1\n").toString()).contains("acks=all"));
        assertTrue(usageError("--decision-log-sink", "kafka", "--decision-log-kafka",
                properties("arbiter.topic=t\nbootstrap.servers=k:9092\nenable.idempotence=false\n").toString())
                .contains("enable.idempotence=true"));
        assertTrue(usageError("--decision-log-sink", "kafka", "--decision-log-kafka",
                properties("bootstrap.servers=k:9092\n").toString()).contains("arbiter.topic is missing"));
        assertTrue(usageError("--decision-log-sink", "kafka", "--decision-log-kafka",
                properties("arbiter.topic=t\n").toString()).contains("bootstrap.servers is missing"));
        assertTrue(usageError("--decision-log-sink", "kafka", "--decision-log-kafka",
                properties("arbiter.topic=t\nbootstrap.servers=k:9092\narbiter.key=cluster\n").toString())
                .contains("arbiter.key must be decisionId or policyRevision"));
        assertTrue(usageError("--decision-log-sink", "kafka", "--decision-log-kafka",
                temp.resolve("absent.properties").toString()).contains("no such file"));
    }
}
