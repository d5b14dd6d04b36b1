package io.arbiter.document;

import java.util.Map;
import java.util.function.Supplier;

/**
 * Where each JSON path of a parsed document starts in its source text. Found lazily: a document is read without
 * them, and read again, locating, the first time a location is asked for (only to report a problem).
 */
public final class Locations {

    public record Location(int line, int column) {
    }

    private Supplier<Locations> source;
    private Map<String, Location> byPath;

    Locations(Map<String, Location> byPath) {
        this.byPath = Map.copyOf(byPath);
    }

    private Locations(Supplier<Locations> source) {
        this.source = source;
    }

    /** Locations found by {@code source} when first asked for. */
    static Locations lazily(Supplier<Locations> source) {
        return new Locations(source);
    }

    private synchronized Map<String, Location> byPath() {
        if (byPath == null) {
            byPath = source.get().byPath();
            source = null;
        }
        return byPath;
    }

    /** The location of {@code path}, or of its closest ancestor that has one. */
    public Location nearest(String path) {
        String current = path;
        while (current != null && !current.isEmpty()) {
            Location location = byPath().get(current);
            if (location != null) {
                return location;
            }
            current = parent(current);
        }
        return null;
    }

    private static String parent(String path) {
        int cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
        return cut <= 0 ? null : path.substring(0, cut);
    }
}
