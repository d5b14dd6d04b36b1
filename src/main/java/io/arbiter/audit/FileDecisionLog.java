package io.arbiter.audit;

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

/**
 * Decision records as JSON lines in a file, rotated by size ({@code FILE} -> {@code FILE.1} -> ... ->
 * {@code FILE.N}); the queue, modes and counters are {@link QueuedDecisionLog}'s. A write of the file that fails
 * fails the records it held, is cut back so that no half line stays, and the file is reopened for the next records.
 * In REQUIRED mode a record counts as written once it is handed to the operating system (not synced to disk).
 */
public final class FileDecisionLog extends LineDecisionLog {

    private final Path file;
    private final long maxBytes;
    private final int keepFiles;

    // The writer thread's own.
    /** The open file, or null after a failed write: reopened for the next records. */
    private FileChannel channel;
    /** The file's size after its last whole line. */
    private long size;

    public FileDecisionLog(Path file, long maxBytes, int keepFiles, int capacity, Mode mode) {
        this(file, maxBytes, keepFiles, capacity, DEFAULT_BUFFER_BYTES, mode);
    }

    /**
     * @param maxBytes    size at which the file is rotated
     * @param capacity    records the queue holds at most
     * @param bufferBytes estimated heap the queued records may keep; one record is queued whatever its size
     */
    public FileDecisionLog(Path file, long maxBytes, int keepFiles, int capacity, long bufferBytes, Mode mode) {
        this(file, maxBytes, keepFiles, capacity, bufferBytes, mode, RequiredWaits.DEFAULT);
    }

    /** @param waits how long a decision waits on the log in REQUIRED mode */
    public FileDecisionLog(Path file, long maxBytes, int keepFiles, int capacity, long bufferBytes, Mode mode,
                           RequiredWaits waits) {
        super(capacity, bufferBytes, mode, waits);
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

    /** A line that would take the file past its size rotates it first (a file holds one line at least). */
    @Override
    protected void beforeLine(int length) {
        long pending = size + pendingBytes();
        if (pending > 0 && pending + length > maxBytes) {
            flushChunk();
            rotate();
        }
    }

    @Override
    protected void writeChunk(ByteBuffer lines) throws IOException {
        if (channel == null) {
            open();
        }
        int length = lines.remaining();
        try {
            while (lines.hasRemaining()) {
                channel.write(lines);
            }
        } catch (IOException e) {
            discardPartialWrite();
            throw e;
        }
        size += length;
    }

    @Override
    protected String writeFailure(IOException e) {
        return "cannot write " + file + ": " + describe(e);
    }

    @Override
    protected void recover() {
        super.recover();
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
