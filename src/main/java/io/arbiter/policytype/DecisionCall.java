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

    public DecisionCall(PolicyType type, Target target, LocatedDocument request, Snapshot snapshot) {
        this.type = type;
        this.target = target;
        this.request = request;
        this.snapshot = snapshot;
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
