package io.arbiter.archive;

/** The snapshot archive cannot be read or written as asked: the message names the file or revision and why. */
public final class ArchiveException extends RuntimeException {

    public ArchiveException(String message) {
        super(message);
    }

    public ArchiveException(String message, Throwable cause) {
        super(message, cause);
    }
}
