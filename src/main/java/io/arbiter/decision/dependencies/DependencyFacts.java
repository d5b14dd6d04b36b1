package io.arbiter.decision.dependencies;

import io.arbiter.engine.Fact;
import io.arbiter.engine.FactId;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The facts of a dependency-gating decision (ocm-dependencies.md). Inserted: the request's policies, templates,
 * dependencies (already canonicalised and PolicySet-expanded: pure renaming, section 2, each with the observed object
 * it names) and PolicySet members. Derived by {@code rules/dependencies/} and the compliance tables.
 */
public final class DependencyFacts {

    public static final String COMPLIANT = "Compliant";
    public static final String PENDING = "Pending";
    public static final String NON_COMPLIANT = "NonCompliant";

    private DependencyFacts() {
    }

    /**
     * Go's {@code sort.Strings}: by UTF-8 bytes, which is code point order. Java's {@code String.compareTo} compares
     * UTF-16 units, which puts a character above U+FFFF (a surrogate pair) before U+E000 to U+FFFF.
     */
    public static final Comparator<String> GO_ORDER = (a, b) -> {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int x = a.codePointAt(i);
            int y = b.codePointAt(j);
            if (x != y) {
                return Integer.compare(x, y);
            }
            i += Character.charCount(x);
            j += Character.charCount(y);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    };

    /** Names sorted as Go's {@code sort.Strings} sorts them ({@link #GO_ORDER}), repeats kept. */
    public static java.util.List<String> sortedAsGo(Collection<String> names) {
        java.util.List<String> sorted = new java.util.ArrayList<>(names);
        sorted.sort(GO_ORDER);
        return sorted;
    }

    /** Where a template's dependency came from: the policy's {@code dependencies} or its own {@code extraDependencies}. */
    public enum Source { POLICY, EXTRA }

    /** The state a template reports (ocm-dependencies.md sections 4 to 6), spelt on the wire as its name. */
    public enum State { ACTIVE, PENDING, TEMPLATE_ERROR }

    /** What happens to a template's object (section 5), spelt on the wire as its name. */
    public enum Action { APPLY, NONE, DELETE }

    /**
     * One dependency after hub canonicalisation. {@code key} is its identity on the managed cluster
     * (apiVersion|kind|namespace|name, the namespace as upstream's {@code getDepNamespace} gives it: the cluster
     * namespace for a policy-group kind ending in Policy, otherwise the namespace as written, even for a cluster-scoped
     * kind); {@code lookupKey} is where the cluster reads it (no namespace for a cluster-scoped kind), which finds its
     * observed object; {@code targetPolicy} is the canonical name when it names a Policy.
     */
    public record Dependency(String apiVersion, String group, String kind, String name, String namespace,
                             String compliance, String key, String lookupKey, String targetPolicy, boolean served,
                             String label) {
        /**
         * {@code served}: the cluster has an API mapping for its kind (the request's {@code apiResources} lists it, or
         * gives no list). {@code label} is how messages name it ("Kind name"). Fact ids append the compliance inside
         * the one string they build, rather than every dependency keeping a second label for them (the 500-policy
         * benchmark request has 6,500 dependencies).
         */
        public Dependency(String apiVersion, String group, String kind, String name, String namespace, String compliance,
                          String key, String lookupKey, String targetPolicy, boolean served) {
            this(apiVersion, group, kind, name, namespace, compliance, key, lookupKey, targetPolicy, served, kind + " " + name);
        }
    }

    /**
     * A fact of one policy of the request, as the request gives it. Gating (sections 3 to 7) only ever joins facts of
     * the same policy: a large request is gated in partitions of policies.
     */
    public interface OfPolicy {
        int policyIndex();
    }

    /** {@code policies[index]}; {@code canonical} is {@code <namespace>.<name>}. */
    public record PolicyFact(int index, String name, String namespace, String canonical, String factId)
            implements Fact, OfPolicy {
        public PolicyFact(int index, String name, String namespace, String canonical) {
            this(index, name, namespace, canonical, "policies[" + index + "] " + canonical);
        }

        @Override
        public int policyIndex() {
            return index;
        }
    }

    /**
     * {@code policies[policyIndex].policyTemplates[index]}; {@code object} is its own object, null when not observed;
     * {@code served}: the cluster serves its kind (the request's {@code apiResources} lists the kind, or gives no list).
     */
    public record Template(int policyIndex, int index, String name, String kind, boolean ignorePending, boolean applied,
                           Observed object, boolean served, String factId) implements Fact, OfPolicy {
        public Template(int policyIndex, int index, String name, String kind, boolean ignorePending, boolean applied,
                        Observed object) {
            this(policyIndex, index, name, kind, ignorePending, applied, object, true);
        }

        public Template(int policyIndex, int index, String name, String kind, boolean ignorePending, boolean applied,
                        Observed object, boolean served) {
            this(policyIndex, index, name, kind, ignorePending, applied, object, served,
                    "policies[" + policyIndex + "].policyTemplates[" + index + "] " + name);
        }

        /**
         * By position only, which equal templates share (equals still compares every field). The rules join most
         * facts on their template, so Drools hashes a template for every tuple it indexes; hashing every field and
         * the observed object cost the 500-policy benchmark about a tenth of its time.
         */
        @Override
        public int hashCode() {
            return 31 * policyIndex + index;
        }
    }

