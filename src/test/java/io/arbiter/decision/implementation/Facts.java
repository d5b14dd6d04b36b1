package io.arbiter.decision.implementation;

import io.arbiter.decision.merge.PolicyMergeFacts.*;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.decision.implementation.ImplementationFacts.AdditionalParameterEntry;
import io.arbiter.decision.implementation.ImplementationFacts.AdditionalTypeInstanceEntry;
import io.arbiter.decision.implementation.ImplementationFacts.AvailableTypeInstance;
import io.arbiter.decision.implementation.ImplementationFacts.InjectedTypeInstance;
import io.arbiter.decision.implementation.ImplementationFacts.InjectionSource;
import io.arbiter.decision.implementation.ImplementationFacts.OneOfItem;
import io.arbiter.decision.implementation.ImplementationFacts.PolicyRule;
import io.arbiter.decision.merge.PolicyMergeFacts.PolicySource;
import io.arbiter.decision.implementation.ImplementationFacts.RequiredEntry;
import io.arbiter.decision.implementation.ImplementationFacts.SourceItem;
import io.arbiter.decision.merge.PolicyMergeFacts.SourceKind;
import io.arbiter.decision.implementation.ImplementationFacts.SourceRule;
import io.arbiter.model.Implementation;
import io.arbiter.model.Quantifier;
import io.arbiter.model.Ref;
import io.arbiter.model.Requirement;
import io.arbiter.model.RequirementGroup;
import io.arbiter.policy.Policy.ImplementationConstraints;

import java.util.ArrayList;
import java.util.LinkedHashMap;
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
        return new PolicyRule("interface.rules[" + index + "]", index, iface, oneOfCount);
    }

    static OneOfItem item(PolicyRule rule, int index, String path, List<Ref> attributes, List<Ref> requires) {
        return new OneOfItem(rule.id() + ".oneOf[" + index + "]", rule.id(), index, path, attributes, requires);
    }

    /** The item plus its constraints as facts, as the decider inserts them for its source item. */
    static List<Object> withConstraints(OneOfItem item) {
        List<Object> facts = new ArrayList<>();
        facts.add(item);
        facts.addAll(ImplementationDecider.constraintFacts(item.id(), item.attributes(), item.requires()));
        return facts;
    }

    /** The source item plus its constraints as facts, as the decider inserts them. */
    static List<Object> withConstraints(SourceItem item) {
        List<Object> facts = new ArrayList<>();
        facts.add(item);
        facts.addAll(ImplementationDecider.constraintFacts(item.id(), item.constraints().attributes(),
                item.constraints().requires()));
        return facts;
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
        private final Map<String, Ref> additionalParameters = new LinkedHashMap<>();
        private final Map<String, Ref> additionalTypeInstances = new LinkedHashMap<>();
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

        /** {@code spec.additionalInput.parameters[name]}: the parameter's Type. */
        Builder additionalParameter(String name, Ref type) {
            additionalParameters.put(name, type);
            return this;
        }

        /** {@code spec.additionalInput.typeInstances[name]}: the TypeInstance's Type. */
        Builder additionalTypeInstance(String name, Ref type) {
            additionalTypeInstances.put(name, type);
            return this;
        }

        Implementation build() {
            return new Implementation(path, revision, List.of(implemented), attributes, groups, requirements,
                    additionalParameters, additionalTypeInstances);
        }
    }

    /** The Implementation plus its attributes, groups and requirements, as the decider inserts them. */
    static List<Object> withRequirements(Implementation implementation) {
        List<Object> facts = new ArrayList<>();
        facts.add(implementation);
        facts.addAll(io.arbiter.model.ImplementationAttribute.of(implementation));
        facts.addAll(implementation.requirementGroups());
        facts.addAll(implementation.requirements());
        return facts;
    }

    // ---- the policies to merge, as ImplementationDecider.policyFacts inserts them ----

    static PolicySource actionPolicy() {
        return new PolicySource("actionPolicy", SourceKind.ACTION, 0, "$.actionPolicy");
    }

    static PolicySource globalPolicy() {
        return new PolicySource("global", SourceKind.GLOBAL, 0, "$");
    }

    static PolicySource workflowPolicy(int ordinal) {
        return new PolicySource("workflowPolicies[" + ordinal + "]", SourceKind.WORKFLOW, ordinal,
                "$.workflowPolicies[" + ordinal + "]");
    }

    private static String prefix(PolicySource source) {
        return source.location().equals("$") ? "" : source.location() + ".";
    }

    /** {@code interface.rules[index]} of a source. */
    static SourceRule sourceRule(PolicySource source, int index, Ref iface) {
        return new SourceRule(prefix(source) + "interface.rules[" + index + "]", source.id(), iface.toString(), iface);
    }

    /** {@code oneOf[index]} of a source rule. */
    static SourceItem sourceItem(SourceRule rule, int index, ImplementationConstraints constraints) {
        return new SourceItem(rule.id() + ".oneOf[" + index + "]", rule.sourceId(), rule.key(), index, constraints);
    }

    static ImplementationConstraints constraints(String path) {
        return new ImplementationConstraints(path, List.of(), List.of());
    }

    /** {@code inject.requiredTypeInstances[k]} of an item; {@code type} null when the store cannot resolve the id. */
    static RequiredEntry required(SourceItem item, int k, String id, Ref type) {
        return new RequiredEntry(item.id() + ".inject.requiredTypeInstances[" + k + "]", item.sourceId(), item.id(), id, type);
    }

    /** {@code interface.default.inject.requiredTypeInstances[k]} of a source. */
    static RequiredEntry defaultRequired(PolicySource source, int k, String id, Ref type) {
        return new RequiredEntry(prefix(source) + "interface.default.inject.requiredTypeInstances[" + k + "]", source.id(),
                null, id, type);
    }

    static AdditionalTypeInstanceEntry additionalTypeInstance(SourceItem item, int k, String name, String id, Ref type) {
        return new AdditionalTypeInstanceEntry(item.id() + ".inject.additionalTypeInstances[" + k + "]", item.sourceId(),
                item.id(), name, id, type, k);
    }

    static AdditionalParameterEntry additionalParameter(SourceItem item, int k, String name, JsonNode value) {
        return new AdditionalParameterEntry(item.id() + ".inject.additionalParameters[" + k + "]", item.sourceId(),
                item.id(), name, value, k);
    }
}
