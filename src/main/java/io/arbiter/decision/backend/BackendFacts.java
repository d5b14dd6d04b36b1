package io.arbiter.decision.backend;

import io.arbiter.engine.Fact;
import io.arbiter.engine.FactId;
import io.arbiter.model.Ref;

import java.util.ArrayList;
import java.util.List;

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
    @FactId("typeRefs[{index}] {typeRef}") public record TypeQuery(int index, Ref typeRef) implements Fact {}

    /**
     * One prefix of a requested Type's path that a pattern rule could have: the path up to and including one of its
     * dots ({@code cap.}, {@code cap.type.}, ... of {@code cap.type.aws.x}). A pattern's prefix covers a path exactly
     * when it is one of these, so the rules join pattern rules to them by equality, an indexed lookup per prefix, rather
     * than trying every pattern against every Type: the cost is the Types' prefixes plus the covers found.
     */
    @FactId("prefix {prefix} of {query.typeRef}") public record TypeRefPrefix(TypeQuery query, String prefix) implements Fact {

        /** The facts a requested Type is inserted as: its query and one prefix per dot of its path. */
        public static List<Object> factsOf(TypeQuery query) {
            return factsOf(query, null);
        }

        /**
         * As {@link #factsOf(TypeQuery)}, only the prefixes as long as some pattern's prefix ({@code lengths}; all when
         * null): a prefix of another length equals no pattern's, so its fact would join nothing.
         */
        public static List<Object> factsOf(TypeQuery query, java.util.Set<Integer> lengths) {
            String path = query.typeRef().path();
            List<Object> facts = new ArrayList<>();
            facts.add(query);
            for (int dot = path.indexOf('.'); dot >= 0; dot = path.indexOf('.', dot + 1)) {
                if (lengths == null || lengths.contains(dot + 1)) {
                    facts.add(new TypeRefPrefix(query, path.substring(0, dot + 1)));
                }
            }
            return facts;
        }
    }

    /**
     * {@code typeInstance.rules[i]} of one policy. A pattern rule ({@code cap.type.aws.*}) covers the paths that
     * start with {@code prefix} ({@code cap.type.aws.}).
     */
    @FactId("{location}")
    public record BackendRule(String location, String sourceId, Ref typeRef, boolean pattern, String prefix,
                              String backendId, String backendDescription) implements Fact {
        public int prefixLength() {
            return prefix.length();
        }
    }

    /** A rule a higher policy's rule for the same typeRef replaces (policy-syntax 5). */
    @FactId("{rule.location} replaced by {by.location}") public record ReplacedRule(BackendRule rule, BackendRule by) implements Fact {}

    /** A rule that takes part in the decision. */
    @FactId("effective {rule.location}") public record EffectiveRule(BackendRule rule) implements Fact {}

    /** A pattern rule whose prefix covers the Type (and whose revision, if any, is the Type's). */
    @FactId("{rule.location} covers {query.typeRef}") public record PatternCover(TypeQuery query, BackendRule rule) implements Fact {}

    /** A rule that would choose the backend of a Type at a level; the priority table orders the levels. */
    @FactId("{level} {rule.location} for {query.typeRef}")
    public record LevelCandidate(TypeQuery query, BackendRule rule, MatchLevel level) implements Fact {
    }

    /** The backend chosen for a Type ({@code rule} is null for BUILTIN). */
    @FactId("backend of {query.typeRef} by {level}")
    public record BackendChoice(TypeQuery query, BackendRule rule, MatchLevel level) implements Fact {
    }
}
