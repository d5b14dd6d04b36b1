package io.arbiter.document;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One located problem in a document: a JSON-path-like {@code path} ({@code $.interface.rules[2].oneOf[0]}),
 * what is wrong, and for text input the line and column (1-based) where known.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String path, String problem, Integer line, Integer column) {

    public static Problem at(String path, String problem) {
        return new Problem(path, problem, null, null);
    }

    public Problem locatedBy(Locations locations) {
        if (line != null || locations == null) {
            return this;
        }
        Locations.Location location = locations.nearest(path);
        return location == null ? this : new Problem(path, problem, location.line(), location.column());
    }

    /** The same problem with its path moved under {@code prefix} (e.g. {@code $.actionPolicy}). */
    public Problem under(String prefix) {
        return new Problem(prefix + path.substring(1), problem, line, column);
    }

    @Override
    public String toString() {
        return path + (line == null ? "" : " (line " + line + ", column " + column + ")") + ": " + problem;
    }
}
