package io.arbiter.audit;

import io.arbiter.document.Documents;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Decision records as JSON lines in a file, written by one background thread from a bounded queue, rotated by
 * size ({@code FILE} -> {@code FILE.1} -> ... -> {@code FILE.N}). A slow or full disk fills the queue; then
 * records are dropped and counted (BEST_EFFORT) or decisions are refused (REQUIRED).
 */
public final class FileDecisionLog implements DecisionLog {

    private static final Logger LOG = LoggerFactory.getLogger(FileDecisionLog.class);
    private static final long REQUIRED_WAIT_MILLIS = 200;

    private final Path file;
    private final long maxBytes;
    private final int keepFiles;
    private final Mode mode;
    private final BlockingQueue<DecisionRecord> queue;
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong written = new AtomicLong();
    private final Thread writer;
    private volatile boolean closed;
    private volatile String failure;
    private OutputStream out;
    private long size;

    public FileDecisionLog(Path file, long maxBytes, int keepFiles, int capacity, Mode mode) {
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
    public void append(DecisionRecord record) {
        if (mode == Mode.REQUIRED) {
            if (failure != null) {
                throw new DecisionLogUnavailableException("the decision log is required and cannot be written: " + failure);
            }
            try {
                if (!queue.offer(record, REQUIRED_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                    throw new DecisionLogUnavailableException("the decision log is required and its buffer is full");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new DecisionLogUnavailableException("interrupted while waiting for the decision log");
            }
        } else if (failure != null || !queue.offer(record)) {
            dropped.incrementAndGet();
        }
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
        List<DecisionRecord> batch = new ArrayList<>();
        while (!closed || !queue.isEmpty()) {
            try {
                DecisionRecord first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, 511);
                write(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (IOException | RuntimeException e) {
                failure = e.toString();
                dropped.addAndGet(batch.size());
                LOG.error("decision log {} cannot be written; {} record(s) lost: {}", file, batch.size(), e.toString());
            } finally {
                batch.clear();
            }
        }
    }

    private void write(List<DecisionRecord> batch) throws IOException {
        for (DecisionRecord record : batch) {
            DecisionRecord compact = new DecisionRecord(record.decisionId(), record.timestamp(), record.endpoint(),
                    record.requestDigest(), record.request(), record.policyRevision(), record.rulesRevision(),
                    record.outcome(), compactFiredRules(record.result()), record.durationMicros());
            byte[] line = (Documents.jsonMapper().writeValueAsString(compact) + "\n").getBytes(StandardCharsets.UTF_8);
            if (size > 0 && size + line.length > maxBytes) {
                rotate();
            }
            out.write(line);
            size += line.length;
        }
        out.flush();
        written.addAndGet(batch.size());
        failure = null;
    }

    /** In the log, a fired rule is {@code rule} (package.name), {@code order} and {@code facts}: name and package repeat it. */
    static com.fasterxml.jackson.databind.JsonNode compactFiredRules(com.fasterxml.jackson.databind.JsonNode result) {
        com.fasterxml.jackson.databind.JsonNode fired = result.path("firedRules");
        if (!fired.isArray() || fired.isEmpty() || !fired.get(0).has("name")) {
            return result;
        }
        com.fasterxml.jackson.databind.node.ObjectNode copy = ((com.fasterxml.jackson.databind.node.ObjectNode) result).deepCopy();
        copy.withArray("firedRules").forEach(rule -> ((com.fasterxml.jackson.databind.node.ObjectNode) rule).remove(java.util.List.of("name", "package")));
        return copy;
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
        out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        size = Files.size(file);
    }
}
