package io.arbiter.audit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A decision log that writes records as JSON lines to a byte stream (a file, standard output): a batch is gathered
 * into chunks of whole lines, each written in one go, and every record of a chunk is then written or failed together.
 * Subclasses say how a chunk is written and may act before a line is added (a file rotates).
 */
abstract class LineDecisionLog extends QueuedDecisionLog {

    /** Whole lines are gathered up to about this many bytes per write. */
    private static final int CHUNK_BYTES = 64 * 1024;
    /** A buffer grown beyond this by a large record is given back rather than kept. */
    private static final int KEPT_BUFFER_BYTES = 1024 * 1024;

    // The writer thread's own.
    private LineBuffer chunk = new LineBuffer(CHUNK_BYTES + 16 * 1024);
    private final List<Entry> chunkRecords = new ArrayList<>();

    /** A byte buffer whose bytes can be written to a channel without a copy. */
    static final class LineBuffer extends ByteArrayOutputStream {
        LineBuffer(int size) {
            super(size);
        }

        ByteBuffer bytes() {
            return ByteBuffer.wrap(buf, 0, count);
        }

        void line(byte[] json) {
            write(json, 0, json.length);
            write('\n');
        }

        int capacity() {
            return buf.length;
        }
    }

    LineDecisionLog(int capacity, long bufferBytes, Mode mode, RequiredWaits waits) {
        super(capacity, bufferBytes, mode, waits);
    }

    /** Writes every byte of a chunk of whole lines, or throws (a subclass cleans up what a failed write left). */
    protected abstract void writeChunk(ByteBuffer lines) throws IOException;

    /** Why a write failed, in words naming the destination. */
    protected abstract String writeFailure(IOException e);

    /** Called before a line of {@code length} bytes joins the lines gathered so far ({@link #pendingBytes}). */
    protected void beforeLine(int length) {
    }

    /** Bytes gathered and not yet written. */
    protected final int pendingBytes() {
        return chunk.size();
    }

    @Override
    protected final void write(List<Entry> batch) {
        for (Entry entry : batch) {
            beforeLine(entry.json().length + 1);
            chunk.line(entry.json());
            chunkRecords.add(entry);
            if (chunk.size() >= CHUNK_BYTES) {
                flushChunk();
            }
        }
        flushChunk();
    }

    /** Writes the gathered lines in one go: every record of them is written, or every one failed. */
    protected final void flushChunk() {
        if (chunkRecords.isEmpty()) {
            return;
        }
        try {
            writeChunk(chunk.bytes());
            chunkRecords.forEach(this::written);
        } catch (IOException e) {
            String reason = writeFailure(e);
            chunkRecords.forEach(entry -> failed(entry, reason));
            reportFailure(reason, chunkRecords.size() + " record(s) not written, the first of decision "
                    + chunkRecords.get(0).decisionId());
        } finally {
            chunkRecords.clear();
            if (chunk.capacity() > KEPT_BUFFER_BYTES) {
                chunk = new LineBuffer(CHUNK_BYTES + 16 * 1024);
            }
            chunk.reset();
        }
    }

    @Override
    protected void recover() {
        chunkRecords.clear();
        chunk.reset();
    }
}
