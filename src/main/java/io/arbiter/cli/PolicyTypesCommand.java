package io.arbiter.cli;

import io.arbiter.policytype.DecisionData;
import io.arbiter.policytype.PolicyType;
import io.arbiter.policytype.PolicyTypeVersion;
import io.arbiter.policytype.PolicyTypeView;
import io.arbiter.policytype.Target;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.stream.Collectors;

/** {@code arbiter policy-types}: the registered policy types, their versions, support status and targets. */
@Command(name = "policy-types", mixinStandardHelpOptions = true,
        description = "List the registered policy types: versions with support-status history, targets, schemas.")
final class PolicyTypesCommand extends ArbiterCommand {

    @Option(names = "--json", description = "Print JSON (as GET /v1/policy-types/{name}, with schemas) instead of text.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        if (json) {
            console.printJson(registry().types().stream().map(type -> PolicyTypeView.of(type, true)).toList());
        } else {
            registry().types().forEach(type -> print(type, console.out()));
        }
        return 0;
    }

    private static void print(PolicyType type, PrintWriter out) {
        out.println(type.name() + ": " + type.description());
        for (PolicyTypeVersion version : type.versions()) {
            out.println("  version " + version.version() + "  " + version.status() + "  (" + version.statusHistory().stream()
                    .map(change -> change.status() + " since " + change.since()).collect(Collectors.joining(", ")) + ")");
        }
        for (Target target : type.targets()) {
            out.println("  target  POST /v1/decisions/" + target.name() + "  (arbiter decide " + target.name() + ")");
        }
        if (!type.consumes().isEmpty()) {
            out.println("  consumes " + String.join(", ", type.consumes().stream().map(DecisionData::toString).toList()));
        }
        if (!type.produces().isEmpty()) {
            out.println("  produces " + String.join(", ", type.produces().stream().map(DecisionData::toString).toList()));
        }
    }
}
