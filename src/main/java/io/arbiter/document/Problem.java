package io.arbiter.document;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonLocation;

/**
 * One located problem in a document: a JSON-path-like {@code path} ({@code $.interface.rules[2].oneOf[0]}),
 * what is wrong, and for text input the line and column (1-based) where known.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String path, String problem, Integer line, Integer column) {

    public Problem(String path, String problem, Locations.Location at) {
        this(path, problem, at == null ? null : at.line(), at == null ? null : at.column());
    }

    /** A problem at a parser's location (an unknown location, line or column below 1, is left out). */
    public Problem(String path, String problem, JsonLocation at) {
        this(path, problem, at == null || at.getLineNr() < 1 ? null : at.getLineNr(),
                at == null || at.getLineNr() < 1 ? null : at.getColumnNr());
    }

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
