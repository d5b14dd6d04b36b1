package io.arbiter.audit;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * Decision records as JSON lines on standard output, for a cluster's log collector (the server's own log goes to
 * standard error). The queue, modes and counters are {@link QueuedDecisionLog}'s. A record counts as written once
 * the operating system has taken its line: what the collector does with it then is the collector's affair.
 */
public final class StdoutDecisionLog extends LineDecisionLog {

    private final WritableByteChannel out;
    private final String name;

    /** A failed write left part of a line: the next write ends it first, so that the lines after it stay whole. */
    private boolean partialLine;

    /** Records on this process's standard output (file descriptor 1, whatever {@code System.out} was set to). */
    public static StdoutDecisionLog open(int capacity, long bufferBytes, Mode mode) {
        return new StdoutDecisionLog(new FileOutputStream(FileDescriptor.out).getChannel(), "standard output",
                capacity, bufferBytes, mode);
    }

    /** @param name names {@code out} in messages */
    StdoutDecisionLog(WritableByteChannel out, String name, int capacity, long bufferBytes, Mode mode) {
        super(capacity, bufferBytes, mode, RequiredWaits.DEFAULT);
        this.out = out;
        this.name = name;
        start();
    }

    @Override
    protected String describe() {
        return name;
    }

    @Override
    protected void writeChunk(ByteBuffer lines) throws IOException {
        if (partialLine) {
            writeFully(ByteBuffer.wrap(new byte[]{'\n'}));
            partialLine = false;
        }
        int length = lines.remaining();
        try {
            writeFully(lines);
        } catch (IOException e) {
            partialLine = lines.remaining() != length;
            throw e;
        }
    }

    @Override
    protected String writeFailure(IOException e) {
        return "cannot write to " + name + ": " + FileDecisionLog.describe(e);
    }

    private void writeFully(ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            out.write(bytes);
        }
    }

    /** Standard output stays open: the process's other users (and its exit) close it. */
    @Override
    protected void closeSink() {
    }
}
