package io.arbiter.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs each shell walkthrough of the README and the docs (DOCS) (the code block after {@code <!-- walkthrough -->}) with bash in the
 * project folder, on the packaged jar ({@code java -jar target/arbiter.jar}, as written), and checks that the output
 * block after it ({@code <!-- output -->}) appears in what it printed: its lines in order, other lines between them
 * allowed, "…" standing for any text.
 */
class ReadmeWalkthroughIT {

    /** What a walkthrough makes with mktemp. */
    @org.junit.jupiter.api.io.TempDir
    Path temp;

    private static final Pattern BLOCK = Pattern.compile("(?s)<!-- (walkthrough|output) -->\\s*```[a-z]*\\n(.*?)```");

    @Test
    void everyWalkthroughPrintsWhatTheReadmeShows() throws Exception {
        int walkthroughs = 0;
        for (String doc : DOCS) {
            walkthroughs += runWalkthroughs(Files.readString(Path.of(doc)));
        }
        assertTrue(walkthroughs > 0, "the docs have a walkthrough");
    }

    /** The docs whose walkthroughs run: the auditors' (replay, impact) and the analysts' (tests). */
    static final java.util.List<String> DOCS = java.util.List.of("README.md", "docs/audit.md", "docs/analysts.md");

    private int runWalkthroughs(String readme) throws Exception {
        var blocks = BLOCK.matcher(readme);
        int walkthroughs = 0;
        String script = null;
        while (blocks.find()) {
            if (blocks.group(1).equals("walkthrough")) {
                script = blocks.group(2);
                continue;
            }
            assertTrue(script != null, "an output block without a walkthrough before it");
            expectInOrder(run(script), blocks.group(2));
            script = null;
            walkthroughs++;
        }
        return walkthroughs;
    }

    private String run(String script) throws IOException, InterruptedException {
        assertTrue(Files.isRegularFile(Path.of("target/arbiter.jar")),
                "the walkthroughs run the packaged jar, as the docs do: run them with mvn verify");
        Path file = Files.createTempFile("walkthrough", ".sh");
        Files.writeString(file, "set -euo pipefail\n" + script);
        Path err = Files.createTempFile("walkthrough", ".err");
        ProcessBuilder builder = new ProcessBuilder("bash", file.toString()).redirectError(err.toFile());
        builder.environment().put("TMPDIR", temp.toString());
        Process bash = builder.start();
        String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!bash.waitFor(5, TimeUnit.MINUTES)) {
            bash.destroyForcibly();
            fail("the walkthrough did not finish in 5 minutes");
        }
        String errors = Files.readString(err);
        Files.delete(file);
        Files.delete(err);
        assertEquals(0, bash.exitValue(), "the walkthrough failed; it printed:\n" + out + errors);
        assertTrue(!errors.contains("exit status 2") && !out.contains("exit status 2"), "a usage error:\n" + out + errors);
        return out;
    }

    private static void expectInOrder(String out, String shown) {
        List<String> lines = out.lines().toList();
        int at = 0;
        List<String> expected = new ArrayList<>(shown.lines().filter(line -> !line.isBlank() && !line.equals("…")).toList());
        for (String line : expected) {
            Pattern pattern = Pattern.compile(String.join(".*", java.util.Arrays.stream(line.split("…", -1))
                    .map(Pattern::quote).toList()));
            while (at < lines.size() && !pattern.matcher(lines.get(at)).matches()) {
                at++;
            }
            if (at == lines.size()) {
                fail("the doc shows the line\n  " + line + "\nwhich the walkthrough did not print (in this order):\n" + out);
            }
            at++;
        }
    }
}
