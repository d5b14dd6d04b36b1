package io.arbiter.cli;

import io.arbiter.policytype.PolicyTypeRegistry;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One run of the {@code arbiter} command line in-process: its exit status and what it printed. */
record CliRun(int exit, String out, String err) {

    static CliRun run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cli = ArbiterCli.commandLine(PolicyTypeRegistry.discover());
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int exit = cli.execute(args);
        return new CliRun(exit, out.toString(), err.toString());
    }
}
