package io.arbiter.decision;

import io.arbiter.model.Ref;
import io.arbiter.model.TypeInstance;

import java.nio.file.Path;
import java.util.List;

/**
 * Where a snapshot's parts come from. A null path means the embedded default packaged in the jar.
 *
 * @param platformTypeInstances TypeInstances the platform always provides (policy-syntax 3.4)
 */
public record Settings(Path policyFile, Path hubDir, Path typeInstancesFile, Path rulesDir, Path tablesDir,
                       List<TypeInstance> platformTypeInstances, List<String> policyOrder) {

    public static final List<TypeInstance> DEFAULT_PLATFORM = List.of(new TypeInstance(
            "platform:cap.core.type.platform.kubernetes", new Ref("cap.core.type.platform.kubernetes", "0.1.0"),
            "the Kubernetes cluster Arbiter serves"));

    public static final List<String> POLICY_KINDS = List.of("ACTION", "GLOBAL", "WORKFLOW");

    public Settings {
        platformTypeInstances = List.copyOf(platformTypeInstances);
        policyOrder = List.copyOf(policyOrder);
        if (!policyOrder.isEmpty() && (policyOrder.size() != 3 || !policyOrder.containsAll(POLICY_KINDS))) {
            throw new IllegalArgumentException("policy order must name ACTION, GLOBAL and WORKFLOW once each, highest first; got " + policyOrder);
        }
    }

    public static Settings embedded() {
        return new Settings(null, null, null, null, null, DEFAULT_PLATFORM, List.of());
    }

    public Settings withPolicyFile(Path file) {
        return new Settings(file, hubDir, typeInstancesFile, rulesDir, tablesDir, platformTypeInstances, policyOrder);
    }

    public Settings withHubDir(Path dir) {
        return new Settings(policyFile, dir, typeInstancesFile, rulesDir, tablesDir, platformTypeInstances, policyOrder);
    }

    public Settings withTypeInstancesFile(Path file) {
        return new Settings(policyFile, hubDir, file, rulesDir, tablesDir, platformTypeInstances, policyOrder);
    }

    public Settings withPolicyOrder(List<String> order) {
        return new Settings(policyFile, hubDir, typeInstancesFile, rulesDir, tablesDir, platformTypeInstances, order);
    }

    public Settings withRules(Path rules, Path tables) {
        return new Settings(policyFile, hubDir, typeInstancesFile, rules, tables, platformTypeInstances, policyOrder);
    }
}
