package io.arbiter.cli;

import io.arbiter.http.ServerOptions;
import io.arbiter.policytype.PolicyTypeRegistry;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** serve's network options: loopback unless told otherwise, and connection timeouts with sensible defaults. */
class ServeOptionsTest {

    private static ServerOptions options(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "serve";
        System.arraycopy(args, 0, all, 1, args.length);
        var parsed = ArbiterCli.commandLine(PolicyTypeRegistry.discover()).parseArgs(all);
        ServeCommand serve = (ServeCommand) parsed.subcommand().commandSpec().userObject();
        return serve.serverOptions(null);
    }

    @Test
    void servesOnLoopbackByDefault() {
        assertEquals("127.0.0.1", options().host());
        assertEquals("0.0.0.0", options("--host", "0.0.0.0").host());
    }

    @Test
    void timeoutsDefaultAndCanBeSet() {
        ServerOptions defaults = options();
        ServerOptions set = options("--idle-timeout", "10", "--read-timeout", "5", "--watch-settle", "250");

        assertEquals(ServerOptions.DEFAULT_IDLE_TIMEOUT, defaults.idleTimeout());
        assertEquals(ServerOptions.DEFAULT_READ_TIMEOUT, defaults.readTimeout());
        assertEquals(Duration.ofSeconds(10), set.idleTimeout());
        assertEquals(Duration.ofSeconds(5), set.readTimeout());
        assertEquals(Duration.ofMillis(250), set.watchSettle());
    }

    @Test
    void aTimeoutOutOfRangeIsAUsageError() {
        var e = assertThrows(CommandLine.ParameterException.class, () -> options("--read-timeout", "0"));
        assertTrue(e.getMessage().contains("--read-timeout"), e.getMessage());
        assertThrows(CommandLine.ParameterException.class, () -> options("--idle-timeout", "-1"));
        assertThrows(CommandLine.ParameterException.class, () -> options("--watch-settle", "-5"));
    }

    @Test
    void theKubernetesSourceTakesItsOptionsAndRefusesFileOptions() {
        ServerOptions kubernetes = options("--source", "kubernetes", "--kubernetes-namespace", "policy",
                "--kubernetes-instance", "arbiter-eu");
        assertEquals("policy", kubernetes.kubernetes().namespace());
        assertEquals("arbiter-eu", kubernetes.kubernetes().instance());
        assertEquals(null, options().kubernetes(), "files are the default source");

        for (String[] wrong : new String[][]{{"--source", "kubernetes", "--watch"}, {"--source", "kubernetes", "--policy", "p.yaml"},
                {"--kubernetes-namespace", "x"}, {"--source", "kubernetes", "--kubernetes-instance", "Not_A_Name"}}) {
            assertThrows(CommandLine.ParameterException.class, () -> options(wrong), String.join(" ", wrong));
        }
    }

    /** The command line, with serve reading ARBITER_ADMIN_TOKEN as {@code token} (null: not set). */
    private static CommandLine withAdminToken(String token) {
        var cli = ArbiterCli.commandLine(PolicyTypeRegistry.discover());
        ((ServeCommand) cli.getSubcommands().get("serve").getCommand()).environment =
                name -> name.equals("ARBITER_ADMIN_TOKEN") ? token : null;
        return cli;
    }

    private static ServeCommand serveWithAdminToken(String token) {
        return (ServeCommand) withAdminToken(token).getSubcommands().get("serve").getCommand();
    }

    /** serve, run with ARBITER_ADMIN_TOKEN set to {@code token}: its exit status and standard error. */
    private static CliRun serveRun(String token) {
        var cli = withAdminToken(token);
        java.io.StringWriter err = new java.io.StringWriter();
        cli.setErr(new java.io.PrintWriter(err));
        cli.setOut(new java.io.PrintWriter(new java.io.StringWriter()));
        int exit = cli.execute("serve", "--port", "0");
        return new CliRun(exit, "", err.toString());
    }

    @Test
    void anAdminTokenReadFromAFileLosesItsFinalNewline() {
        assertEquals("s3cret", serveWithAdminToken("s3cret\n").adminToken());
        assertEquals("s3cret", serveWithAdminToken(" s3cret\r\n").adminToken());
        assertEquals(null, serveWithAdminToken(null).adminToken());
    }

    @Test
    void anAdminTokenThatNoRequestCouldMatchStopsStartUpSayingWhy() {
        CliRun empty = serveRun("\n");
        CliRun split = serveRun("first-half second-half\n");
        CliRun control = serveRun("abc\u0007def");

        assertEquals(2, empty.exit(), empty.err());
        assertTrue(empty.err().contains("ARBITER_ADMIN_TOKEN is set but empty"), empty.err());
        assertEquals(2, split.exit(), split.err());
        assertTrue(split.err().contains("ARBITER_ADMIN_TOKEN holds whitespace or a control character"), split.err());
        assertTrue(!split.err().contains("second-half"), "the token is not repeated: " + split.err());
        assertEquals(2, control.exit(), control.err());
        assertTrue(control.err().contains("control character at character 4"), control.err());
    }

    @Test
    void theImageListensOnEveryInterfaceExplicitly() throws IOException {
        String dockerfile = Files.readString(Path.of("docker/Dockerfile"));

        assertTrue(dockerfile.contains("CMD [\"serve\", \"--host\", \"0.0.0.0\""), dockerfile);
    }
}
