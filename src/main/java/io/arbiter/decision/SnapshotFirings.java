package io.arbiter.decision;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.arbiter.engine.FiredRule;

import java.util.List;
import java.util.Map;

/**
 * The rule firings recorded once when a snapshot was built, by key, with the revisions that make them
 * reproducible ({@code GET /v1/snapshots/{revision}/firings}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SnapshotFirings(String revision, String policyRevision, Map<String, String> rulesRevisions,
                              String catalogRevision, String typeInstancesRevision,
                              Map<String, List<FiredRule>> firings) {

    public SnapshotFirings {
        rulesRevisions = Map.copyOf(rulesRevisions);
        firings = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(firings));
    }

    /** Only the firings of {@code key} (empty when the snapshot has none under it). */
    public SnapshotFirings only(String key) {
        List<FiredRule> ofKey = firings.get(key);
        return new SnapshotFirings(revision, policyRevision, rulesRevisions, catalogRevision, typeInstancesRevision,
                ofKey == null ? Map.of() : Map.of(key, ofKey));
    }

    /** How a decision names the snapshot firings it used, instead of repeating them in its {@code firedRules}. */
    public record Reference(String revision, String key, int count) {
    }
}