    /**
     * One entry of the request's dependencies: of a policy's {@code dependencies} ({@code template} null, source
     * POLICY: wanted once for the whole policy, and so for every template of it) or of a template's
     * {@code extraDependencies} (source EXTRA). A PolicySet entry expands to one per member, all at its location;
     * {@code position} orders an owner's entries; {@code object} is the observed object its key names, null when none
     * is. A template's dependency set is the union of both: the rules drop the declared entries that add nothing to it (a
     * later one on the same object, a policy's entries when it has no templates), and judge the rest.
     */
    public record Wanted(int policyIndex, Template template, Source source, int position, String location,
                         Dependency dependency, Observed object, String factId) implements Fact, OfPolicy {
        public Wanted(int policyIndex, Template template, Source source, int position, String location,
                      Dependency dependency, Observed object) {
            this(policyIndex, template, source, position, location, dependency, object,
                    location + " " + dependency.label() + " " + dependency.compliance());
        }

        public String key() {
            return dependency.key();
        }

        public String compliance() {
            return dependency.compliance();
        }

        public String group() {
            return dependency.group();
        }

        public boolean served() {
            return dependency.served();
        }

        public boolean wantsCompliant() {
            return COMPLIANT.equals(dependency.compliance());
        }

        public String targetPolicy() {
            return dependency.targetPolicy();
        }
    }

    /**
     * A dependency entry as the request declares it. The gating rules derive the {@link Wanted} entries from these:
     * every declared entry that no rule {@link Dropped drops} (a later one on the same object, a policy's entries when
     * it has no templates).
     */
    public record Declared(Wanted entry) implements Fact, OfPolicy {
        public int policyIndex() {
            return entry.policyIndex();
        }

        public Template template() {
            return entry.template();
        }

        public Source source() {
            return entry.source();
        }

        public int position() {
            return entry.position();
        }

        public String key() {
            return entry.key();
        }

        public String compliance() {
            return entry.compliance();
        }

        @Override
        public String factId() {
            return entry.factId();
        }
    }

    /** A declared entry that adds nothing to its template's dependency set: it is not wanted. */
    @FactId("dropped {declared.factId}")
    public record Dropped(Declared declared) implements Fact, OfPolicy {
        public int policyIndex() {
            return declared.policyIndex();
        }
    }

    /** How a dependency's owner is named in fact ids: its template, or the policy for a policy-level one. */
    static String owner(int policyIndex, Template template) {
        return template != null ? template.factId() : "policies[" + policyIndex + "]";
    }

    /**
     * An extra dependency of a template wants an object that the policy or an earlier extra entry of the template wants
     * in another compliance state. The first of a template's (by {@code position}) names its template error.
     */
    @FactId("conflict {extra.factId}")
    public record Conflict(Wanted extra) implements Fact {
        public Template template() {
            return extra.template();
        }

        public int position() {
            return extra.position();
        }

        public String dependencyName() {
            return extra.dependency().name();
        }
    }

    /**
     * Two templates of {@code policies[policyIndex]} have one name (whatever their kinds): every template of it is a
     * template error reported under {@code name}, the first name repeated in template order (upstream's
     * {@code getDupName}), and nothing of the policy is created or deleted.
     */
    @FactId("policies[{policyIndex}] repeats the template name {name}")
    public record RepeatedTemplateNames(int policyIndex, String name) implements Fact {}

    /** Two entries of one template want the same object in different compliance states. */
    @FactId("{template.factId} conflicting on {dependencyName}")
    public record ConflictingCompliance(Template template, String dependencyName) implements Fact {
    }

    /**
     * {@code observed[index]}: an object on the managed cluster, as a dependency or a template holds it (not a fact of
     * its own). {@code key} as {@link Dependency#key()}; {@code localKey} is kind, namespace and name, which a template's
     * own object is found by.
     */
    public record Observed(int index, String key, String localKey, String compliant, Long totalViolations) {

        public boolean violationFree() {
            return totalViolations != null && totalViolations == 0L;
        }
    }

    /** A wanted dependency that is met. */
    @FactId("met {wanted.factId}")
    public record Met(Wanted wanted) implements Fact {
        public Template template() {
            return wanted.template();
        }
    }

    /**
     * A wanted dependency that is not met, and why. {@code template} is the template it holds back; null when a
     * policy-level dependency is judged for the whole policy (it is then unmet for each template of the policy).
     */
    public record Unmet(Template template, Wanted wanted, String reason, String factId) implements Fact {
        /** As judged: for the owner of the wanted dependency. */
        public Unmet(Wanted wanted, String reason) {
            this(wanted.template(), wanted, reason, "unmet " + wanted.factId());
        }

