package io.arbiter.policy;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.model.Ref;

import java.util.List;

/**
 * A Capact policy in the current syntax (policy-syntax.md section 1). Immutable; becomes facts for the rules.
 *
 * @param defaults           {@code interface.default.inject}
 * @param rules              {@code interface.rules}
 * @param typeInstanceRules  {@code typeInstance.rules}
 */
public record Policy(Inject defaults, List<InterfaceRule> rules, List<TypeInstanceRule> typeInstanceRules) {

    /** Where a policy document holds additional parameter values, which may be secrets (a path for {@code Masks}). */
    public static final String PARAMETER_VALUES = "interface.rules[].oneOf[].inject.additionalParameters[].value";

    public static final Policy EMPTY = new Policy(Inject.NONE, List.of(), List.of());

    public Policy {
        defaults = defaults == null ? Inject.NONE : defaults;
        rules = List.copyOf(rules);
        typeInstanceRules = List.copyOf(typeInstanceRules);
    }

    /** {@code interface.rules[i]}: the Interface it is for (revision may be null) and its ordered preferences. */
    public record InterfaceRule(Ref interfaceRef, List<OneOfItem> oneOf) {
        public InterfaceRule {
            oneOf = List.copyOf(oneOf);
        }
    }

    /** {@code oneOf[j]}: constraints an Implementation must meet, and what to inject when it is chosen. */
    public record OneOfItem(ImplementationConstraints constraints, Inject inject) {
    }

    /** All fields optional; an empty instance accepts any Implementation. */
    public record ImplementationConstraints(String path, List<Ref> attributes, List<Ref> requires) {
        public static final ImplementationConstraints ANY = new ImplementationConstraints(null, List.of(), List.of());

        public ImplementationConstraints {
            attributes = List.copyOf(attributes);
            requires = List.copyOf(requires);
        }
    }

    public record Inject(List<RequiredTypeInstance> requiredTypeInstances,
                         List<AdditionalParameter> additionalParameters,
                         List<AdditionalTypeInstance> additionalTypeInstances) {
        public static final Inject NONE = new Inject(List.of(), List.of(), List.of());

        public Inject {
            requiredTypeInstances = List.copyOf(requiredTypeInstances);
            additionalParameters = List.copyOf(additionalParameters);
            additionalTypeInstances = List.copyOf(additionalTypeInstances);
        }
    }

    public record RequiredTypeInstance(String id, String description) {
    }

    public record AdditionalParameter(String name, JsonNode value) {
    }

    public record AdditionalTypeInstance(String name, String id) {
    }

    public record TypeInstanceRule(Ref typeRef, Backend backend) {
    }

    public record Backend(String id, String description) {
    }
}
