package io.arbiter.policytype;

import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.engine.RuleBaseBuilder;

import java.util.List;

/**
 * A kind of decision the service makes, registered through {@code META-INF/services/io.arbiter.policytype.PolicyType}
 * and discovered with {@link java.util.ServiceLoader}. Adding a type touches no HTTP, CLI or engine code: the
 * engine builds the type's rule base from its {@link RuleSet}, the router and the CLI expose its {@link Target}s.
 */
public interface PolicyType {

    /** Unique name, e.g. {@code capact.implementation}. */
    String name();

    String description();

    /** Versions, oldest first, each with its support-status history. */
    List<PolicyTypeVersion> versions();

    List<Target> targets();

    RuleSet ruleSet();

    /** Decision data this type reads from other types (seed 003: passing data between policies). */
    default List<DecisionData> consumes() {
        return List.of();
    }

    /** Decision data this type makes available to other types. */
    default List<DecisionData> produces() {
        return List.of();
    }

    /**
     * The parts of a snapshot this type's decisions read besides its own rule base (and the rule bases of the types
     * it {@link #consumes} from): a request is decided alike under two snapshots that agree on them. Default: every
     * part.
     */
    default java.util.Set<io.arbiter.decision.Snapshot.Part> reads() {
        return java.util.EnumSet.allOf(io.arbiter.decision.Snapshot.Part.class);
    }

    /**
     * Whether a decision is a function of its request and the snapshot alone: then the runtime answers a repeated
     * request under the same snapshot from its memo, with the same response and record but for the decision id. A
     * type whose decisions read anything else (the clock) must say false. Default: false.
     */
    default boolean decidesFromRequestAndSnapshot() {
        return false;
    }

    /**
     * Refuses rules and tables that compile but leave something a decision of this type needs undecided (an analyst's
     * edit that drops a table's catch-all row, say), by throwing a {@link io.arbiter.engine.RuleBaseException} that
     * names it: the start-up, the reload or the lint then fails instead of a decision. Called once for each rule base
     * built ({@link #buildRuleBase}). Default: nothing to check.
     */
    default void checkRuleBase(CompiledRuleBase ruleBase) {
    }

    /**
     * This type's rule base from {@code files}, compiled for its phases and passed by {@link #checkRuleBase}: how the
     * snapshot loader builds rules read from disk and the archive builds archived ones, so that every rule base a
     * decision runs on has passed the same checks.
     */
    default CompiledRuleBase buildRuleBase(List<RuleBaseBuilder.RuleFile> files) {
        CompiledRuleBase built = RuleBaseBuilder.build(name(), files, ruleSet().phases());
        checkRuleBase(built);
        return built;
    }

    /**
     * Decides one request for one of this type's targets. The request has already passed the target's schema and
     * version checks. Returns the result, its outcome and its firings: the runtime writes the envelope around them.
     */
    Decision decide(DecisionCall call);

    /** Where this type's requests and responses carry values the decision log masks. Default: none. */
    default Masks masks() {
        return Masks.NONE;
    }
}
