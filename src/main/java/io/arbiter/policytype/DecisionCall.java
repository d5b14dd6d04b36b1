package io.arbiter.policytype;

import io.arbiter.decision.DecisionException;
import io.arbiter.decision.Snapshot;
import io.arbiter.document.LocatedDocument;
import io.arbiter.document.Problem;
import io.arbiter.engine.CompiledRuleBase;

import java.util.List;

/**
 * One call of a policy type: the target, the validated request, the snapshot it is decided against, the type's
 * compiled rule base, and the warnings gathered so far (a deprecated version adds one).
 *
 * @param consumed what the earlier types of a {@link Chain} produced of the data this type {@link PolicyType#consumes},
 *                 passed by the runtime
 * @param chained  the call is a part of a {@link Chain}
 * @param warnings the list the call gathers its warnings in ({@link #warn})
 */
public record DecisionCall(PolicyType type, Target target, LocatedDocument request, Snapshot snapshot,
                           java.util.Map<DecisionData, Object> consumed, boolean chained, List<String> warnings) {

    public DecisionCall {
        consumed = java.util.Map.copyOf(consumed);
    }

    /**
     * The decision data an earlier type of the chain produced, of a kind this type declares it consumes; empty when
     * the call is not part of a chain, or the producer decided none.
     */
    public <T> java.util.Optional<T> consumed(DecisionData data, Class<T> kind) {
        if (!type.consumes().contains(data)) {
            throw new IllegalArgumentException("policy type '" + type.name() + "' reads " + data
                    + ", which it does not declare it consumes");
        }
        return java.util.Optional.ofNullable(consumed.get(data)).map(kind::cast);
    }

    public CompiledRuleBase ruleBase() {
        return snapshot.ruleBase(type.name());
    }

    /** The warnings gathered so far. */
    @Override
    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    public void warn(String warning) {
        warnings.add(warning);
    }

    /**
     * Checks a version of this type named by a document at {@code where}: unknown and UNSUPPORTED versions are
     * refused with {@code code}; a DEPRECATED one adds a warning.
     */
    public void requireUsableVersion(String version, String where, DecisionException.Code code) {
        Versions.check(type, version, where, code).ifPresent(this::warn);
    }

    public static DecisionException refusal(DecisionException.Code code, String where, String message) {
        return new DecisionException(code, message, List.of(Problem.at(where, message)));
    }
}
