package io.arbiter.decision;

import io.arbiter.decision.implementation.ImplementationDecider;
import io.arbiter.decision.implementation.ImplementationDecision;
import io.arbiter.decision.implementation.ImplementationRequestParser;
import io.arbiter.document.DocumentException;
import io.arbiter.document.Documents;
import io.arbiter.document.LocatedDocument;
import io.arbiter.document.Problem;
import io.arbiter.policy.PolicyDocument;
import io.arbiter.policy.PolicyParser;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The service the edges call: one method per operation. Every decision reads one snapshot; a policy
 * replacement builds a new snapshot and swaps it in atomically, so in-flight decisions finish on the old one.
 */
public final class Decisions {

    private final AtomicReference<Snapshot> current;

    public Decisions(Snapshot initial) {
        this.current = new AtomicReference<>(initial);
    }

    public Snapshot snapshot() {
        return current.get();
    }

    public ImplementationDecision decideImplementation(byte[] body, String contentType) {
        LocatedDocument document = parseRequest(body, contentType);
        return ImplementationDecider.decide(ImplementationRequestParser.parse(document), current.get());
    }

    /** The result of validating a policy without applying it. */
    public record Validation(boolean valid, List<Problem> problems, List<String> warnings) {
    }

    public Validation validatePolicy(byte[] body, String contentType) {
        try {
            PolicyDocument document = PolicyParser.parse(body, contentType);
            return new Validation(true, List.of(), document.warnings());
        } catch (DocumentException e) {
            return new Validation(false, e.problems(), List.of());
        }
    }

    /** Outcome of a policy replacement that was refused because the caller's revision is stale. */
    public static final class StaleRevisionException extends RuntimeException {
        public StaleRevisionException(String expected, String actual) {
            super("the policy changed: If-Match names revision " + expected + " but the live revision is " + actual);
        }
    }

    /**
     * Replaces the global policy. An invalid policy throws and leaves the live one unchanged; with
     * {@code ifMatch}, a stale revision throws {@link StaleRevisionException}.
     */
    public PolicyDocument replacePolicy(byte[] body, String contentType, Optional<String> ifMatch) {
        PolicyDocument parsed;
        try {
            parsed = PolicyParser.parse(body, contentType);
        } catch (DocumentException e) {
            throw new DecisionException(DecisionException.Code.INVALID_POLICY, e.getMessage(), e.problems());
        }
        Snapshot updated = current.updateAndGet(live -> {
            if (ifMatch.isPresent() && !ifMatch.get().equals(live.policy().revision())) {
                throw new StaleRevisionException(ifMatch.get(), live.policy().revision());
            }
            return live.withPolicy(parsed);
        });
        return updated.policy();
    }

    private static LocatedDocument parseRequest(byte[] body, String contentType) {
        try {
            return Documents.parse(body, contentType);
        } catch (DocumentException e) {
            throw new DecisionException(DecisionException.Code.INVALID_REQUEST, e.getMessage(), e.problems());
        }
    }
}
