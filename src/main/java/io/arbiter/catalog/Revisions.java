package io.arbiter.catalog;

import org.semver4j.Semver;

import java.util.Comparator;

/** Semantic-version ordering of manifest revisions. */
public final class Revisions {

    /** Ascending semantic-version order; a revision that is not a version sorts before every version. */
    public static final Comparator<String> ASCENDING = Comparator.comparing(Revisions::parse,
            Comparator.nullsFirst(Comparator.naturalOrder()));

    private Revisions() {
    }

    public static boolean isVersion(String revision) {
        return revision != null && Semver.isValid(revision);
    }

    private static Semver parse(String revision) {
        return revision == null ? null : Semver.parse(revision);
    }
}
