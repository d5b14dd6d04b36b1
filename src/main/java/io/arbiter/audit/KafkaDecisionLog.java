package io.arbiter.audit;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Decision records sent to a Kafka topic, one message per record (the JSON object, no line end), keyed by decision
 * id or policy revision, by an idempotent producer with {@code acks=all}: a record counts as written once every
 * in-sync replica has it, and a resend after a lost answer does not duplicate it. The queue, modes and counters
 * are {@link QueuedDecisionLog}'s; this class only sends a batch and waits for the broker's answers, so a batch is
 * in the producer at most, and a slow or unreachable cluster fills the same bounded queue a slow disk would.
 */
public final class KafkaDecisionLog extends QueuedDecisionLog {

    /** What the producer gets to send the records queued when the log closes. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

    private final KafkaSinkSettings settings;
    private final Producer<String, byte[]> producer;

    public KafkaDecisionLog(KafkaSinkSettings settings, int capacity, long bufferBytes, Mode mode) {
        this(settings, capacity, bufferBytes, mode, RequiredWaits.DEFAULT);
    }

    /** @param waits how long a decision waits on the log in REQUIRED mode */
    public KafkaDecisionLog(KafkaSinkSettings settings, int capacity, long bufferBytes, Mode mode, RequiredWaits waits) {
        super(capacity, bufferBytes, mode, waits);
        this.settings = settings;
        this.producer = new KafkaProducer<>(settings.client(), new StringSerializer(), new ByteArraySerializer());
        start();
    }

    @Override
    protected String describe() {
        return settings.describe();
    }

    @Override
    protected void write(List<Entry> batch) {
        List<Future<RecordMetadata>> sent = new ArrayList<>(batch.size());
        for (Entry entry : batch) {
            try {
                sent.add(producer.send(new ProducerRecord<>(settings.topic(), key(entry), entry.json())));
            } catch (RuntimeException e) {
                // The producer refused at once (no metadata within max.block.ms, closed, fatal): the rest of the batch
                // would wait as long again, so it fails with this one.
                while (sent.size() < batch.size()) {
                    sent.add(CompletableFuture.failedFuture(e));
                }
                break;
            }
        }
        producer.flush();
        String firstFailure = null;
        int failures = 0;
        for (int i = 0; i < batch.size(); i++) {
            Entry entry = batch.get(i);
            try {
                sent.get(i).get();
                written(entry);
            } catch (ExecutionException e) {
                String reason = "cannot send to " + settings.describe() + ": " + describe(e.getCause());
                failed(entry, reason);
                if (firstFailure == null) {
                    firstFailure = reason + "; the first of decision " + entry.decisionId();
                }
                failures++;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for Kafka", e);
            }
        }
        if (firstFailure != null) {
            reportFailure(firstFailure, failures + " record(s) not written");
        }
    }

    private String key(Entry entry) {
        return settings.key() == KafkaSinkSettings.Key.POLICY_REVISION ? entry.policyRevision() : entry.decisionId();
    }

    /** The client's own message names the partition and the timeout or the broker's error. */
    private static String describe(Throwable e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null ? "" : " (" + message + ")");
    }

    @Override
    protected void closeSink() {
        producer.close(CLOSE_WAIT);
    }
}
