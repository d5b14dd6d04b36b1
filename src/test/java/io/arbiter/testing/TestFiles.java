package io.arbiter.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
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

    /**
     * Removes the row of a CSV decision table whose first cell is {@code name}, failing when there is none (the
     * packaged table has changed, and the test would no longer test what it says).
     */
    public static void dropRow(Path table, String name) throws IOException {
        List<String> lines = Files.readAllLines(table);
        List<String> kept = lines.stream().filter(line -> !line.startsWith(name + ",")).toList();
        if (kept.size() != lines.size() - 1) {
            throw new IllegalStateException(table + " has no row named '" + name + "': pick another row to drop");
        }
        Files.write(table, kept);
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
