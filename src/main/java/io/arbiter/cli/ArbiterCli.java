package io.arbiter.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code arbiter}: the policy decision service and its offline tools. */
@Command(name = "arbiter", mixinStandardHelpOptions = true, versionProvider = ArbiterCli.Version.class,
        description = "Decides which Implementation serves a Capact Interface under the cluster's policies.",
        subcommands = {ServeCommand.class, DecideCommand.class, CommandLine.HelpCommand.class})
public final class ArbiterCli {

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    public static CommandLine commandLine() {
        return new CommandLine(new ArbiterCli()).setCaseInsensitiveEnumValuesAllowed(true);
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = ArbiterCli.class.getPackage().getImplementationVersion();
            return new String[]{"arbiter " + (version == null ? "development build" : version)};
        }
    }
}
