package io.arbiter.decision;

import io.arbiter.catalog.Catalog;
import io.arbiter.catalog.TypeInstanceStore;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.model.TypeInstance;
import io.arbiter.policy.PolicyDocument;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything one decision sees, consistent and immutable: the global policy, the compiled rule bases, the
 * catalog, the TypeInstance store and the platform TypeInstances. A reload builds a new snapshot and swaps it in.
 *
 * @param revision a content hash of everything a decision reads from the snapshot, always computed from the other
 *                 parts (whatever is passed): equal snapshots (a reload that changed nothing) have the same revision
 */
public record Snapshot(PolicyDocument policy, Map<String, CompiledRuleBase> ruleBases, Catalog catalog,
                       TypeInstanceStore typeInstances, List<TypeInstance> platformTypeInstances,
                       List<String> policyOrder, String revision) {

    /** {@code policyOrder}: kinds of policy, highest first, from {@code serve --policy-order}; empty = the table's order. */
    public Snapshot {
        ruleBases = Map.copyOf(ruleBases);
        platformTypeInstances = List.copyOf(platformTypeInstances);
        policyOrder = List.copyOf(policyOrder);
        revision = revisionOf(policy, ruleBases, catalog, typeInstances, platformTypeInstances, policyOrder);
    }

    public Snapshot(PolicyDocument policy, Map<String, CompiledRuleBase> ruleBases, Catalog catalog,
                    TypeInstanceStore typeInstances, List<TypeInstance> platformTypeInstances, List<String> policyOrder) {
        this(policy, ruleBases, catalog, typeInstances, platformTypeInstances, policyOrder, null);
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

    /** The same snapshot with another global policy. */
    public Snapshot withPolicy(PolicyDocument newPolicy) {
        return new Snapshot(newPolicy, ruleBases, catalog, typeInstances, platformTypeInstances, policyOrder);
    }

    private static String revisionOf(PolicyDocument policy, Map<String, CompiledRuleBase> ruleBases, Catalog catalog,
                                     TypeInstanceStore typeInstances, List<TypeInstance> platform, List<String> policyOrder) {
        StringBuilder text = new StringBuilder(policy.revision()).append('\0');
        new TreeMap<>(ruleBases).forEach((kind, base) -> text.append(kind).append('=').append(base.revision()).append('\0'));
        text.append(catalog.revision()).append('\0').append(typeInstances.revision()).append('\0');
        platform.forEach(ti -> text.append(ti.id()).append(' ').append(ti.typeRef()).append('\0'));
        text.append(String.join(",", policyOrder));
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(StandardCharsets.UTF_8));
            return "s-" + HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
