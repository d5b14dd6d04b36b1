package io.arbiter.cli;

import io.arbiter.archive.SnapshotArchive;
import io.arbiter.http.ServerOptions;
import io.arbiter.policytype.PolicyTypeRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** serve --snapshot-archive DIR [--snapshot-archive-keep N]: off by default, and clear usage errors. */
class SnapshotArchiveOptionsTest {

    @TempDir
    Path dir;

    private static ServerOptions options(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "serve";
        System.arraycopy(args, 0, all, 1, args.length);
        var parsed = ArbiterCli.commandLine(PolicyTypeRegistry.discover()).parseArgs(all);
        ServeCommand serve = (ServeCommand) parsed.subcommand().commandSpec().userObject();
        return serve.serverOptions(null);
    }

    @Test
    void theArchiveIsOnByDefaultNextToTheWorkingDirectoryAndOffOnlyWhenAskedTo() {
        assertEquals(Path.of("arbiter-snapshots").toAbsolutePath().normalize(), options().snapshotArchive().dir());
        assertNull(options("--snapshot-archive", "off").snapshotArchive());
        SnapshotArchive archive = options("--snapshot-archive", dir.toString()).snapshotArchive();
        assertEquals(dir.toAbsolutePath().normalize(), archive.dir());
    }

    @Test
    void usageErrors() throws Exception {
        Path file = Files.writeString(dir.resolve("a-file"), "");

        assertTrue(assertThrows(CommandLine.ParameterException.class,
                () -> options("--snapshot-archive", "off", "--snapshot-archive-keep", "3"))
                .getMessage().contains("--snapshot-archive-keep needs a snapshot archive, not --snapshot-archive off"));
        assertTrue(assertThrows(CommandLine.ParameterException.class,
                () -> options("--snapshot-archive", dir.toString(), "--snapshot-archive-keep", "0"))
                .getMessage().contains("--snapshot-archive-keep must be at least 1, not 0"));
        assertTrue(assertThrows(CommandLine.ParameterException.class, () -> options("--snapshot-archive", file.toString()))
                .getMessage().contains("is not a folder"));
    }
}
