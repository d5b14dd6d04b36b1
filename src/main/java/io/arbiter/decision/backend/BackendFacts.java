package io.arbiter.decision.backend;

import io.arbiter.engine.Fact;
import io.arbiter.model.Ref;

/**
 * The facts of a backend decision (policy-syntax section 6). Inserted: the Types asked about and the
 * {@code typeInstance.rules} of every policy taking part. Derived by {@code rules/backend/} and the priority table.
 */
public final class BackendFacts {

    private BackendFacts() {
    }

    /** How a backend was chosen, in the contract's words. */
    public enum MatchLevel { EXACT, PATH, PATTERN_REVISION, PATTERN, BUILTIN }

    /** One Type of the request's {@code typeRefs} batch; {@code index} keeps the response in request order. */
    public record TypeQuery(int index, Ref typeRef) implements Fact {
        public String path() {
            return typeRef.path();
        }

        public String revision() {
            return typeRef.revision();
        }

        @Override
        public String factId() {
            return "typeRefs[" + index + "] " + typeRef;
        }
    }

    /**
     * {@code typeInstance.rules[i]} of one policy. A pattern rule ({@code cap.type.aws.*}) covers the paths that
     * start with {@code prefix} ({@code cap.type.aws.}).
     */
    public record BackendRule(String location, String sourceId, Ref typeRef, boolean pattern, String prefix,
                              String backendId, String backendDescription) implements Fact {
        public String path() {
            return typeRef.path();
        }

        public String revision() {
            return typeRef.revision();
        }

        public int prefixLength() {
            return prefix.length();
        }

        @Override
        public String factId() {
            return location;
        }
    }

    /** A rule a higher policy's rule for the same typeRef replaces (policy-syntax 5). */
    public record ReplacedRule(BackendRule rule, BackendRule by) implements Fact {
        @Override
        public String factId() {
            return rule.location() + " replaced by " + by.location();
        }
    }

    /** A rule that takes part in the decision. */
    public record EffectiveRule(BackendRule rule) implements Fact {
        @Override
        public String factId() {
            return "effective " + rule.location();
        }
    }

    /** A pattern rule whose prefix covers the Type (and whose revision, if any, is the Type's). */
    public record PatternCover(TypeQuery query, BackendRule rule) implements Fact {
        @Override
        public String factId() {
            return rule.location() + " covers " + query.typeRef();
        }
    }

    /** A rule that would choose the backend of a Type at a level; the priority table orders the levels. */
    public record LevelCandidate(TypeQuery query, BackendRule rule, MatchLevel level) implements Fact {
        @Override
        public String factId() {
            return level + " " + rule.location() + " for " + query.typeRef();
        }
    }

    /** The backend chosen for a Type ({@code rule} is null for BUILTIN). */
    public record BackendChoice(TypeQuery query, BackendRule rule, MatchLevel level) implements Fact {
        @Override
        public String factId() {
            return "backend of " + query.typeRef() + " by " + level;
        }
    }
}
