package io.arbiter.cli;

import io.arbiter.policytype.PolicyTypeRegistry;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.List;

/** {@code arbiter}: the policy decision service and its offline tools. */
@Command(name = "arbiter", mixinStandardHelpOptions = true, versionProvider = ArbiterCli.Version.class,
        description = "Decides which Implementation serves a Capact Interface under the cluster's policies.",
        subcommands = {ServeCommand.class, CommandLine.HelpCommand.class})
public final class ArbiterCli {

    /** The policy types the subcommands decide, lint and test with: they reach it through {@link ArbiterCommand#registry}. */
    final PolicyTypeRegistry registry;

    private ArbiterCli(PolicyTypeRegistry registry) {
        this.registry = registry;
    }

    public static void main(String[] args) {
        System.exit(commandLine(PolicyTypeRegistry.discover()).execute(args));
    }

    /** The command line, with {@code decide <target>} and {@code policy-types} generated from the registry. */
    public static CommandLine commandLine(PolicyTypeRegistry registry) {
        CommandLine cli = new CommandLine(new ArbiterCli(registry));
        cli.addSubcommand("decide", DecideCommand.withTargets(registry));
        cli.addSubcommand("policy-types", new PolicyTypesCommand());
        cli.addSubcommand("lint", new LintCommand());
        cli.addSubcommand("test", new TestCommand());
        cli.addSubcommand("migrate", new MigrateCommand());
        cli.addSubcommand("audit", new AuditCommand());
        cli.addSubcommand("impact", new ImpactCommand());
        // set after the subcommands are added: picocli applies these to the subcommands it has at the time
        return cli.setCaseInsensitiveEnumValuesAllowed(true).setExecutionExceptionHandler(ArbiterCli::reportFailure);
    }

    /** Start-up and input failures are one clear line (plus located problems), not a stack trace. */
    private static int reportFailure(Exception failure, CommandLine command, CommandLine.ParseResult parseResult) {
        Throwable cause = failure instanceof java.util.concurrent.ExecutionException && failure.getCause() != null
                ? failure.getCause() : failure;
        if (io.arbiter.analysis.CompileProblems.isCompileFailure(cause)
                && command.getCommand() instanceof ArbiterCommand arbiterCommand && arbiterCommand.loadedSettings() != null) {
            // as lint reports them: at the table's row and column, not at the compiler's internal build path
            java.util.Optional<String> located = io.arbiter.analysis.CompileProblems.located(cause,
                    ((ArbiterCli) command.getCommandSpec().root().userObject()).registry, arbiterCommand.loadedSettings());
            if (located.isPresent()) {
                Console.error(command.getCommandSpec(), located.get(), List.of());
                return 2;
            }
        }
        Console.error(command.getCommandSpec(), cause.getMessage(),
                cause instanceof io.arbiter.document.DocumentException document ? document.problems() : List.of());
        boolean usage = cause instanceof IllegalArgumentException || cause instanceof io.arbiter.document.DocumentException
                || cause instanceof java.io.UncheckedIOException || cause instanceof io.arbiter.engine.RuleBaseException
                || cause instanceof io.arbiter.decision.SnapshotLoadException
                || cause instanceof io.arbiter.runtime.PolicySource.SourceUnavailableException;
        if (!usage) {
            cause.printStackTrace(command.getErr());
        }
        return usage ? 2 : 1;
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = ArbiterCli.class.getPackage().getImplementationVersion();
            return new String[]{"arbiter " + (version == null ? "development build" : version)};
        }
    }
}
