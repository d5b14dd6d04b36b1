package io.arbiter.policytype;

import io.arbiter.engine.FiredRule;

import java.util.List;
import java.util.Objects;

/**
 * What a policy type's {@link PolicyType#decide} returns: its result, its outcome and the rules that fired for it.
 * The runtime writes the one envelope around it (decision id, target, type and version, outcome, revisions,
 * warnings, firings) and serialises it once, for the response and the decision record alike.
 *
 * @param outcome    the decision's outcome ({@link #DECIDED} for a type without outcomes)
 * @param result     a record rendered as JSON; its fields are written beside the envelope's (the wire contract
 *                   fixes them at top level), so it may not name a field of the envelope
 * @param firedRules every rule that fired for this decision, in firing order
 * @param warnings   what the type warns about besides the runtime's own (a deprecated version)
 * @param produced   the decision data this decision makes available to the types that consume it in a
 *                   {@link Chain}, each under one of the type's {@link PolicyType#produces} declarations; what a
 *                   decision did not decide (no Implementation selected) is absent
 */
public record Decision(String outcome, Object result, List<FiredRule> firedRules, List<String> warnings,
                       java.util.Map<DecisionData, Object> produced) {

    public Decision(String outcome, Object result, List<FiredRule> firedRules, List<String> warnings) {
        this(outcome, result, firedRules, warnings, java.util.Map.of());
    }

    /** The outcome of a decision whose type has no outcomes of its own. */
    public static final String DECIDED = "DECIDED";

    public Decision {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(result, "result");
        firedRules = List.copyOf(firedRules);
        warnings = List.copyOf(warnings);
        produced = java.util.Map.copyOf(produced);
    }

    /** This decision, making {@code data} available to the types that consume it. */
    public Decision producing(java.util.Map<DecisionData, Object> data) {
        return new Decision(outcome, result, firedRules, warnings, data);
    }

    /** A decision of a type without outcomes or warnings of its own. */
    public static Decision of(Object result, List<FiredRule> firedRules) {
        return new Decision(DECIDED, result, firedRules, List.of());
    }
}
