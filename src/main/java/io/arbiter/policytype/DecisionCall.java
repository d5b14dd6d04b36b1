package io.arbiter.policytype;

import io.arbiter.decision.DecisionException;
import io.arbiter.decision.Snapshot;
import io.arbiter.document.LocatedDocument;
import io.arbiter.document.Problem;
import io.arbiter.engine.CompiledRuleBase;

import java.util.ArrayList;
import java.util.List;

/**
 * One call of a policy type: the target, the validated request, the snapshot it is decided against, the type's
 * compiled rule base, and the warnings gathered so far (a deprecated version adds one).
 */
public final class DecisionCall {

    private final PolicyType type;
    private final Target target;
    private final LocatedDocument request;
    private final Snapshot snapshot;
    private final List<String> warnings = new ArrayList<>();
    private final java.util.Map<DecisionData, Object> consumed;
    private final boolean chained;

    /**
     * {@code chained}: the call is a part of a {@link Chain}, and {@code consumed} holds what the earlier types of the
     * chain produced of the data this type {@link PolicyType#consumes}, passed by the runtime.
     */
    public DecisionCall(PolicyType type, Target target, LocatedDocument request, Snapshot snapshot,
                        java.util.Map<DecisionData, Object> consumed, boolean chained) {
        this.type = type;
        this.target = target;
        this.request = request;
        this.snapshot = snapshot;
        this.consumed = java.util.Map.copyOf(consumed);
        this.chained = chained;
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

    /** True when this call is a part of a {@link Chain}. */
    public boolean chained() {
        return chained;
    }

    public PolicyType type() {
        return type;
    }

    public Target target() {
        return target;
    }

    public LocatedDocument request() {
        return request;
    }

    public Snapshot snapshot() {
        return snapshot;
    }

    public CompiledRuleBase ruleBase() {
        return snapshot.ruleBase(type.name());
    }

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
