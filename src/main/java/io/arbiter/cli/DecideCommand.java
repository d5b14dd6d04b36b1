package io.arbiter.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.decision.DecisionException;
import io.arbiter.runtime.Decisions;
import io.arbiter.runtime.SnapshotLoader;
import io.arbiter.document.DocumentException;
import io.arbiter.document.Documents;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.policytype.Target;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code arbiter decide TARGET}: one decision printed as the JSON the HTTP endpoint would answer. One subcommand
 * per decision target of the registered policy types; a type may contribute options that build the request.
 */
@Command(name = "decide", mixinStandardHelpOptions = true,
        description = "Print a decision as JSON, without a server. One subcommand per decision target.")
final class DecideCommand implements Callable<Integer> {

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return 2;
    }

    /** Adds {@code decide <target>} for every target in the registry. */
    static CommandLine withTargets(PolicyTypeRegistry registry) {
        CommandLine decide = new CommandLine(new DecideCommand());
        for (Target target : registry.targets()) {
            TargetCommand command = new TargetCommand(target);
            CommandLine sub = new CommandLine(command);
            sub.getCommandSpec().usageMessage().description(target.description());
            if (target.cliOptions() != null) {
                command.requestOptions = target.cliOptions().get();
                sub.addMixin("request", command.requestOptions);
            }
            decide.addSubcommand(target.name(), sub);
        }
        return decide;
    }

    @Command(mixinStandardHelpOptions = true)
    static final class TargetCommand extends ArbiterCommand {

        private final Target target;
        Target.CliRequest requestOptions;

        @Option(names = "--request", paramLabel = "FILE",
                description = "The request body as JSON or YAML (as for POST /v1/decisions/<target>); - reads standard input.")
        Path request;

        @Mixin
        SnapshotOptions snapshot;

        TargetCommand(Target target) {
            this.target = target;
        }

        @Override
        io.arbiter.decision.Settings loadedSettings() {
            return snapshot.settings();
        }

        @Override
        public Integer call() throws Exception {
            JsonNode fromOptions = requestOptions == null ? null : requestOptions.toRequest();
            byte[] body;
            if (request != null) {
                if (request.toString().equals("-")) {
                    body = System.in.readAllBytes();
                } else if (!Files.isRegularFile(request)) {
                    console.error("--request " + request + ": " + (Files.exists(request) ? "not a file" : "no such file")
                            + " (give the path of a JSON or YAML request, or - to read it from standard input)");
                    return 2;
                } else {
                    body = Files.readAllBytes(request);
                }
            } else if (fromOptions != null) {
                body = Documents.jsonMapper().writeValueAsBytes(fromOptions);
            } else {
                console.error("give --request FILE" + (requestOptions == null ? "" : " or the request options")
                        + " (see --help)");
                return 2;
            }
            Decisions decisions = new Decisions(registry(), SnapshotLoader.load(snapshot.settings(), registry()));
            try {
                JsonNode decision = decisions.decide(target.name(), body, "application/yaml");
                console.printJson(decision);
                return 0;
            } catch (DecisionException e) {
                console.error(e.code() + ": " + e.getMessage(), e.problems());
                return e.code() == DecisionException.Code.INVALID_POLICY ? 3 : 2;
            } catch (DocumentException e) {
                console.error(e.getMessage(), e.problems());
                return 2;
            }
        }
    }
}
