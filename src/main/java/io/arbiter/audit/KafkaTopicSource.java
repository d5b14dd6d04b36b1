package io.arbiter.audit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * A decision-log topic read for {@code arbiter audit}: every partition, from a start (the earliest record, an offset
 * or a time) up to the end each partition had when the read began, so that a topic that keeps growing is still read
 * to an end. Reads without a consumer group: nothing is committed, the producers are not disturbed.
 */
public final class KafkaTopicSource implements DecisionLogReader.Source {

    /** Where each partition is read from. */
    public sealed interface Start {
        /** From each partition's earliest retained record. */
        record Earliest() implements Start {
        }

        /** From this offset in each partition (or its earliest retained record, if later). */
        record Offset(long offset) implements Start {
        }

        /** From each partition's first record at or after this time. */
        record Time(Instant time) implements Start {
        }
    }

    private final Properties client;
    private final String topic;
    private final Start start;
    private final Duration timeout;

    /**
     * @param client  consumer properties: {@code bootstrap.servers}, and TLS or SASL ones if the cluster needs them
     * @param timeout how long to wait for the cluster's answers, and for records known to exist
     */
    public KafkaTopicSource(Properties client, String topic, Start start, Duration timeout) {
        this.client = new Properties();
        client.forEach((key, value) -> {
            if (!String.valueOf(key).startsWith("arbiter.")) {
                this.client.put(key, value);
            }
        });
        this.client.put("enable.auto.commit", "false");
        this.client.remove("group.id");
        this.client.putIfAbsent("client.id", "arbiter-audit");
        this.topic = topic;
        this.start = start;
        this.timeout = timeout;
    }

    @Override
    public void forEach(DecisionLogReader.LineVisitor visitor) throws IOException {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(client, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = partitions(consumer);
            consumer.assign(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
            Map<TopicPartition, Long> from = startOffsets(consumer, partitions, end);
            List<TopicPartition> remaining = new ArrayList<>();
            for (TopicPartition partition : partitions) {
                consumer.seek(partition, from.get(partition));
                if (from.get(partition) < end.get(partition)) {
                    remaining.add(partition);
                }
            }
            long lastProgress = System.nanoTime();
            while (!remaining.isEmpty()) {
                var records = consumer.poll(Duration.ofMillis(200));
                if (records.isEmpty()) {
                    if (System.nanoTime() - lastProgress > timeout.toNanos()) {
                        throw new IOException("no records from " + remaining + " within " + timeout.toSeconds()
                                + " s, though the topic has some");
                    }
                    continue;
                }
                lastProgress = System.nanoTime();
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                    if (record.offset() >= end.get(partition)) {
                        continue;
                    }
                    String text = record.value() == null ? "" : new String(record.value(), StandardCharsets.UTF_8);
                    if (visitor.visit(partition.toString(), record.offset(), text)) {
                        return;
                    }
                }
                remaining.removeIf(partition -> consumer.position(partition, timeout) >= end.get(partition));
            }
        } catch (KafkaException e) {
            throw new IOException("cannot read Kafka topic " + topic + " at " + client.getProperty("bootstrap.servers")
                    + ": " + e.getClass().getSimpleName() + " (" + e.getMessage() + ")", e);
        }
    }

    private List<TopicPartition> partitions(KafkaConsumer<byte[], byte[]> consumer) throws IOException {
        List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
        if (infos == null || infos.isEmpty()) {
            throw new IOException("there is no Kafka topic " + topic + " at " + client.getProperty("bootstrap.servers"));
        }
        return infos.stream().map(info -> new TopicPartition(info.topic(), info.partition()))
                .sorted(Comparator.comparingInt(TopicPartition::partition)).toList();
    }

    private Map<TopicPartition, Long> startOffsets(KafkaConsumer<byte[], byte[]> consumer,
                                                   List<TopicPartition> partitions, Map<TopicPartition, Long> end) {
        Map<TopicPartition, Long> beginning = consumer.beginningOffsets(partitions, timeout);
        Map<TopicPartition, Long> from = new HashMap<>();
        if (start instanceof Start.Time time) {
            Map<TopicPartition, Long> query = new HashMap<>();
            partitions.forEach(partition -> query.put(partition, time.time().toEpochMilli()));
            Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(query, timeout);
            for (TopicPartition partition : partitions) {
                OffsetAndTimestamp at = found.get(partition);
                from.put(partition, at == null ? end.get(partition) : at.offset());
            }
            return from;
        }
        long offset = start instanceof Start.Offset given ? given.offset() : 0;
        for (TopicPartition partition : partitions) {
            from.put(partition, Math.min(end.get(partition), Math.max(beginning.get(partition), offset)));
        }
        return from;
    }
}
