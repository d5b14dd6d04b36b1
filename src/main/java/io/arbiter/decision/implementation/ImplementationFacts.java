package io.arbiter.decision.implementation;

import io.arbiter.engine.Fact;
import io.arbiter.model.Implementation;
import io.arbiter.model.Ref;
import io.arbiter.model.Requirement;

import java.util.List;

/**
 * The facts of an implementation decision. The first group is inserted (data from the request, policy, catalog
 * and TypeInstance store); the second is derived by the rules in {@code rules/implementation/} and the
 * precedence table in {@code decision-tables/implementation/}. Results are read through DRL queries.
 */
public final class ImplementationFacts {

    private ImplementationFacts() {
    }

    // ---- inserted ----

    /** The Interface the decision is for; its revision is already resolved (may be null when unknown). */
    public record InterfaceQuery(Ref ref) implements Fact {
        public String path() {
            return ref.path();
        }

        public String revision() {
            return ref.revision();
        }

        @Override
        public String factId() {
            return "interface " + ref;
        }
    }

    /** How a policy rule names its Interface: a syntax property of the rule, not a judgement. */
    public enum RuleKeyKind {
        /** {@code path} with {@code revision}. */
        PATH_REVISION,
        /** {@code path} without revision. */
        PATH,
        /** {@code cap.*}: every Interface. */
        ANY,
        /** Any other {@code prefix.*}: not a rule key of policy-syntax section 2, it never applies. */
        PATTERN
    }

    /** {@code interface.rules[index]} of the (merged) policy. */
    public record PolicyRule(String id, int index, Ref interfaceRef, RuleKeyKind keyKind, int oneOfCount) implements Fact {
        public String interfacePath() {
            return interfaceRef.path();
        }

        public String interfaceRevision() {
            return interfaceRef.revision();
        }

        @Override
        public String factId() {
            return id;
        }
    }

    /** {@code interface.rules[i].oneOf[index]}: its constraints, flattened for matching. */
    public record OneOfItem(String id, String ruleId, int index, String implementationPath, List<Ref> attributes,
                            List<Ref> requires) implements Fact {
        @Override
        public String factId() {
            return id;
        }
    }

    /** A TypeInstance that exists in the system (TypeInstance store or platform). */
    public record AvailableTypeInstance(String id, Ref typeRef) implements Fact {
        public String typePath() {
            return typeRef.path();
        }

        public String typeRevision() {
            return typeRef.revision();
        }

        @Override
        public String factId() {
            return "typeInstance " + id;
        }
    }

    /** Where an injected TypeInstance comes from. */
    public enum InjectionSource { RULE_INJECT, DEFAULT_INJECT }

    /**
     * A TypeInstance that the policy injects when {@code itemId} wins, resolved to its Type through the
     * TypeInstance store. Unresolvable ids are not inserted: they satisfy nothing.
     */
    public record InjectedTypeInstance(String itemId, String id, Ref typeRef, InjectionSource source) implements Fact {
        public String typePath() {
            return typeRef.path();
        }

        public String typeRevision() {
            return typeRef.revision();
        }

        @Override
        public String factId() {
            return "inject " + id + " into " + itemId;
        }
    }

    // ---- derived ----

    /** A policy rule whose key names the requested Interface, and how. */
    public record RuleKeyMatch(PolicyRule rule, RuleKeyKind kind) implements Fact {
        @Override
        public String factId() {
            return rule.id() + " by " + kind;
        }
    }

    /** The precedence the rule-key table gives a key match (1 is tried first). */
    public record RuleKeyRank(RuleKeyMatch match, int rank) implements Fact {
        @Override
        public String factId() {
            return match.factId() + " rank " + rank;
        }
    }

    /** The policy rule that decides the Interface. */
    public record ApplicableRule(PolicyRule rule) implements Fact {
        @Override
        public String factId() {
            return "applicable " + rule.id();
        }
    }

    /** An Implementation of the Interface, to be tried against a oneOf item of the applicable rule. */
    public record Trial(OneOfItem item, Implementation implementation) implements Fact {
        public String itemId() {
            return item.id();
        }

        public String implementationKey() {
            return implementation.key();
        }

        @Override
        public String factId() {
            return "trial " + implementation.key() + " for " + item.id();
        }
    }

    /** A requirement for which a TypeInstance of its exact Type exists: the same whichever item is tried. */
    public record RequirementMet(Requirement requirement) implements Fact {
        @Override
        public String factId() {
            return "met " + requirement + " of " + requirement.implementationKey();
        }
    }

    /** An aliased requirement that the item {@code itemId} satisfies by injecting a TypeInstance of its Type. */
    public record RequirementSatisfied(String itemId, Requirement requirement) implements Fact {
        @Override
        public String factId() {
            return "satisfied " + requirement + " of " + requirement.implementationKey() + " for " + itemId;
        }
    }

    /** Why an Implementation does not match a oneOf item. One fact per reason. */
    public record Rejection(String itemId, String implementationKey, String reason) implements Fact {
        @Override
        public String factId() {
            return "rejected " + implementationKey + " for " + itemId + ": " + reason;
        }
    }

    /** An Implementation that matches a oneOf item. */
    public record ItemMatch(OneOfItem item, Implementation implementation) implements Fact {
        @Override
        public String factId() {
            return "match " + implementation.key() + " for " + item.id();
        }
    }

    /** The first oneOf item that at least one Implementation matches. */
    public record WinningItem(OneOfItem item) implements Fact {
        @Override
        public String factId() {
            return "winner " + item.id();
        }
    }

    /** The decision's outcome. */
    public record Verdict(Outcome outcome) implements Fact {
        @Override
        public String factId() {
            return "outcome " + outcome;
        }
    }

    public enum Outcome { SELECTED, NO_RULE, DENIED, NO_MATCH }
}
