package io.arbiter.decision;

import io.arbiter.catalog.Catalog;
import io.arbiter.catalog.TypeInstanceStore;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.engine.FiredRule;
import io.arbiter.model.TypeInstance;
import io.arbiter.policy.PolicyDocument;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Everything one decision sees, consistent and immutable: the global policy, the compiled rule bases, the
 * catalog, the TypeInstance store and the platform TypeInstances, and what the policy types' rules derived from
 * them once ({@link #derived}). A reload builds a new snapshot and swaps it in.
 */
public record Snapshot(PolicyDocument policy, Map<String, CompiledRuleBase> ruleBases, Catalog catalog,
                       TypeInstanceStore typeInstances, List<TypeInstance> platformTypeInstances,
                       List<String> policyOrder, Derivations derivations) {

    /** {@code policyOrder}: kinds of policy, highest first, from {@code serve --policy-order}; empty = the table's order. */
    public Snapshot {
        ruleBases = Map.copyOf(ruleBases);
        platformTypeInstances = List.copyOf(platformTypeInstances);
        policyOrder = List.copyOf(policyOrder);
    }

    public Snapshot(PolicyDocument policy, Map<String, CompiledRuleBase> ruleBases, Catalog catalog,
                    TypeInstanceStore typeInstances, List<TypeInstance> platformTypeInstances, List<String> policyOrder) {
        this(policy, ruleBases, catalog, typeInstances, platformTypeInstances, policyOrder, new Derivations());
    }

    public Snapshot(PolicyDocument policy, Map<String, CompiledRuleBase> ruleBases, Catalog catalog,
                    TypeInstanceStore typeInstances, List<TypeInstance> platformTypeInstances) {
        this(policy, ruleBases, catalog, typeInstances, platformTypeInstances, List.of());
    }

    public CompiledRuleBase ruleBase(String kind) {
        CompiledRuleBase ruleBase = ruleBases.get(kind);
        if (ruleBase == null) {
            throw new IllegalStateException("no rule base for decision kind '" + kind + "'");
        }
        return ruleBase;
    }

    /** What a decision may read from a snapshot besides its type's rule base (see {@code PolicyType.reads}). */
    public enum Part {
        /** The global policy and the merge order. */
        GLOBAL_POLICY,
        CATALOG,
        /** The TypeInstance store and the platform TypeInstances. */
        TYPE_INSTANCES
    }

    /** A revision of one part: two snapshots with equal revisions of a part hold the same part. */
    public String revisionOf(Part part) {
        return switch (part) {
            case GLOBAL_POLICY -> policy.revision() + " " + String.join(",", policyOrder);
            case CATALOG -> catalog.revision();
            case TYPE_INSTANCES -> typeInstances.revision() + " " + platformTypeInstances.stream()
                    .map(ti -> ti.id() + "=" + ti.typeRef()).toList();
        };
    }

    /** The same snapshot with another global policy: nothing is derived for it yet. */
    public Snapshot withPolicy(PolicyDocument newPolicy) {
        return new Snapshot(newPolicy, ruleBases, catalog, typeInstances, platformTypeInstances, policyOrder);
    }

    /**
     * What {@code derive} derives from this snapshot, derived once (the first caller derives, concurrent ones wait).
     * Builders of a snapshot derive everything before they publish it ({@code Decisions.prepare} in the runtime
     * package), so decisions find it ready.
     */
    public <T extends Derived> T derived(String name, Function<Snapshot, T> derive) {
        @SuppressWarnings("unchecked")
        T derived = (T) derivations.byName.computeIfAbsent(name, ignored -> derive.apply(this));
        return derived;
    }

    /**
     * A content hash of everything a decision reads from the snapshot: equal snapshots (a reload that changed
     * nothing) have the same revision.
     */
    public String revision() {
        String revision = derivations.revision;
        if (revision == null) {
            revision = revisionOf(this);
            derivations.revision = revision;
        }
        return revision;
    }

    /** The firings of everything derived so far, by key. */
    public SnapshotFirings firings() {
        Map<String, List<FiredRule>> firings = new TreeMap<>();
        derivations.byName.values().forEach(derived -> firings.putAll(derived.firings()));
        Map<String, String> rules = new LinkedHashMap<>();
        ruleBases.forEach((kind, base) -> rules.put(kind, base.revision()));
        return new SnapshotFirings(revision(), policy.revision(), rules, catalog.revision(), typeInstances.revision(), firings);
    }

    /** A reference to the firings of {@code key}, for a decision that used them. */
    public SnapshotFirings.Reference firingsOf(String key, List<FiredRule> firings) {
        return new SnapshotFirings.Reference(revision(), key, firings.size());
    }

    private static String revisionOf(Snapshot snapshot) {
        StringBuilder text = new StringBuilder(snapshot.policy.revision()).append('\0');
        new TreeMap<>(snapshot.ruleBases).forEach((kind, base) -> text.append(kind).append('=').append(base.revision()).append('\0'));
        text.append(snapshot.catalog.revision()).append('\0').append(snapshot.typeInstances.revision()).append('\0');
        snapshot.platformTypeInstances.forEach(ti -> text.append(ti.id()).append(' ').append(ti.typeRef()).append('\0'));
        text.append(String.join(",", snapshot.policyOrder));
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(StandardCharsets.UTF_8));
            return "s-" + HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** What was derived from one snapshot: never compared, never copied to another snapshot. */
    public static final class Derivations {
        private final Map<String, Derived> byName = new ConcurrentHashMap<>();
        private volatile String revision;

        @Override
        public boolean equals(Object other) {
            return other instanceof Derivations;
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }
}
