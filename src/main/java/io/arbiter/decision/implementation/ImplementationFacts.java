package io.arbiter.decision.implementation;

import io.arbiter.decision.merge.PolicyMergeFacts.Rank;
import io.arbiter.engine.Fact;
import io.arbiter.engine.FactId;
import io.arbiter.model.Implementation;
import io.arbiter.model.Ref;
import io.arbiter.model.Requirement;

import java.util.Comparator;
import java.util.List;

/**
 * The facts of an implementation decision. The first group is inserted (data from the request, policy, catalog
 * and TypeInstance store); the second is derived by the rules in {@code rules/implementation/} and the
 * precedence table in {@code decision-tables/implementation/}. Results are read by fact type
 * ({@code CompiledRuleBase.factsOf}).
 */
public final class ImplementationFacts {

    private ImplementationFacts() {
    }

    // ---- inserted ----

    /** The Interface the decision is for; its revision is already resolved (may be null when unknown). */
    @FactId("interface {ref}") public record InterfaceQuery(Ref ref) implements Fact {}

    /** {@code interface.rules[index]} of the (merged) policy, keyed as written; the rule-key rules say what it names. */
    @FactId("{id}") public record PolicyRule(String id, int index, Ref interfaceRef, int oneOfCount) implements Fact {}

    /** {@code interface.rules[i].oneOf[index]}: its constraints, flattened for matching. */
    @FactId("{id}")
    public record OneOfItem(String id, String ruleId, int index, String implementationPath, List<Ref> attributes,
                            List<Ref> requires) implements Fact {
    }

    /**
     * An attribute that {@code implementationConstraints.attributes} of the source item {@code itemId} lists; once
     * however often it is listed. The merged item keeps its surviving source item's id, so rules join on
     * {@code OneOfItem.id}.
     */
    @FactId("{itemId} constrains attribute {attribute}") public record ItemAttribute(String itemId, Ref attribute) implements Fact {}

    /** A Type that {@code implementationConstraints.requires} of the source item {@code itemId} lists; once. */
    @FactId("{itemId} constrains required Type {type}") public record ItemRequiredType(String itemId, Ref type) implements Fact {}

    /** A TypeInstance that exists in the system (TypeInstance store or platform). */
    @FactId("typeInstance {id}") public record AvailableTypeInstance(String id, Ref typeRef) implements Fact {}

    /** Where an injected TypeInstance comes from. */
    public enum InjectionSource { RULE_INJECT, DEFAULT_INJECT }

    /**
     * A TypeInstance that the policy injects when {@code itemId} wins, resolved to its Type through the
     * TypeInstance store. Unresolvable ids are not inserted: they satisfy nothing.
     */
    @FactId("inject {id} into {itemId}")
    public record InjectedTypeInstance(String itemId, String id, Ref typeRef, InjectionSource source) implements Fact {
    }

    // ---- inserted: the policies to merge (policy-syntax section 5) ----

    /** {@code interface.rules[i]} of one source; {@code key} is {@code path} or {@code path:revision}. */
    @FactId("{id}")
    public record SourceRule(String id, String sourceId, String key, Ref interfaceRef) implements Fact {
    }

    /** {@code interface.rules[i].oneOf[j]} of one source, as written. */
    @FactId("{id}")
    public record SourceItem(String id, String sourceId, String ruleKey, int index,
                             io.arbiter.policy.Policy.ImplementationConstraints constraints) implements Fact {
    }

    /**
     * An {@code inject.requiredTypeInstances} entry of an item ({@code ownerId} = the item id) or of a source's
     * {@code interface.default} ({@code ownerId} = null). {@code typeRef} is the Type the store resolves the id to,
     * null when it cannot.
     */
    @FactId("{location}")
    public record RequiredEntry(String location, String sourceId, String ownerId, String id, Ref typeRef) implements Fact {
        public boolean fromDefault() {
            return ownerId == null;
        }
    }

    /** An {@code inject.additionalTypeInstances} entry; {@code typeRef} as resolved by the store, or null. */
    @FactId("{location}")
    public record AdditionalTypeInstanceEntry(String location, String sourceId, String ownerId, String name, String id,
                                              Ref typeRef, int position) implements Fact {
    }

    /** An {@code inject.additionalParameters} entry. */
    @FactId("{location}")
    public record AdditionalParameterEntry(String location, String sourceId, String ownerId, String name,
                                           com.fasterxml.jackson.databind.JsonNode value, int position) implements Fact {
    }

    /**
     * The JSON schema of a Type the catalog holds, for checking additional parameters; {@code schema} is null and
     * {@code problem} says why when the catalog could not compile it.
     */
    @FactId("schema of {typeRef}")
    public record TypeSchema(Ref typeRef, com.networknt.schema.JsonSchema schema, String problem) implements Fact {
        public TypeSchema(Ref typeRef, com.networknt.schema.JsonSchema schema) {
            this(typeRef, schema, null);
        }
    }

    // ---- derived ----

    /**
     * An item's place in the merged order: its policy's rank, then its position in its rule's oneOf list. Compared
     * field by field (lower first), so no list length spills into the rank. Written {@code 2/0/1}.
     */
    public record Priority(Rank rank, int index) implements Comparable<Priority> {
        private static final Comparator<Priority> ORDER = Comparator.comparing(Priority::rank).thenComparingInt(Priority::index);

        @Override
        public int compareTo(Priority other) {
            return ORDER.compare(this, other);
        }

        @Override
        public String toString() {
            return rank + "/" + index;
        }
    }

    /** A source item and its place in the merged order (lower first). */
    @FactId("{item.id} priority {priority}") public record RankedItem(SourceItem item, Priority priority) implements Fact {}

