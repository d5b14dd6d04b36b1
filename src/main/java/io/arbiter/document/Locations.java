package io.arbiter.document;

import java.util.Map;

/** Where each JSON path of a parsed document starts in its source text. */
public final class Locations {

    public record Location(int line, int column) {
    }

    private final Map<String, Location> byPath;

    Locations(Map<String, Location> byPath) {
        this.byPath = Map.copyOf(byPath);
    }

    public static Locations none() {
        return new Locations(Map.of());
    }

    /** The location of {@code path}, or of its closest ancestor that has one. */
    public Location nearest(String path) {
        String current = path;
        while (current != null && !current.isEmpty()) {
            Location location = byPath.get(current);
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
