package io.arbiter.audit;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import io.arbiter.document.Documents;
import io.arbiter.engine.FiredRulesNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Decision records as JSON lines in a file, written by one background thread from a bounded queue, rotated by
 * size ({@code FILE} -> {@code FILE.1} -> ... -> {@code FILE.N}). The queue is bounded by count and by the heap its
 * records keep (a large dependency decision keeps about 13 MB until written). A slow or full disk fills the queue;
 * then records are dropped and counted (BEST_EFFORT) or decisions are refused (REQUIRED).
 */
public final class FileDecisionLog implements DecisionLog {

    private static final Logger LOG = LoggerFactory.getLogger(FileDecisionLog.class);
    private static final long REQUIRED_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    /** Default heap budget of the queue: thousands of typical records, a few of the largest. */
    public static final long DEFAULT_BUFFER_BYTES = 64L * 1024 * 1024;
    /**
     * The writer wakes on this interval rather than on every record: a wake-up per decision (a futex call on the
     * deciding thread, a context switch and a write on the other) cost more than serialising the record did.
     * A record reaches the file within about this long.
     */
    private static final long WRITE_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    private static final int MAX_BATCH = 512;
    /** A fired rule's {@code name} and {@code package}: its {@code rule} already says both. */
    private static final Set<String> REPEATED_IN_RULE = Set.of("name", "package");

    private final Path file;
    private final long maxBytes;
    private final int keepFiles;
    private final Mode mode;
    private final long bufferBytes;
    private final BlockingQueue<Queued> queue;
    /** The estimated heap of the queued records, reserved before a record is queued and released once written. */
    private final AtomicLong queuedBytes = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong written = new AtomicLong();
    private final Thread writer;
    private volatile boolean closed;
    private volatile String failure;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(16 * 1024);
    private OutputStream out;
    private long size;

    private record Queued(DecisionRecord record, long retainedBytes) {
    }

    public FileDecisionLog(Path file, long maxBytes, int keepFiles, int capacity, Mode mode) {
        this(file, maxBytes, keepFiles, capacity, DEFAULT_BUFFER_BYTES, mode);
    }

    /**
     * @param maxBytes    size at which the file is rotated
     * @param capacity    records the queue holds at most
     * @param bufferBytes estimated heap the queued records may keep; one record is queued whatever its size
     */
    public FileDecisionLog(Path file, long maxBytes, int keepFiles, int capacity, long bufferBytes, Mode mode) {
        if (capacity < 1 || bufferBytes < 1) {
            throw new IllegalArgumentException("the decision log's buffer needs room for one record: capacity "
                    + capacity + ", bytes " + bufferBytes);
        }
        this.bufferBytes = bufferBytes;
        this.file = file.toAbsolutePath();
        this.maxBytes = maxBytes;
        this.keepFiles = keepFiles;
        this.mode = mode;
        this.queue = new ArrayBlockingQueue<>(capacity);
        try {
            Path parent = this.file.getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            open();
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot open decision log " + this.file + ": " + e.getMessage(), e);
        }
        this.writer = new Thread(this::drain, "arbiter-decision-log");
        this.writer.setDaemon(true);
        this.writer.start();
    }

    @Override
    public void append(DecisionRecord record, long retainedBytes) {
        Queued queued = new Queued(record, retainedBytes);
        if (mode == Mode.REQUIRED) {
            if (failure != null) {
                throw new DecisionLogUnavailableException("the decision log is required and cannot be written: " + failure);
            }
            long deadline = System.nanoTime() + REQUIRED_WAIT_NANOS;
            if (!reserve(retainedBytes, true, deadline)) {
                throw new DecisionLogUnavailableException("the decision log is required and its buffer is full");
            }
            try {
                if (!queue.offer(queued, Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    queuedBytes.addAndGet(-retainedBytes);
                    throw new DecisionLogUnavailableException("the decision log is required and its buffer is full");
                }
            } catch (InterruptedException e) {
                queuedBytes.addAndGet(-retainedBytes);
                Thread.currentThread().interrupt();
                throw new DecisionLogUnavailableException("interrupted while waiting for the decision log");
            }
        } else if (failure != null || !reserve(retainedBytes, false, 0)) {
            dropped.incrementAndGet();
        } else if (!queue.offer(queued)) {
            queuedBytes.addAndGet(-retainedBytes);
            dropped.incrementAndGet();
        }
    }

    /**
     * Reserves room in the buffer's heap budget, if {@code waits} waiting until {@code deadline} ({@link
     * System#nanoTime}) for the writer to free some. An empty buffer takes any record, so a record larger than the
     * budget is still written.
     */
    private boolean reserve(long retainedBytes, boolean waits, long deadline) {
        while (true) {
            long queued = queuedBytes.get();
            if (queued == 0 || queued + retainedBytes <= bufferBytes) {
                if (queuedBytes.compareAndSet(queued, queued + retainedBytes)) {
                    return true;
                }
            } else if (!waits || System.nanoTime() - deadline >= 0) {
                return false;
            } else {
                LockSupport.unpark(writer);
                LockSupport.parkNanos(this, 100_000);
            }
        }
    }

    /** The estimated heap of the records waiting to be written. */
    long queuedBytes() {
        return queuedBytes.get();
    }

    @Override
    public long dropped() {
        return dropped.get();
    }

    @Override
    public long written() {
        return written.get();
    }

    /** Writes what is queued, then stops the writer. */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(writer);
        try {
            writer.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            if (out != null) {
                out.close();
            }
        } catch (IOException e) {
            LOG.warn("closing decision log {}: {}", file, e.toString());
        }
    }