    /** An item merged into a higher item with equal constraints (policy-syntax 5). */
    @FactId("{item.id} merged into {into.id}") public record Absorbed(SourceItem item, SourceItem into) implements Fact {}

    /** An item that stays in the merged oneOf list (it absorbed nothing or it is the highest of its equals). */
    @FactId("surviving {item.id}") public record SurvivingItem(SourceItem item, Priority priority) implements Fact {}

    /** An entry that a higher one replaces (same Type, or same name). */
    public record Overridden(Object entry, Object by) implements Fact {
        @Override
        public String factId() {
            return io.arbiter.engine.FiredRuleRecorder.idOf(entry) + " overridden by " + io.arbiter.engine.FiredRuleRecorder.idOf(by);
        }
    }

    /** A source item whose inject entries count for the merged item {@code intoId} (itself, or one it absorbed). */
    @FactId("{ownerId} injects for {intoId}") public record MergedOwner(String ownerId, String intoId) implements Fact {}

    /**
     * An injected id the TypeInstance store cannot resolve, offered to the merged item {@code itemId} (null: by an
     * {@code interface.default}, to every item). It satisfies nothing, so an explanation names it.
     */
    @FactId("unresolved {id} at {location}") public record UnresolvedInjection(String itemId, String id, String location) implements Fact {}

    /** A required TypeInstance entry offered to the winning item, with its policy's rank. */
    @FactId("offered {entry.location}") public record OfferedRequired(RequiredEntry entry, Rank rank) implements Fact {}

    /** An additional TypeInstance entry offered to the winning item, with its policy's rank. */
    @FactId("offered {entry.location}") public record OfferedAdditional(AdditionalTypeInstanceEntry entry, Rank rank) implements Fact {}

    /** An additional parameter entry offered to the winning item, with its policy's rank. */
    @FactId("offered {entry.location}") public record OfferedParameter(AdditionalParameterEntry entry, Rank rank) implements Fact {}

    /** The selected Implementation: the first candidate by path, then revision descending. */
    @FactId("selected {implementation.key}") public record Selected(Implementation implementation) implements Fact {}

    /** A TypeInstance injected under an alias of the selected Implementation. */
    @FactId("inject {id} as {alias}")
    public record RequiredInjection(String alias, int requirementIndex, String groupPrefix, String id, Ref typeRef,
                                    String location, InjectionSource source) implements Fact {
    }

    /** An additional TypeInstance handed to the selected Implementation. */
    @FactId("inject additional {entry.name}")
    public record AdditionalTypeInstanceInjection(AdditionalTypeInstanceEntry entry, Rank rank) implements Fact {
    }

    /** An additional parameter handed to the selected Implementation: every policy's value deep-merged. */
    @FactId("inject parameter {name}")
    public record ParameterInjection(String name, com.fasterxml.jackson.databind.JsonNode value, String location,
                                     Rank rank, int position) implements Fact {
    }

    /** A Hub storage the selected Implementation requires under an alias: the backend of what it stores there. */
    @FactId("backend {id} for {alias}") public record StorageBackend(String alias, String id, InjectionSource source) implements Fact {}

    /**
     * Why the policies cannot be applied to the selected Implementation (422 INVALID_POLICY). {@code storeLookup}:
     * the problem is an id the TypeInstance store cannot resolve, which a request's own TypeInstances may change.
     */
    @FactId("problem at {location}")
    public record InjectionProblem(String location, String problem, boolean storeLookup) implements Fact {
        public InjectionProblem(String location, String problem) {
            this(location, problem, false);
        }
    }

    /**
     * The kinds of rule key: only names, for the precedence table's rows to be checked against. Which kind a key is,
     * and whether it names the Interface, the rules of {@code 10-rule-keys.drl} say (one rule per kind).
     */
    public enum RuleKeyKind { PATH_REVISION, PATH, ANY }

    /** A policy rule whose key names the requested Interface {@code named}, and the kind of key that does. */
    @FactId("{rule.id} by {kind}") public record RuleKeyMatch(PolicyRule rule, Ref named, RuleKeyKind kind) implements Fact {}

    /** The precedence the rule-key table gives a key match (1 is tried first). */
    @FactId("{match.factId} rank {rank}") public record RuleKeyRank(RuleKeyMatch match, int rank) implements Fact {}

    /** The policy rule that decides the Interface. */
    @FactId("applicable {rule.id}") public record ApplicableRule(PolicyRule rule) implements Fact {}

    /** An Implementation of the Interface, to be tried against a oneOf item of the applicable rule. */
    @FactId("trial {implementation.key} for {item.id}")
    public record Trial(OneOfItem item, Implementation implementation) implements Fact {
    }

    /** An aliased requirement that the item {@code itemId} satisfies by injecting a TypeInstance of its Type. */
    @FactId("satisfied {requirement} of {requirement.implementationKey} for {itemId}")
    public record RequirementSatisfied(String itemId, Requirement requirement) implements Fact {
    }

    /** Why an Implementation does not match a oneOf item. One fact per reason. */
    @FactId("rejected {implementationKey} for {itemId}: {reason}")
    public record Rejection(String itemId, String implementationKey, String reason) implements Fact {
    }

    /** An Implementation that matches a oneOf item. */
    @FactId("match {implementation.key} for {item.id}")
    public record ItemMatch(OneOfItem item, Implementation implementation) implements Fact {
    }

    /** The first oneOf item that at least one Implementation matches. */
    @FactId("winner {item.id}") public record WinningItem(OneOfItem item) implements Fact {}

    /** The decision's outcome. */
    @FactId("outcome {outcome}") public record Verdict(Outcome outcome) implements Fact {}

    public enum Outcome { SELECTED, NO_RULE, DENIED, NO_MATCH }
}
