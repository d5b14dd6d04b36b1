package io.arbiter.audit;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * Decision records as JSON lines on standard output, for a cluster's log collector (the server's own log goes to
 * standard error). The queue, modes and counters are {@link QueuedDecisionLog}'s. A record counts as written once
 * the operating system has taken its line: what the collector does with it then is the collector's affair.
 */
public final class StdoutDecisionLog extends QueuedDecisionLog {

    /** Whole lines are gathered up to about this many bytes per write. */
    private static final int CHUNK_BYTES = 64 * 1024;
    /** A buffer grown beyond this by a large record is given back rather than kept. */
    private static final int KEPT_BUFFER_BYTES = 1024 * 1024;

    private final WritableByteChannel out;
    private final String name;

    // The writer thread's own.
    private FileDecisionLog.LineBuffer chunk = new FileDecisionLog.LineBuffer(CHUNK_BYTES + 16 * 1024);
    private final List<Entry> chunkRecords = new ArrayList<>();
    /** A failed write left part of a line: the next write ends it first, so that the lines after it stay whole. */
    private boolean partialLine;

    /** Records on this process's standard output (file descriptor 1, whatever {@code System.out} was set to). */
    public static StdoutDecisionLog open(int capacity, long bufferBytes, Mode mode) {
        return new StdoutDecisionLog(new FileOutputStream(FileDescriptor.out).getChannel(), "standard output",
                capacity, bufferBytes, mode);
    }

    /** @param name names {@code out} in messages */
    StdoutDecisionLog(WritableByteChannel out, String name, int capacity, long bufferBytes, Mode mode) {
        super(capacity, bufferBytes, mode);
        this.out = out;
        this.name = name;
        start();
    }

    @Override
    protected String describe() {
        return name;
    }

    @Override
    protected void write(List<Entry> batch) {
        for (Entry entry : batch) {
            chunk.line(entry.json());
            chunkRecords.add(entry);
            if (chunk.size() >= CHUNK_BYTES) {
                flushChunk();
            }
        }
        flushChunk();
    }

    private void flushChunk() {
        if (chunkRecords.isEmpty()) {
            return;
        }
        try {
            if (partialLine) {
                writeFully(ByteBuffer.wrap(new byte[]{'\n'}));
                partialLine = false;
            }
            ByteBuffer bytes = chunk.bytes();
            int length = bytes.remaining();
            try {
                writeFully(bytes);
            } catch (IOException e) {
                partialLine = bytes.remaining() != length;
                throw e;
            }
            chunkRecords.forEach(this::written);
        } catch (IOException e) {
            String reason = "cannot write to " + name + ": " + FileDecisionLog.describe(e);
            chunkRecords.forEach(entry -> failed(entry, reason));
            reportFailure(reason, chunkRecords.size() + " record(s) not written, the first of decision "
                    + chunkRecords.get(0).decisionId());
        } finally {
            chunkRecords.clear();
            if (chunk.capacity() > KEPT_BUFFER_BYTES) {
                chunk = new FileDecisionLog.LineBuffer(CHUNK_BYTES + 16 * 1024);
            }
            chunk.reset();
        }
    }

    private void writeFully(ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            out.write(bytes);
        }
    }

    @Override
    protected void recover() {
        chunkRecords.clear();
        chunk.reset();
    }

    /** Standard output stays open: the process's other users (and its exit) close it. */
    @Override
    protected void closeSink() {
    }
}
