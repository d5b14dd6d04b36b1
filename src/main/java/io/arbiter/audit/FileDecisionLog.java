package io.arbiter.audit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
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
import java.util.ArrayList;
import java.util.List;

/**
 * Decision records as JSON lines in a file, rotated by size ({@code FILE} -> {@code FILE.1} -> ... ->
 * {@code FILE.N}); the queue, modes and counters are {@link QueuedDecisionLog}'s. A write of the file that fails
 * fails the records it held, is cut back so that no half line stays, and the file is reopened for the next records.
 * In REQUIRED mode a record counts as written once it is handed to the operating system (not synced to disk).
 */
public final class FileDecisionLog extends QueuedDecisionLog {

    /** Whole lines are gathered up to about this many bytes per write of the file. */
    private static final int CHUNK_BYTES = 64 * 1024;
    /** A buffer grown beyond this by a large record is given back rather than kept. */
    private static final int KEPT_BUFFER_BYTES = 1024 * 1024;

    private final Path file;
    private final long maxBytes;
    private final int keepFiles;

    // The writer thread's own.
    private LineBuffer chunk = new LineBuffer(CHUNK_BYTES + 16 * 1024);
    private final List<Entry> chunkRecords = new ArrayList<>();
    /** The open file, or null after a failed write: reopened for the next records. */
    private FileChannel channel;
    /** The file's size after its last whole line. */
    private long size;

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

    public FileDecisionLog(Path file, long maxBytes, int keepFiles, int capacity, Mode mode) {
        this(file, maxBytes, keepFiles, capacity, DEFAULT_BUFFER_BYTES, mode);
    }

    /**
     * @param maxBytes    size at which the file is rotated
     * @param capacity    records the queue holds at most
     * @param bufferBytes estimated heap the queued records may keep; one record is queued whatever its size
     */
    public FileDecisionLog(Path file, long maxBytes, int keepFiles, int capacity, long bufferBytes, Mode mode) {
        super(capacity, bufferBytes, mode);
        this.file = file.toAbsolutePath();
        this.maxBytes = maxBytes;
        this.keepFiles = keepFiles;
        try {
            Path parent = this.file.getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            open();
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot open decision log " + this.file + ": " + e.getMessage(), e);
        }
        start();
    }

    @Override
    protected String describe() {
        return file.toString();
    }

    @Override
    protected void write(List<Entry> batch) {
        for (Entry entry : batch) {
            int length = entry.json().length + 1;
            long pending = size + chunk.size();
            if (pending > 0 && pending + length > maxBytes) {
                flushChunk();
                rotate();
            }
            chunk.line(entry.json());
            chunkRecords.add(entry);
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
            chunkRecords.forEach(this::written);
        } catch (IOException e) {
            String reason = "cannot write " + file + ": " + describe(e);
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
        if (channel != null) {
            discardPartialWrite();
        }
    }

    /** A record is written whole or not at all: cut the file back to its last whole line, and reopen it next time. */
    private void discardPartialWrite() {
        try {
            channel.truncate(size);
        } catch (IOException | RuntimeException e) {
            // A device (such as /dev/full) or a pipe cannot be cut; a failed write left nothing in it to cut.
        }
        closeSink();
    }

    /** An I/O failure in our words: the operating system's reason, without the exception's class. */
    static String describe(IOException e) {
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
            closeSink();
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
            trouble(reason);
            reportFailure(reason, "records go on into the unrotated file");
        }
    }

    private Path sibling(int index) {
        return file.resolveSibling(file.getFileName() + "." + index);
    }

    private void open() throws IOException {
        channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        size = channel.size();
    }

    @Override
    protected void closeSink() {
        if (channel == null) {
            return;
        }
        try {
            channel.close();
        } catch (IOException e) {
            log.warn("closing decision log {}: {}", file, e.toString());
        }
        channel = null;
    }
}
