package io.arbiter.archive;

import io.arbiter.decision.Snapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Archives each snapshot that goes live ({@code serve --snapshot-archive}) on a thread of its own, so that neither a
 * decision, a reload nor a policy replacement waits for the disk. A failed write is logged and counted, never thrown:
 * the snapshot serves all the same.
 */
public final class ArchiveWriter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ArchiveWriter.class);
    /** Snapshots waiting to be written; more are counted as failed (each holds its rule bases until written). */
    private static final int QUEUED = 16;

    private final SnapshotArchive archive;
    private final ThreadPoolExecutor executor;
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private volatile Runnable settled = () -> { };

    public ArchiveWriter(SnapshotArchive archive) {
        this.archive = archive;
        this.executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(QUEUED), runnable -> {
            Thread thread = new Thread(runnable, "arbiter-snapshot-archive");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Archives {@code snapshot} as live from now, in the background. */
    public void archive(Snapshot snapshot) {
        Instant wentLive = Instant.now();
        try {
            executor.execute(() -> write(snapshot, wentLive));
        } catch (RejectedExecutionException e) {
            failed.incrementAndGet();
            LOG.warn("snapshot {} was not archived: {} snapshots are already waiting to be written", snapshot.revision(), QUEUED);
            settled.run();
        }
    }

    /**
     * Runs {@code listener} after each snapshot is archived or fails to be, once {@link #written} or {@link #failed}
     * counts it, on the thread that counted it.
     */
    public void onSettled(Runnable listener) {
        this.settled = listener;
    }

    private void write(Snapshot snapshot, Instant wentLive) {
        long started = System.nanoTime();
        try {
            archive.write(snapshot, wentLive);
            written.incrementAndGet();
            LOG.info("snapshot {} archived in {} in {} ms", snapshot.revision(), archive.dir(), (System.nanoTime() - started) / 1_000_000);
        } catch (Exception | StackOverflowError e) {
            failed.incrementAndGet();
            LOG.warn("snapshot {} could not be archived in {}: {}", snapshot.revision(), archive.dir(), e.toString());
        }
        settled.run();
    }

    /** Snapshots archived so far. */
    public long written() {
        return written.get();
    }

    /** Snapshots that could not be archived. */
    public long failed() {
        return failed.get();
    }

    /** Writes what is waiting (for a few seconds at most), then stops. */
    @Override
    public void close() {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("the snapshot archive did not finish writing within 10 s");
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