    private void drain() {
        List<Queued> batch = new ArrayList<>();
        while (!closed || !queue.isEmpty()) {
            try {
                queue.drainTo(batch, MAX_BATCH);
                if (batch.isEmpty()) {
                    if (Thread.currentThread().isInterrupted()) {
                        return;
                    }
                    LockSupport.parkNanos(this, WRITE_INTERVAL_NANOS);
                    continue;
                }
                write(batch);
            } catch (IOException | RuntimeException e) {
                failure = e.toString();
                dropped.addAndGet(batch.size());
                LOG.error("decision log {} cannot be written; {} record(s) lost: {}", file, batch.size(), e.toString());
            } finally {
                long released = 0;
                for (Queued queued : batch) {
                    released += queued.retainedBytes();
                }
                queuedBytes.addAndGet(-released);
                batch.clear();
            }
        }
    }

    private void write(List<Queued> batch) throws IOException {
        for (Queued queued : batch) {
            line.reset();
            writeLine(queued.record(), line);
            if (size > 0 && size + line.size() > maxBytes) {
                rotate();
            }
            line.writeTo(out);
            size += line.size();
        }
        out.flush();
        written.addAndGet(batch.size());
        failure = null;
    }

    /**
     * One record as a JSON line, streamed field by field (the record's component order) into {@code sink}: no
     * copy of the result and no intermediate string, since this thread shares the machine with the deciding ones.
     */
    static void writeLine(DecisionRecord record, OutputStream sink) throws IOException {
        SerializerProvider provider = Documents.jsonMapper().getSerializerProviderInstance();
        try (JsonGenerator json = Documents.jsonMapper().getFactory().createGenerator(sink)) {
            json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            json.writeStartObject();
            json.writeStringField("decisionId", record.decisionId());
            json.writeStringField("timestamp", record.timestamp());
            json.writeStringField("endpoint", record.endpoint());
            json.writeStringField("requestDigest", record.requestDigest());
            json.writeFieldName("request");
            writeNode(record.request(), json, provider);
            json.writeStringField("policyRevision", record.policyRevision());
            json.writeStringField("rulesRevision", record.rulesRevision());
            json.writeStringField("outcome", record.outcome());
            json.writeFieldName("result");
            writeResult(record.result(), json, provider);
            json.writeNumberField("durationMicros", record.durationMicros());
            json.writeEndObject();
        }
        sink.write('\n');
    }

    /** In the log, a fired rule is {@code rule} (package.name), {@code order} and {@code facts}: name and package repeat it. */
    private static void writeResult(JsonNode result, JsonGenerator json, SerializerProvider provider) throws IOException {
        if (result == null || !result.isObject()) {
            writeNode(result, json, provider);
            return;
        }
        json.writeStartObject();
        for (Iterator<Map.Entry<String, JsonNode>> fields = result.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            json.writeFieldName(field.getKey());
            if (field.getValue() instanceof FiredRulesNode firings) {
                firings.write(json, false);
            } else if (field.getKey().equals("firedRules") && field.getValue().isArray()) {
                json.writeStartArray();
                for (JsonNode rule : field.getValue()) {
                    writeFiredRule(rule, json, provider);
                }
                json.writeEndArray();
            } else {
                writeNode(field.getValue(), json, provider);
            }
        }
        json.writeEndObject();
    }

    /** A tree through the line's serializer provider ({@code writeTree} would build a provider per node). */
    private static void writeNode(JsonNode node, JsonGenerator json, SerializerProvider provider) throws IOException {
        if (node == null) {
            json.writeNull();
        } else {
            ((JsonSerializable) node).serialize(json, provider);
        }
    }

    private static void writeFiredRule(JsonNode node, JsonGenerator json, SerializerProvider provider) throws IOException {
        if (!node.isObject()) {
            writeNode(node, json, provider);
            return;
        }
        json.writeStartObject();
        for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (!REPEATED_IN_RULE.contains(field.getKey())) {
                json.writeFieldName(field.getKey());
                writeNode(field.getValue(), json, provider);
            }
        }
        json.writeEndObject();
    }

    private void rotate() throws IOException {
        out.close();
        for (int i = keepFiles - 1; i >= 1; i--) {
            Path older = sibling(i);
            if (Files.exists(older)) {
                Files.move(older, sibling(i + 1), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Files.move(file, sibling(1), StandardCopyOption.REPLACE_EXISTING);
        open();
    }

    private Path sibling(int index) {
        return file.resolveSibling(file.getFileName() + "." + index);
    }

    private void open() throws IOException {
        out = new BufferedOutputStream(Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                StandardOpenOption.WRITE), 64 * 1024);
        size = Files.size(file);
    }
}
