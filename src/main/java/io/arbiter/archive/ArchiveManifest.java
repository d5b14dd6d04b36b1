package io.arbiter.archive;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.decision.Snapshot;
import io.arbiter.model.TypeInstance;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One archived snapshot: the revision of each part it was built from (each part stored once, under its revision),
 * what it takes from the serve options (platform TypeInstances, policy order), and when it last went live.
 *
 * @param rules     each policy type's rule-base revision, by policy type name
 * @param wentLive  when the snapshot last went live (RFC 3339): keeping the last N keeps the most recently live
 * @param liveFrom  every time it went live, oldest first (the last {@link #LIVE_FROM_KEPT}): a snapshot live again
 *                  after another was live is the same snapshot, and a replay names the time it went live before the
 *                  decision, not after it
 */
public record ArchiveManifest(String snapshotRevision, String wentLive, String policy, Map<String, String> rules,
                              String catalog, String typeInstances, List<TypeInstance> platformTypeInstances,
                              List<String> policyOrder, List<String> liveFrom) {

    static final int LIVE_FROM_KEPT = 100;

    public ArchiveManifest {
        liveFrom = liveFrom != null ? List.copyOf(liveFrom) : wentLive == null ? List.of() : List.of(wentLive);
        rules = rules == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(rules));
        platformTypeInstances = platformTypeInstances == null ? List.of() : List.copyOf(platformTypeInstances);
        policyOrder = policyOrder == null ? List.of() : List.copyOf(policyOrder);
    }

    /** {@code snapshot}'s manifest, gone live at {@code wentLive}, after the times of its {@code earlier} manifest. */
    static ArchiveManifest of(Snapshot snapshot, String wentLive, java.util.Optional<ArchiveManifest> earlier) {
        Map<String, String> rules = new LinkedHashMap<>();
        snapshot.ruleBases().forEach((kind, base) -> rules.put(kind, base.revision()));
        List<String> liveFrom = new java.util.ArrayList<>(earlier.map(ArchiveManifest::liveFrom).orElse(List.of()));
        liveFrom.add(wentLive);
        return new ArchiveManifest(snapshot.revision(), wentLive, snapshot.policy().revision(), rules,
                snapshot.catalog().revision(), snapshot.typeInstances().revision(), snapshot.platformTypeInstances(),
                snapshot.policyOrder(), liveFrom.subList(Math.max(0, liveFrom.size() - LIVE_FROM_KEPT), liveFrom.size()));
    }

    /**
     * When this snapshot last went live at or before {@code decidedAt} (RFC 3339), the one a decision made then was
     * made under; empty when the archive keeps no such time.
     */
    public java.util.Optional<String> liveAt(String decidedAt) {
        java.time.Instant decided = java.time.Instant.parse(decidedAt);
        return liveFrom.stream().filter(at -> !java.time.Instant.parse(at).isAfter(decided))
                .max(java.util.Comparator.comparing(java.time.Instant::parse));
    }

    /** Every part revision this manifest names, by part kind. */
    Map<SnapshotArchive.Part, List<String>> parts() {
        return Map.of(SnapshotArchive.Part.POLICY, List.of(policy),
                SnapshotArchive.Part.RULES, List.copyOf(rules.values()),
                SnapshotArchive.Part.CATALOG, List.of(catalog),
                SnapshotArchive.Part.TYPE_INSTANCES, List.of(typeInstances));
    }

    /**
     * Whether a decision that carries {@code revisions} (names as in a decision's result: policyRevision,
     * rulesRevision, catalogRevision, typeInstancesRevision, snapshotRevision) was made with this snapshot.
     * {@code policyType} is the decision's policy type, whose rule base {@code rulesRevision} names.
     */
    boolean matches(Map<String, String> revisions, String policyType) {
        return revisions.entrySet().stream().allMatch(entry -> switch (entry.getKey()) {
            case "snapshotRevision" -> entry.getValue().equals(snapshotRevision);
            case "policyRevision" -> entry.getValue().equals(policy);
            case "rulesRevision" -> entry.getValue().equals(java.util.Arrays.stream(policyType.split("\\+"))
                    .map(type -> rules.get(type)).map(String::valueOf).collect(java.util.stream.Collectors.joining("+")));
            case "catalogRevision" -> entry.getValue().equals(catalog);
            case "typeInstancesRevision" -> entry.getValue().equals(typeInstances);
            default -> true;
        });
    }

    /** The revisions a decision's result carries, by field name: what a lookup in the archive matches on. */
    public static Map<String, String> revisionsOf(JsonNode result) {
        Map<String, String> revisions = new LinkedHashMap<>();
        for (String field : List.of("snapshotRevision", "policyRevision", "rulesRevision", "catalogRevision",
                "typeInstancesRevision")) {
            JsonNode value = result.path(field);
            if (value.isTextual() && !value.asText().isEmpty()) {
                revisions.put(field, value.asText());
            }
        }
        return revisions;
    }
}
