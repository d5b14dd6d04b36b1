package io.arbiter.cli;

import io.arbiter.policytype.PolicyTypeRegistry;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code arbiter}: the policy decision service and its offline tools. */
@Command(name = "arbiter", mixinStandardHelpOptions = true, versionProvider = ArbiterCli.Version.class,
        description = "Decides which Implementation serves a Capact Interface under the cluster's policies.",
        subcommands = {ServeCommand.class, CommandLine.HelpCommand.class})
public final class ArbiterCli {

    public static void main(String[] args) {
        System.exit(commandLine(PolicyTypeRegistry.discover()).execute(args));
    }

    /** The command line, with {@code decide <target>} and {@code policy-types} generated from the registry. */
    public static CommandLine commandLine(PolicyTypeRegistry registry) {
        CommandLine cli = new CommandLine(new ArbiterCli()).setCaseInsensitiveEnumValuesAllowed(true);
        cli.addSubcommand("decide", DecideCommand.withTargets(registry));
        cli.addSubcommand("policy-types", new PolicyTypesCommand(registry));
        return cli;
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = ArbiterCli.class.getPackage().getImplementationVersion();
            return new String[]{"arbiter " + (version == null ? "development build" : version)};
        }
    }
}
