package io.arbiter.audit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * What every decision-log sink shares: one background thread takes records, already encoded by {@link Audit}, from
 * a bounded queue and hands them in batches to the sink, which only writes bytes ({@link #write}). The queue is
 * bounded by count and by its records' bytes. A slow or unreachable sink fills the queue; then records are dropped
 * and counted (BEST_EFFORT) or decisions are refused (REQUIRED). In REQUIRED mode a decision is answered only once
 * the sink has settled its record as written; the decision whose record failed is refused, no other. Counters,
 * health and the server-log reports are the same for every sink.
 */
public abstract class QueuedDecisionLog implements DecisionLog {

    /**
     * REQUIRED mode: how long a decision waits on the log before it is refused.
     *
     * @param forRoom  for room in the buffer
     * @param forWrite for its record to be written
     */
    public record RequiredWaits(Duration forRoom, Duration forWrite) {

        /**
         * 200 ms for room; 2 s for the write: far above a batch's write (milliseconds; about 100 ms for the largest
         * dependency record), far below a client's timeout.
         */
        public static final RequiredWaits DEFAULT = new RequiredWaits(Duration.ofMillis(200), Duration.ofSeconds(2));

        public RequiredWaits {
            if (forRoom.isNegative() || forWrite.isNegative() || forWrite.isZero()) {
                throw new IllegalArgumentException("the decision log's waits cannot be negative, nor the write's zero: "
                        + forRoom + ", " + forWrite);
            }
        }
    }

    /**
     * After a failed write the log counts as unwritable (REQUIRED mode: not ready) until a write succeeds or this
     * long has passed: long enough for a readiness probe to take the instance out of service, short enough that
     * decisions then find out whether the sink can be written again.
     */
    public static final Duration UNWRITABLE_FOR = Duration.ofSeconds(30);
    /** Default heap budget of the queue: thousands of typical records, a few of the largest. */
    public static final long DEFAULT_BUFFER_BYTES = 64L * 1024 * 1024;
    /**
     * The writer wakes on this interval rather than on every record: a wake-up per decision (a futex call on the
     * deciding thread, a context switch and a write on the other) cost more than serialising the record did.
     * A record reaches the sink within about this long. In REQUIRED mode the decision waits for its record, so
     * appending wakes the writer at once.
     */
    private static final long WRITE_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    private static final int MAX_BATCH = 512;
    /** A sink that keeps failing is reported at most this often in the server log (every failure is counted). */
    private static final long IO_REPORT_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** The subclass's logger: reports name the sink's class. */
    protected final Logger log = LoggerFactory.getLogger(getClass());
    private final Mode mode;
    private final long bufferBytes;
    private final long roomWaitNanos;
    private final long writeWaitNanos;
    private final String writeWaitText;
    private final BlockingQueue<Entry> queue;
    /** The estimated heap of the queued records, reserved before a record is queued and released once written. */
    private final AtomicLong queuedBytes = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private Thread writer;
    private volatile boolean closed;
    private volatile boolean writerStopped;
    private volatile LastError lastError;
    private volatile long unwritableSince;
    private volatile boolean unwritable;
    private volatile Runnable counted = () -> { };

    // The writer thread's own.
    private String lastIoReport;
    private long lastIoReportNanos;

    private record LastError(String message, Instant at) {
    }

    /**
     * A record on its way to the sink. The sink reads {@link #json} (the whole record, one JSON object, no line end),
     * and may key or report by {@link #decisionId} and {@link #policyRevision}.
     */
    protected static final class Entry {
        private final DecisionRecord record;
        /** REQUIRED mode: completed once the record is written, or failed; null in BEST_EFFORT mode. */
        private final CompletableFuture<Void> outcome;
        /** Written, failed or given up on (the writer thread's own). */
        private boolean settled;

        Entry(DecisionRecord record, CompletableFuture<Void> outcome) {
            this.record = record;
            this.outcome = outcome;
        }

        public String decisionId() {
            return record.decisionId();
        }

        public String policyRevision() {
            return record.policyRevision();
        }

        public byte[] json() {
            return record.json();
        }

        /** Its decision gave up waiting and was refused: the record is not written. */
        boolean abandoned() {
            return outcome != null && outcome.isDone();
        }
    }

    /**
     * @param capacity    records the queue holds at most
     * @param bufferBytes estimated heap the queued records may keep; one record is queued whatever its size
     */
    protected QueuedDecisionLog(int capacity, long bufferBytes, Mode mode) {
        this(capacity, bufferBytes, mode, RequiredWaits.DEFAULT);
    }

    protected QueuedDecisionLog(int capacity, long bufferBytes, Mode mode, RequiredWaits waits) {
        if (capacity < 1 || bufferBytes < 1) {
            throw new IllegalArgumentException("the decision log's buffer needs room for one record: capacity "
                    + capacity + ", bytes " + bufferBytes);
        }
        this.bufferBytes = bufferBytes;
        this.mode = mode;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.roomWaitNanos = waits.forRoom().toNanos();
        this.writeWaitNanos = waits.forWrite().toNanos();
        long millis = waits.forWrite().toMillis();
        this.writeWaitText = millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }

    /**
     * Runs {@code listener} after each change of the written, failed or dropped count, once {@link #health()} shows
     * it, on the thread that made it (the writer, or a deciding thread): it must be quick.
     */
    public final void onCounted(Runnable listener) {
        this.counted = listener;
    }

    /** Starts the writer: the subclass calls it once its sink is open, at the end of its constructor. */
    protected final void start() {
        writer = new Thread(this::drain, "arbiter-decision-log");
        writer.setDaemon(true);
        writer.setUncaughtExceptionHandler((thread, e) -> {
            error("the writer stopped unexpectedly (see the server log)");
            log.error("decision log {}: the writer stopped; no more records are written", describe(), e);
        });
        writer.start();
    }

    /**
     * Writes the batch's records, in order, and settles every one of them with {@link #written} or {@link #failed}
     * before returning: the sink's one job. Called on the writer thread only; a throw fails what is left unsettled.
     */
    protected abstract void write(List<Entry> batch);

    /** Releases the sink once the writer has stopped. */
    protected abstract void closeSink();

    /** Where the records go, for messages: {@code /var/log/arbiter/decisions.log}, {@code Kafka topic t}. */
    protected abstract String describe();

    @Override
    public boolean waitsForWrites() {
        return mode == Mode.REQUIRED;
    }

    @Override
    public Receipt append(DecisionRecord record) {
        if (mode == Mode.REQUIRED) {
            if (closed || writerStopped) {
                throw new DecisionLogUnavailableException("the decision log is required and its writer has stopped");
            }
            Entry entry = new Entry(record, new CompletableFuture<>());
            if (!enqueue(entry, true, System.nanoTime() + roomWaitNanos)) {
                drop();
                throw new DecisionLogUnavailableException("the decision log is required and its buffer is full");
            }
            LockSupport.unpark(writer);
            return () -> awaitWritten(entry);
        }
        if (closed || writerStopped || !enqueue(new Entry(record, null), false, 0)) {
            drop();
        }
        return NOT_AWAITED;
    }

    /**
     * Reserves the record's bytes and queues it, if {@code waits} waiting until {@code deadline} ({@link
     * System#nanoTime}); false, with nothing reserved, when there is no room.
     */
    private boolean enqueue(Entry entry, boolean waits, long deadline) {
        long retainedBytes = entry.record.retainedBytes();
        if (!reserve(retainedBytes, waits, deadline)) {
            return false;
        }
        try {
            if (waits ? queue.offer(entry, Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)
                    : queue.offer(entry)) {
                return true;
            }
        } catch (InterruptedException e) {
            queuedBytes.addAndGet(-retainedBytes);
            Thread.currentThread().interrupt();
            throw new DecisionLogUnavailableException("interrupted while waiting for the decision log");
        }
        queuedBytes.addAndGet(-retainedBytes);
        return false;
    }

    private void drop() {
        dropped.incrementAndGet();
        counted.run();
    }

    /** REQUIRED mode: returns once the record is written; throws when it failed or was not written in time. */
    private void awaitWritten(Entry entry) {
        try {
            entry.outcome.get(writeWaitNanos, TimeUnit.NANOSECONDS);
            return;
        } catch (ExecutionException e) {
            throw new DecisionLogUnavailableException(e.getCause().getMessage());
        } catch (TimeoutException e) {
            giveUp(entry, "was not written within " + writeWaitText);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            giveUp(entry, "was not written: interrupted while waiting");
        }
        // The writer settled it while we gave up: its outcome stands.
        if (!entry.outcome.isCompletedExceptionally()) {
            return;
        }
        throw new DecisionLogUnavailableException(entry.outcome.handle((ok, failure) -> failure.getMessage()).join());
    }

    /** Refuses a decision that waited too long; the writer then leaves its record out if it has not sent it yet. */
    private void giveUp(Entry entry, String what) {
        String message = "the decision log is required and this decision's record " + what;
        if (entry.outcome.completeExceptionally(new DecisionLogUnavailableException(message))) {
            failed.incrementAndGet();
            // A stalled sink would refuse every decision this way: unwritable until the writer's next write succeeds.
            trouble("the record of decision " + entry.decisionId() + " " + what);
            log.warn("decision log {}: the record of decision {} {}; the decision is refused", describe(),
                    entry.decisionId(), what);
            counted.run();
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
    public Health health() {
        LastError last = lastError;
        boolean writable = !unwritable || System.nanoTime() - unwritableSince > UNWRITABLE_FOR.toNanos();
        return new Health(true, mode, !writerStopped && writer.isAlive(), writable, written.get(), dropped.get(),
                failed.get(), last == null ? null : last.message(), last == null ? null : last.at());
    }

    /** Writes what is queued, then stops the writer and releases the sink. */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(writer);
        try {
            writer.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeSink();
    }

    private void drain() {
        List<Entry> batch = new ArrayList<>();
        List<Entry> toWrite = new ArrayList<>();
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
                    for (Entry entry : batch) {
                        if (entry.abandoned()) {
                            entry.settled = true;
                        } else {
                            toWrite.add(entry);
                        }
                    }
                    if (!toWrite.isEmpty()) {
                        write(toWrite);
                    }
                } catch (Throwable e) {
                    // Not one record's fault (write settles those itself): what is left of the batch
                    // fails, and the thread goes on with the next records rather than leaving every later decision
                    // unlogged.
                    writerFailed(batch, e);
                } finally {
                    queuedBytes.addAndGet(-batch.stream().mapToLong(entry -> entry.record.retainedBytes()).sum());
                    batch.clear();
                    toWrite.clear();
                }
            }
        } finally {
            writerStopped = true;
        }
    }

    /** The sink has the record: counted, and its decision (if one waits) answered. */
    protected final void written(Entry entry) {
        entry.settled = true;
        unwritable = false;
        written.incrementAndGet();
        if (entry.outcome != null && !entry.outcome.complete(null)) {
            log.warn("decision log {}: decision {} was refused for waiting too long, and its record was then written",
                    describe(), entry.decisionId());
        }
        counted.run();
    }

    /**
     * The sink could not write the record: counted, the log unwritable until a write succeeds, and its decision (if
     * one waits) refused with {@code reason}, which is in our words. The sink reports it in the server log once per
     * batch with {@link #reportFailure}.
     */
    protected final void failed(Entry entry, String reason) {
        trouble(reason);
        settleFailed(entry, reason);
    }

    private void settleFailed(Entry entry, String reason) {
        entry.settled = true;
        // Counted before the waiting decision is woken, so that whoever it answers sees the count; taken back if
        // the decision had given up first (it counted its own failure then).
        failed.incrementAndGet();
        if (entry.outcome != null && !entry.outcome.completeExceptionally(new DecisionLogUnavailableException(
                "the decision log is required and " + reason))) {
            failed.decrementAndGet();
        }
        counted.run();
    }

    /**
     * The log is unwritable until a write succeeds: a failed record, or a sink trouble that fails none (a failed
     * rotation, say), shown in health.
     */
    protected final void trouble(String reason) {
        error(reason);
        unwritableSince = System.nanoTime();
        unwritable = true;
    }

    /** A sink that keeps failing would log every few milliseconds: a new reason at once, the same one now and then. */
    protected final void reportFailure(String reason, String what) {
        long now = System.nanoTime();
        if (!reason.equals(lastIoReport) || now - lastIoReportNanos > IO_REPORT_INTERVAL_NANOS) {
            log.error("decision log: {}; {} (failed so far: {})", reason, what, failed.get());
            lastIoReport = reason;
            lastIoReportNanos = now;
        }
    }

    /** Called by {@link #writerFailed} after the batch's records failed: the sink drops what it half wrote. */
    protected void recover() {
    }

    private void writerFailed(List<Entry> batch, Throwable e) {
        String reason = "the writer failed unexpectedly (see the server log)";
        error(reason);
        log.error("decision log {}: the writer failed; the records of this batch not yet written are left out",
                describe(), e);
        for (Entry entry : batch) {
            if (!entry.settled) {
                settleFailed(entry, reason);
            }
        }
        recover();
    }

    private void error(String message) {
        lastError = new LastError(message, Instant.now());
    }
}
