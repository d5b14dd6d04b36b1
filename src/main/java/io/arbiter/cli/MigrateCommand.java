package io.arbiter.cli;

import io.arbiter.document.DocumentException;
import io.arbiter.document.Documents;
import io.arbiter.policy.LegacyPolicyConverter;
import io.arbiter.policy.PolicyDocument;
import io.arbiter.policy.PolicyParser;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/** {@code arbiter migrate FILE}: a legacy (0.1.0) policy converted to the current syntax, printed as YAML. */
@Command(name = "migrate", mixinStandardHelpOptions = true,
        description = {"Print a legacy policy (apiVersion 0.1.0, rules: map) converted to the current syntax, as YAML.",
                "Exit status: 0 converted, 1 the policy has problems (listed on standard error), 2 usage error."})
final class MigrateCommand extends ArbiterCommand {

    @Parameters(paramLabel = "FILE", description = "The policy to convert (YAML or JSON).")
    Path file;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = console.out();
        if (!Files.isRegularFile(file)) {
            console.error(file + " is not a file");
            return 2;
        }
        try {
            var document = Documents.parseYaml(Files.readAllBytes(file));
            if (!LegacyPolicyConverter.isLegacy(document.tree())) {
                console.error(file + " is already in the current syntax; printing it unchanged");
            }
            PolicyDocument policy = PolicyParser.parse(document);
            out.print(Documents.yamlMapper().writeValueAsString(policy.source()));
            out.flush();
            return 0;
        } catch (DocumentException e) {
            console.error(file + ": " + e.getMessage(), e.problems());
            return 1;
        }
    }
}
