package io.arbiter.decision;

import java.util.List;

/**
 * A condition on the live policy revision, as {@code If-Match} states it (RFC 9110 section 13.1.1): any revision
 * ({@code *}) or one of the listed ones. Weak entity tags are left out by the caller: they never match in If-Match.
 */
public record RevisionMatch(boolean any, List<String> revisions) {

    public RevisionMatch {
        revisions = List.copyOf(revisions);
    }

    public static RevisionMatch of(String revision) {
        return new RevisionMatch(false, List.of(revision));
    }

    public boolean matches(String live) {
        return any || revisions.contains(live);
    }

    @Override
    public String toString() {
        return any ? "*" : revisions.size() == 1 ? "revision " + revisions.get(0) : "revisions " + String.join(", ", revisions);
    }
}
