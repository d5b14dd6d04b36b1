package io.arbiter.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Finds the folders that hold rules, tables and embedded data: on disk, or packaged inside the jar. */
public final class RuleFiles {

    private RuleFiles() {
    }

    /** The classpath folder {@code name} as a {@link Path}, whether the classpath is a folder or a jar. */
    public static Path classpathFolder(String name) {
        URL url = RuleFiles.class.getClassLoader().getResource(name);
        if (url == null) {
            throw new IllegalStateException("classpath folder '" + name + "' is missing from the build");
        }
        try {
            URI uri = url.toURI();
            if ("jar".equals(uri.getScheme())) {
                return jarFileSystem(uri).provider().getPath(uri);
            }
            return Path.of(uri);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("bad classpath location " + url, e);
        }
    }

    /** Like {@link #classpathFolder(String)}, but a missing folder is an empty path rather than an error. */
    public static Path optionalClasspathFolder(String name) {
        return RuleFiles.class.getClassLoader().getResource(name) == null ? Path.of("/nonexistent/" + name) : classpathFolder(name);
    }

    private static synchronized FileSystem jarFileSystem(URI uri) {
        try {
            return FileSystems.newFileSystem(uri, Map.of());
        } catch (FileSystemAlreadyExistsException e) {
            return FileSystems.getFileSystem(uri);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Regular files directly or deeper under {@code folder}, sorted by path; none when the folder is absent. */
    public static List<Path> filesUnder(Path folder) {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(Files::isRegularFile).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
