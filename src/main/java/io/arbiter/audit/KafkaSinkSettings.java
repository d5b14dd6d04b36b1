package io.arbiter.audit;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;

/**
 * The Kafka decision-log sink's settings, from one properties file: {@code arbiter.topic} (required),
 * {@code arbiter.key} ({@code decisionId}, the default, or {@code policyRevision}), and every other line a Kafka
 * producer property: {@code bootstrap.servers} (required), TLS ({@code security.protocol}, {@code ssl.*}), SASL
 * ({@code sasl.*}), timeouts. {@code acks=all} and idempotence are always on: a file that asks otherwise is refused.
 *
 * @param client the producer's properties, without ours, with {@code acks}, idempotence and their defaults set
 */
public record KafkaSinkSettings(String topic, Key key, Properties client) {

    /** What a record is keyed by: Kafka keeps the records of one key in order, in one partition. */
    public enum Key {
        /** Records spread evenly over the partitions. */
        DECISION_ID,
        /** The decisions of one policy revision stay in order, together. */
        POLICY_REVISION
    }

    /**
     * How long a send waits for the topic's metadata (the producer's default is 60 s). The writer thread waits that
     * long on an unreachable cluster; REQUIRED decisions give up after 2 s anyway, BEST_EFFORT ones are dropped
     * and counted once the buffer is full.
     */
    static final String DEFAULT_MAX_BLOCK_MS = "5000";

    public static KafkaSinkSettings load(Path file) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the Kafka properties " + file + ": "
                    + FileDecisionLog.describe(e));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the Kafka properties " + file + " are malformed: " + e.getMessage());
        }
        return of(properties, file.toString());
    }

    /** @param where names the properties in messages */
    static KafkaSinkSettings of(Properties properties, String where) {
        Properties client = new Properties();
        client.putAll(properties);
        String topic = (String) client.remove("arbiter.topic");
        String key = (String) client.remove("arbiter.key");
        if (topic == null || topic.isBlank()) {
            throw new IllegalArgumentException(where + ": arbiter.topic is missing (the topic decision records go to)");
        }
        if (isBlank(client.getProperty("bootstrap.servers"))) {
            throw new IllegalArgumentException(where + ": bootstrap.servers is missing (host:port of the Kafka brokers)");
        }
        requireIfGiven(client, "acks", where, "all", "-1");
        requireIfGiven(client, "enable.idempotence", where, "true");
        for (String ours : new String[]{"key.serializer", "value.serializer", "transactional.id"}) {
            if (client.containsKey(ours)) {
                throw new IllegalArgumentException(where + ": " + ours + " cannot be set: the decision log sets it");
            }
        }
        client.put("acks", "all");
        client.put("enable.idempotence", "true");
        client.putIfAbsent("max.block.ms", DEFAULT_MAX_BLOCK_MS);
        client.putIfAbsent("client.id", "arbiter-decision-log");
        // records repeat rule names and fact ids across a batch: lz4 (in kafka-clients' own dependencies) shrinks them
        // on the wire and on the brokers for little CPU; a site may choose another codec
        client.putIfAbsent("compression.type", "lz4");
        return new KafkaSinkSettings(topic.trim(), key(key, where), client);
    }

    private static Key key(String value, String where) {
        if (value == null || value.isBlank()) {
            return Key.DECISION_ID;
        }
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "decisionid" -> Key.DECISION_ID;
            case "policyrevision" -> Key.POLICY_REVISION;
            default -> throw new IllegalArgumentException(where + ": arbiter.key must be decisionId or policyRevision, not '"
                    + value + "'");
        };
    }

    private static void requireIfGiven(Properties client, String name, String where, String... allowed) {
        String value = client.getProperty(name);
        if (value == null) {
            return;
        }
        for (String ok : allowed) {
            if (ok.equalsIgnoreCase(value.trim())) {
                return;
            }
        }
        throw new IllegalArgumentException(where + ": " + name + "=" + value + " would let records be lost; the decision"
                + " log needs " + name + "=" + allowed[0]);
    }

    private static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }

    /** For messages: the topic and the brokers, never the credentials. */
    public String describe() {
        return "Kafka topic " + topic + " at " + client.getProperty("bootstrap.servers");
    }
}
