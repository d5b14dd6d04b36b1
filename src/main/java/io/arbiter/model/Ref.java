package io.arbiter.model;

import java.util.Objects;

/** A reference to a manifest: a path and an optional revision ({@code null} means "any revision"). */
public record Ref(String path, String revision) {

    public Ref {
        Objects.requireNonNull(path, "path");
    }

    /** Parses {@code path} or {@code path:revision}. */
    public static Ref parse(String text) {
        int colon = text.indexOf(':');
        return colon < 0 ? new Ref(text, null) : new Ref(text.substring(0, colon), text.substring(colon + 1));
    }

    @Override
    public String toString() {
        return revision == null ? path : path + ":" + revision;
    }
}