        /** A policy-level dependency's judgement, for one template of the policy. */
        public Unmet(Template template, Wanted wanted, String reason) {
            this(template, wanted, reason, "unmet " + owner(wanted.policyIndex(), template) + " wants "
                    + wanted.dependency().label() + " " + wanted.dependency().compliance());
        }

        public int policyIndex() {
            return wanted.policyIndex();
        }

        public String label() {
            return wanted.dependency().label();
        }

        public String targetPolicy() {
            return wanted.targetPolicy();
        }
    }

    /**
     * The unmet policy-level dependencies of one policy, gathered once: each template of the policy inherits them
     * all, with one firing per template rather than one per (template, dependency).
     */
    @FactId("unmet dependencies of policies[{policyIndex}]")
    public record PolicyUnmet(int policyIndex, List<Unmet> unmet) implements Fact, OfPolicy {
        public PolicyUnmet {
            unmet = List.copyOf(unmet);
        }
    }

    /** The state a template reports; {@code compliant} may be null. */
    public record TemplateState(Template template, State state, String compliant, String message, String factId)
            implements Fact {
        public TemplateState(Template template, State state, String compliant, String message) {
            this(template, state, compliant, message, template.factId() + " " + state);
        }

        public int policyIndex() {
            return template.policyIndex();
        }
    }

    /**
     * The name a template is reported under when it is not its own: {@code template-<i>} for conflicting compliance
     * states (ocm-dependencies.md section 4.2), the first repeated name for repeated names (getDupName). Templates
     * without one are reported under their own name.
     */
    @FactId("{template.factId} reported as {name}") public record ReportedName(Template template, String name) implements Fact {}

    /** What to do with the template's object. */
    @FactId("{template.factId} {action}") public record TemplateAction(Template template, Action action) implements Fact {}

    /** A policy's compliance from its templates (the policy-compliance table). */
    @FactId("{policy.factId} {compliant}") public record PolicyCompliance(PolicyFact policy, String compliant) implements Fact {}

    /** {@code policySets[index]}. */
    @FactId("policySets[{index}] {namespace}.{name}")
    public record PolicySetFact(int index, String name, String namespace) implements Fact {
    }

    /** One member of a PolicySet; {@code canonical} is {@code <set namespace>.<member>}. */
    @FactId("{set.factId} member {member}") public record SetMember(PolicySetFact set, String member, String canonical) implements Fact {}

    /** A member's compliance, from the request's policy of the same canonical name. */
    @FactId("{member.factId} {compliant}") public record MemberCompliance(SetMember member, String compliant) implements Fact {}

    /** A member with no compliance (not in the request, or its policy has no state). */
    @FactId("{member.factId} unknown") public record MemberUnknown(SetMember member) implements Fact {}

    /** A PolicySet's compliance over its members (the policyset-compliance table). */
    @FactId("{set.factId} {compliant}") public record SetCompliance(PolicySetFact set, String compliant) implements Fact {}

    /** One part of a PolicySet's status message; parts are joined by {@code order}. */
    @FactId("{set.factId} message part {order}")
    public record SetMessagePart(PolicySetFact set, int order, String text) implements Fact {
        /** The parts' texts by their order, joined as one message. */
        public static String joined(Collection<SetMessagePart> parts) {
            return parts.stream().sorted(Comparator.comparingInt(SetMessagePart::order)).map(SetMessagePart::text)
                    .collect(Collectors.joining("; "));
        }
    }

    @FactId("{set.factId} message") public record SetMessage(PolicySetFact set, String message) implements Fact {}

    /** A pending template waits on a dependency ("Kind name") directly: one of its unmet dependencies. */
    @FactId("{template.factId} waits on {label}")
    public record WaitingOn(Template template, String label, String targetPolicy) implements Fact {
    }

    /** A request policy that some pending template waits on. */
    @FactId("{policy.factId} is waited on") public record WaitedOn(PolicyFact policy) implements Fact {}

    /**
     * A waited-on request policy waits on a dependency ("Kind name") directly, through one of its pending templates:
     * the next link of a waiting chain, stated once for the policy.
     */
    @FactId("{policy.factId} waits on {label}")
    public record PolicyWaitingOn(PolicyFact policy, String label, String targetPolicy) implements Fact {
    }

    /** A request policy depends on another request policy (an edge of the dependency graph). */
    @FactId("{from.canonical} -> {to.canonical}") public record DependsOn(PolicyFact from, PolicyFact to) implements Fact {}

    /**
     * Request policies that each reach every other along dependency edges (a strongly connected component of the
     * graph), named by the smallest canonical name among them, {@code first}; {@code loop}: the policies around the
     * loop from it ({@link DependencyGraph}).
     */
    @FactId("strongly connected from {first.canonical} ({members.size} policies)")
    public record StronglyConnected(PolicyFact first, List<PolicyFact> members, List<PolicyFact> loop) implements Fact {
    }

    /** A dependency cycle, named by its smallest policy; {@code loop}: the policies around it from that one. */
    @FactId("cycle at {first.canonical}") public record Cycle(PolicyFact first, List<PolicyFact> loop) implements Fact {}
}
