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
    void theImageListensOnEveryInterfaceExplicitly() throws IOException {
        String dockerfile = Files.readString(Path.of("docker/Dockerfile"));

        assertTrue(dockerfile.contains("CMD [\"serve\", \"--host\", \"0.0.0.0\""), dockerfile);
    }
}
