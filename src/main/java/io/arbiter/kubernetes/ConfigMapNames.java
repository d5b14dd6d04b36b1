package io.arbiter.kubernetes;

import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * How the ConfigMaps of one Arbiter instance are named and labelled (docs/kubernetes.md): {@code <instance>-policy}
 * holds the global policy under {@code policy.yaml}; {@code <instance>-rules-<folder>} holds one rule folder's DRL
 * ({@code *.drl}) and decision tables ({@code *.drl.csv}, or {@code *.drl.xlsx} in {@code binaryData}). Every one
 * carries {@code app.kubernetes.io/name: arbiter}, {@code app.kubernetes.io/instance: <instance>},
 * {@code app.kubernetes.io/component: policy|rules} and {@code app.kubernetes.io/part-of: arbiter}: the informer
 * selects by name and instance.
 */
public final class ConfigMapNames {

    public static final String NAME_LABEL = "app.kubernetes.io/name";
    public static final String INSTANCE_LABEL = "app.kubernetes.io/instance";
    public static final String COMPONENT_LABEL = "app.kubernetes.io/component";
    public static final String PART_OF_LABEL = "app.kubernetes.io/part-of";
    /** On a rules ConfigMap: the rule folder it holds (as {@code rules/<folder>/}, {@code decision-tables/<folder>/}). */
    public static final String RULE_FOLDER_LABEL = "arbiter.io/rule-folder";
    public static final String POLICY_KEY = "policy.yaml";

    private ConfigMapNames() {
    }

    public static String policy(String instance) {
        return instance + "-policy";
    }

    public static String rules(String instance, String folder) {
        return instance + "-rules-" + folder;
    }

    /** The labels the informer selects by. */
    public static Map<String, String> selector(String instance) {
        return Map.of(NAME_LABEL, "arbiter", INSTANCE_LABEL, instance);
    }

    /** Every label of a ConfigMap of {@code component} ({@code policy} or {@code rules}). */
    public static Map<String, String> labels(String instance, String component) {
        return Map.of(NAME_LABEL, "arbiter", INSTANCE_LABEL, instance, COMPONENT_LABEL, component, PART_OF_LABEL, "arbiter");
    }

    /** {@code POD_NAME} (the Downward API), else {@code HOSTNAME}, else the host's name. */
    static String replicaName(UnaryOperator<String> environment) {
        for (String variable : new String[]{"POD_NAME", "HOSTNAME"}) {
            String value = environment.apply(variable);
            if (value != null && !value.isBlank()) {
                return value.trim();
            }
        }
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            return "unknown-host";
        }
    }
}
