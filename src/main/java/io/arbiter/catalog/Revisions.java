package io.arbiter.catalog;

import org.semver4j.Semver;

import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Semantic-version ordering of manifest revisions. */
public final class Revisions {

    /** Ascending semantic-version order; a revision that is not a version sorts before every version. */
    public static final Comparator<String> ASCENDING = Comparator.comparing(Revisions::parse,
            Comparator.nullsFirst(Comparator.naturalOrder()));

    /**
     * Parsed revisions of the server's catalogs. Every implementation decision orders its candidates, comparing
     * revisions pairwise, and semver4j builds each version through {@code String.format}: parsing per comparison was
     * 6% of a decision. Only a catalog the server loads keeps its revisions here ({@link #keep}); revisions a request
     * brings (inline Implementations) are parsed when compared and never kept, so no request can grow or crowd this
     * map. It is bounded in bytes too: at most {@link #PARSED_KEPT} revisions of at most {@link #KEPT_LENGTH}
     * characters (a few MB at most).
     */
    private static final int PARSED_KEPT = 10_000;
    static final int KEPT_LENGTH = 64;
    private static final Map<String, Optional<Semver>> PARSED = new ConcurrentHashMap<>();

    private Revisions() {
    }

    /** Keeps the parsed revisions of a catalog the server loaded, within the map's bounds. */
    static void keep(Iterable<String> revisions) {
        for (String revision : revisions) {
            if (revision != null && revision.length() <= KEPT_LENGTH && PARSED.size() < PARSED_KEPT
                    && !PARSED.containsKey(revision)) {
                PARSED.put(revision, Optional.ofNullable(Semver.parse(revision)));
            }
        }
    }

    /** How many parsed revisions are kept (tests). */
    static int keptCount() {
        return PARSED.size();
    }

    private static Semver parse(String revision) {
        if (revision == null) {
            return null;
        }
        Optional<Semver> parsed = PARSED.get(revision);
        return parsed != null ? parsed.orElse(null) : Semver.parse(revision);
    }
}
