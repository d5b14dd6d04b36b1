package io.arbiter.cli;

import io.arbiter.decision.Settings;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/** The options that say where policy, catalog, TypeInstances and rules come from. Absent: the embedded default. */
final class SnapshotOptions {

    @Option(names = "--policy", paramLabel = "FILE", description = "Global policy (YAML or JSON). Default: the embedded default policy.")
    Path policy;

    @Option(names = "--hub", paramLabel = "DIR", description = "Directory of OCF manifests (Implementation, Interface, Type, Attribute). Default: the embedded fixture catalog.")
    Path hub;

    @Option(names = "--type-instances", paramLabel = "FILE", description = "TypeInstance store (YAML or JSON list). Default: the embedded fixture store.")
    Path typeInstances;

    @Option(names = "--rules", paramLabel = "DIR", description = "Load DRL from DIR/<kind>/ instead of the packaged rules (needs --decision-tables too).")
    Path rules;

    @Option(names = "--decision-tables", paramLabel = "DIR", description = "Load decision tables from DIR/<kind>/ instead of the packaged ones (needs --rules too).")
    Path tables;

    @Option(names = "--policy-order", split = ",", paramLabel = "KIND",
            description = "Merge order of policies, highest first: ACTION,GLOBAL,WORKFLOW in any order. Default: the merge-order decision table (ACTION,GLOBAL,WORKFLOW).")
    java.util.List<String> policyOrder;

    Settings settings() {
        if ((rules == null) != (tables == null)) {
            throw new IllegalArgumentException("--rules and --decision-tables go together: give both or neither");
        }
        return Settings.embedded().withPolicyFile(policy).withHubDir(hub).withTypeInstancesFile(typeInstances)
                .withRules(rules, tables)
                .withPolicyOrder(policyOrder == null ? java.util.List.of()
                        : policyOrder.stream().map(kind -> kind.trim().toUpperCase(java.util.Locale.ROOT)).toList());
    }
}
