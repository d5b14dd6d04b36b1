package io.arbiter.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Folder trees for tests that work on files: copies of the rules, a hub, an archive. */
public final class TestFiles {

    private TestFiles() {
    }

    /**
     * Copies every file below {@code from} to the same place below {@code to} and returns {@code to}. A file already
     * at its target is kept, so a second tree copied into the same folder adds to the first (the test plugin's rules
     * next to the packaged ones).
     */
    public static Path copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else if (!Files.exists(target)) {
                    Files.copy(file, target);
                }
            }
        }
        return to;
    }

    /** Deletes {@code folder} and everything below it. */
    public static void deleteTree(Path folder) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }
}
