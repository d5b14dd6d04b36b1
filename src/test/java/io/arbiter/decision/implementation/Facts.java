package io.arbiter.decision.implementation;

import io.arbiter.decision.implementation.ImplementationFacts.AvailableTypeInstance;
import io.arbiter.decision.implementation.ImplementationFacts.InjectedTypeInstance;
import io.arbiter.decision.implementation.ImplementationFacts.InjectionSource;
import io.arbiter.decision.implementation.ImplementationFacts.OneOfItem;
import io.arbiter.decision.implementation.ImplementationFacts.PolicyRule;
import io.arbiter.model.Implementation;
import io.arbiter.model.Quantifier;
import io.arbiter.model.Ref;
import io.arbiter.model.Requirement;
import io.arbiter.model.RequirementGroup;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Small builders for hand-made fact sets in rule tests. */
final class Facts {

    static final Ref POSTGRES = new Ref("cap.interface.database.postgresql.install", "0.1.0");
    static final Ref K8S = new Ref("cap.core.type.platform.kubernetes", "0.1.0");
    static final Ref GCP_SA = new Ref("cap.type.gcp.auth.service-account", "0.1.0");

    private Facts() {
    }

    static PolicyRule rule(int index, Ref iface, int oneOfCount) {
        return new PolicyRule("interface.rules[" + index + "]", index, iface, ImplementationDecider.keyKind(iface), oneOfCount);
    }

    static OneOfItem item(PolicyRule rule, int index, String path, List<Ref> attributes, List<Ref> requires) {
        return new OneOfItem(rule.id() + ".oneOf[" + index + "]", rule.id(), index, path, attributes, requires);
    }

    static OneOfItem anyItem(PolicyRule rule, int index) {
        return item(rule, index, null, List.of(), List.of());
    }

    static AvailableTypeInstance available(String id, Ref type) {
        return new AvailableTypeInstance(id, type);
    }

    static InjectedTypeInstance injected(OneOfItem item, String id, Ref type) {
        return new InjectedTypeInstance(item.id(), id, type, InjectionSource.RULE_INJECT);
    }

    /** An Implementation builder: {@code impl("cap.implementation.x", "0.1.0").attribute(...).requires(...).build()}. */
    static Builder impl(String path, String revision) {
        return new Builder(path, revision);
    }

    static final class Builder {
        private final String path;
        private final String revision;
        private final List<Ref> attributes = new ArrayList<>();
        private final List<RequirementGroup> groups = new ArrayList<>();
        private final List<Requirement> requirements = new ArrayList<>();
        private Ref implemented = POSTGRES;

        Builder(String path, String revision) {
            this.path = path;
            this.revision = revision;
        }

        Builder implementing(Ref iface) {
            implemented = iface;
            return this;
        }

        Builder attribute(String attributePath, String attributeRevision) {
            attributes.add(new Ref(attributePath, attributeRevision));
            return this;
        }

        /** One requirement group; items are {type, alias-or-null} pairs. */
        Builder requires(String prefix, Quantifier quantifier, Object... typesAndAliases) {
            String key = path + ":" + revision;
            groups.add(new RequirementGroup(key, prefix, quantifier, typesAndAliases.length / 2));
            for (int i = 0; i < typesAndAliases.length; i += 2) {
                requirements.add(new Requirement(key, prefix, quantifier, i / 2, (Ref) typesAndAliases[i],
                        (String) typesAndAliases[i + 1]));
            }
            return this;
        }

        Implementation build() {
            return new Implementation(path, revision, List.of(implemented), attributes, groups, requirements, Map.of(), Map.of());
        }
    }

    /** The Implementation plus its groups and requirements, as the decider inserts them. */
    static List<Object> withRequirements(Implementation implementation) {
        List<Object> facts = new ArrayList<>();
        facts.add(implementation);
        facts.addAll(implementation.requirementGroups());
        facts.addAll(implementation.requirements());
        return facts;
    }
}
