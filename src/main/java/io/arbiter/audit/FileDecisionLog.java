package io.arbiter.audit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Decision records as JSON lines in a file, written by one background thread from a bounded queue, rotated by
 * size ({@code FILE} -> {@code FILE.1} -> ... -> {@code FILE.N}). The queue is bounded by count and by the heap its
 * records keep (a large dependency decision keeps about 13 MB until written). A slow or full disk fills the queue;
 * then records are dropped and counted (BEST_EFFORT) or decisions are refused (REQUIRED).
 *
 * <p>Records arrive encoded (see {@link io.arbiter.audit.Audit}): the writer only gathers their lines. A write of the
 * file that fails fails the records it held, is cut back so that no half line stays, and the file is reopened for
 * the next records. In REQUIRED mode a decision is answered only once its record is written to the file (handed to
 * the operating system, not synced to disk); the decision whose record failed is refused, no other.
 */
public final class FileDecisionLog implements DecisionLog {

    private static final Logger LOG = LoggerFactory.getLogger(FileDecisionLog.class);
    /** REQUIRED mode: how long a decision waits for room in the buffer. */
    private static final long REQUIRED_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    /**
     * REQUIRED mode: how long a decision waits for its record to be written before it is refused. Far above a
     * batch's write (milliseconds; about 100 ms for the largest dependency record), far below a client's timeout.
     */
    private static final long REQUIRED_WRITE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(2);
    /**
     * After a failed write the log counts as unwritable (REQUIRED mode: not ready) until a write succeeds or this
     * long has passed: long enough for a readiness probe to take the instance out of service, short enough that
     * decisions then find out whether the file can be written again.
     */
    public static final Duration UNWRITABLE_FOR = Duration.ofSeconds(30);
    /** Default heap budget of the queue: thousands of typical records, a few of the largest. */
    public static final long DEFAULT_BUFFER_BYTES = 64L * 1024 * 1024;
    /**
     * The writer wakes on this interval rather than on every record: a wake-up per decision (a futex call on the
     * deciding thread, a context switch and a write on the other) cost more than serialising the record did.
     * A record reaches the file within about this long. In REQUIRED mode the decision waits for its record, so
     * appending wakes the writer at once.
     */
    private static final long WRITE_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    private static final int MAX_BATCH = 512;
    /** Whole lines are gathered up to about this many bytes per write of the file. */
    private static final int CHUNK_BYTES = 64 * 1024;
    /** A file that keeps failing is reported at most this often in the server log (every failure is counted). */
    private static final long IO_REPORT_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);
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
    private final AtomicLong failed = new AtomicLong();
    private final Thread writer;
    private volatile boolean closed;
    private volatile boolean writerStopped;
    private volatile LastError lastError;
    private volatile long unwritableSince;
    private volatile boolean unwritable;

    // The writer thread's own.
    private LineBuffer chunk = new LineBuffer(CHUNK_BYTES + 16 * 1024);
    private final List<Queued> chunkRecords = new ArrayList<>();
    /** The open file, or null after a failed write: reopened for the next records. */
    private FileChannel channel;
    /** The file's size after its last whole line. */
    private long size;
    private String lastIoReport;
    private long lastIoReportNanos;

    private record LastError(String message, Instant at) {
    }

    /** A record on its way to the file. */
    private static final class Queued {
        final DecisionRecord record;
        /** REQUIRED mode: completed once the record is written, or failed; null in BEST_EFFORT mode. */
        final CompletableFuture<Void> outcome;
        /** Written, failed or given up on (the writer thread's own). */
        boolean settled;

        Queued(DecisionRecord record, CompletableFuture<Void> outcome) {
            this.record = record;
            this.outcome = outcome;
        }

        /** Its decision gave up waiting and was refused: the record is not written. */
        boolean abandoned() {
            return outcome != null && outcome.isDone();
        }
    }

    /** A byte buffer whose bytes can be written to a channel without a copy. */
    private static final class LineBuffer extends ByteArrayOutputStream {
        LineBuffer(int size) {
            super(size);
        }

        ByteBuffer bytes() {
            return ByteBuffer.wrap(buf, 0, count);
        }

        int capacity() {
            return buf.length;
        }
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
        this.writer.setUncaughtExceptionHandler((thread, e) -> {
            error("the writer stopped unexpectedly (see the server log)");
            LOG.error("decision log {}: the writer stopped; no more records are written", this.file, e);
        });
        this.writer.start();
    }

    @Override
    public Receipt append(DecisionRecord record) {
        long retainedBytes = record.retainedBytes();
        if (mode == Mode.REQUIRED) {
            if (closed || writerStopped) {
                throw new DecisionLogUnavailableException("the decision log is required and its writer has stopped");
            }
            long deadline = System.nanoTime() + REQUIRED_WAIT_NANOS;
            if (!reserve(retainedBytes, true, deadline)) {
                dropped.incrementAndGet();
                throw new DecisionLogUnavailableException("the decision log is required and its buffer is full");
            }
            Queued queued = new Queued(record, new CompletableFuture<>());
            try {
                if (!queue.offer(queued, Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    queuedBytes.addAndGet(-retainedBytes);
                    dropped.incrementAndGet();
                    throw new DecisionLogUnavailableException("the decision log is required and its buffer is full");
                }
            } catch (InterruptedException e) {
                queuedBytes.addAndGet(-retainedBytes);
                Thread.currentThread().interrupt();
                throw new DecisionLogUnavailableException("interrupted while waiting for the decision log");
            }
            LockSupport.unpark(writer);
            return () -> awaitWritten(queued);
        }
        if (closed || writerStopped || !reserve(retainedBytes, false, 0)) {
            dropped.incrementAndGet();
        } else if (!queue.offer(new Queued(record, null))) {
            queuedBytes.addAndGet(-retainedBytes);
            dropped.incrementAndGet();
        }
        return NOT_AWAITED;
    }

    /** REQUIRED mode: returns once the record is written; throws when it failed or was not written in time. */
    private void awaitWritten(Queued queued) {
        try {
            queued.outcome.get(REQUIRED_WRITE_WAIT_NANOS, TimeUnit.NANOSECONDS);
            return;
        } catch (ExecutionException e) {
            throw new DecisionLogUnavailableException(e.getCause().getMessage());
        } catch (TimeoutException e) {
            giveUp(queued, "was not written within " + TimeUnit.NANOSECONDS.toSeconds(REQUIRED_WRITE_WAIT_NANOS) + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            giveUp(queued, "was not written: interrupted while waiting");
        }
        // The writer settled it while we gave up: its outcome stands.
        if (!queued.outcome.isCompletedExceptionally()) {
            return;
        }
        throw new DecisionLogUnavailableException(queued.outcome.handle((ok, failure) -> failure.getMessage()).join());
    }

    /** Refuses a decision that waited too long; the writer then leaves its record out. */
    private void giveUp(Queued queued, String what) {
        String message = "the decision log is required and this decision's record " + what;
        if (queued.outcome.completeExceptionally(new DecisionLogUnavailableException(message))) {
            failed.incrementAndGet();
            // A stalled file would refuse every decision this way: unwritable until the writer's next write succeeds.
            markUnwritable("the record of decision " + queued.record.decisionId() + " " + what);
            LOG.warn("decision log {}: the record of decision {} {}; the decision is refused", file,
                    queued.record.decisionId(), what);
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

    @Override
    public long failed() {
        return failed.get();
    }

    @Override
    public Health health() {
        LastError last = lastError;
        boolean writable = !unwritable || System.nanoTime() - unwritableSince > UNWRITABLE_FOR.toNanos();
        return new Health(true, mode, !writerStopped && writer.isAlive(), writable, written.get(), dropped.get(),
                failed.get(), last == null ? null : last.message(), last == null ? null : last.at());
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
        closeChannel();
    }

    private void drain() {
        List<Queued> batch = new ArrayList<>();
        try {
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
                } catch (Throwable e) {
                    // Not one record's fault (write settles those itself): what is left of the batch fails, and the
                    // thread goes on with the next records rather than leaving every later decision unlogged.
                    writerFailed(batch, e);
                } finally {
                    long released = 0;
                    for (Queued queued : batch) {
                        released += queued.record.retainedBytes();
                    }
                    queuedBytes.addAndGet(-released);
                    batch.clear();
                }
            }
        } finally {
            writerStopped = true;
        }
    }

    private void write(List<Queued> batch) {
        for (Queued queued : batch) {
            if (queued.abandoned()) {
                queued.settled = true;
                continue;
            }
            byte[] json = queued.record.json();
            long pending = size + chunk.size();
            if (pending > 0 && pending + json.length + 1 > maxBytes) {
                flushChunk();
                rotate();
            }
            chunk.write(json, 0, json.length);
            chunk.write('\n');
            chunkRecords.add(queued);
            if (chunk.size() >= CHUNK_BYTES) {
                flushChunk();
            }
        }
        flushChunk();
    }

    /** Writes the gathered lines in one go: all of them, or none (what a failed write left is cut off). */
    private void flushChunk() {
        if (chunkRecords.isEmpty()) {
            return;
        }
        try {
            if (channel == null) {
                open();
            }
            ByteBuffer bytes = chunk.bytes();
            int length = bytes.remaining();
            try {
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
            } catch (IOException e) {
                discardPartialWrite();
                throw e;
            }
            size += length;
            unwritable = false;
            chunkRecords.forEach(this::succeed);
        } catch (IOException e) {
            String reason = "cannot write " + file + ": " + describe(e);
            markUnwritable(reason);
            chunkRecords.forEach(queued -> fail(queued, reason));
            reportIo(reason, chunkRecords.size() + " record(s) not written, the first of decision "
                    + chunkRecords.get(0).record.decisionId());
        } finally {
            chunkRecords.clear();
            if (chunk.capacity() > 4 * CHUNK_BYTES) {
                // a large record grew it: give that back rather than keep it
                chunk = new LineBuffer(CHUNK_BYTES + 16 * 1024);
            }
            chunk.reset();
        }
    }

    /** A record is written whole or not at all: cut the file back to its last whole line, and reopen it next time. */
    private void discardPartialWrite() {
        try {
            channel.truncate(size);
        } catch (IOException | RuntimeException e) {
            // A device (such as /dev/full) or a pipe cannot be cut; a failed write left nothing in it to cut.
        }
        closeChannel();
    }

    private void succeed(Queued queued) {
        queued.settled = true;
        written.incrementAndGet();
        if (queued.outcome != null && !queued.outcome.complete(null)) {
            LOG.warn("decision log {}: decision {} was refused for waiting too long, and its record was then written",
                    file, queued.record.decisionId());
        }
    }

    private void fail(Queued queued, String reason) {
        queued.settled = true;
        // Counted before the waiting decision is woken, so that whoever it answers sees the count; taken back if
        // the decision had given up first (it counted its own failure then).
        failed.incrementAndGet();
        if (queued.outcome != null && !queued.outcome.completeExceptionally(new DecisionLogUnavailableException(
                "the decision log is required and " + reason))) {
            failed.decrementAndGet();
        }
    }

    private void writerFailed(List<Queued> batch, Throwable e) {
        String reason = "the writer failed unexpectedly (see the server log)";
        error(reason);
        LOG.error("decision log {}: the writer failed; the records of this batch not yet written are left out", file, e);
        for (Queued queued : batch) {
            if (!queued.settled) {
                fail(queued, reason);
            }
        }
        chunkRecords.clear();
        chunk.reset();
        if (channel != null) {
            discardPartialWrite();
        }
    }

    private void error(String message) {
        lastError = new LastError(message, Instant.now());
    }

    private void markUnwritable(String reason) {
        error(reason);
        unwritableSince = System.nanoTime();
        unwritable = true;
    }

    /** A file that keeps failing would log every few milliseconds: a new reason at once, the same one now and then. */
    private void reportIo(String reason, String what) {
        long now = System.nanoTime();
        if (!reason.equals(lastIoReport) || now - lastIoReportNanos > IO_REPORT_INTERVAL_NANOS) {
            LOG.error("decision log: {}; {} (failed so far: {})", reason, what, failed.get());
            lastIoReport = reason;
            lastIoReportNanos = now;
        }
    }

    /** An I/O failure in our words: the operating system's reason, without the exception's class. */
    private static String describe(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof DirectoryNotEmptyException notEmpty) {
            return "a directory that is not empty is in the way: " + notEmpty.getFile();
        }
        if (e instanceof FileSystemException fileSystem) {
            return fileSystem.getReason() != null ? fileSystem.getReason() : "the file system refused " + fileSystem.getFile();
        }
        return e.getMessage() != null ? e.getMessage() : "input/output error";
    }

    /** Moves the full file aside; if that fails, the records go on into the unrotated file and it is tried again. */
    private void rotate() {
        try {
            closeChannel();
            for (int i = keepFiles - 1; i >= 1; i--) {
                Path older = sibling(i);
                if (Files.exists(older)) {
                    Files.move(older, sibling(i + 1), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            Files.move(file, sibling(1), StandardCopyOption.REPLACE_EXISTING);
            open();
        } catch (IOException e) {
            String reason = "cannot rotate " + file + ": " + describe(e);
            markUnwritable(reason);
            reportIo(reason, "records go on into the unrotated file");
        }
    }

    private Path sibling(int index) {
        return file.resolveSibling(file.getFileName() + "." + index);
    }

    private void open() throws IOException {
        channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        size = channel.size();
    }

    private void closeChannel() {
        if (channel == null) {
            return;
        }
        try {
            channel.close();
        } catch (IOException e) {
            LOG.warn("closing decision log {}: {}", file, e.toString());
        }
        channel = null;
    }
}
