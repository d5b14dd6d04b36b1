package io.arbiter.runtime;

import ch.qos.logback.classic.Level;
import io.arbiter.decision.Settings;
import io.arbiter.decision.Snapshot;
import io.arbiter.runtime.Decisions;
import io.arbiter.runtime.Reloader;
import io.arbiter.runtime.SnapshotLoader;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.testing.LogCapture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --watch} applies a change only once the files have stayed the same for the settle period, and only if
 * they load. Driven by a clock of the test's own, one {@link Reloader#poll()} at a time.
 */
class ReloaderTest {

    private static final PolicyTypeRegistry REGISTRY = PolicyTypeRegistry.discover();
    private static final Duration SETTLE = Duration.ofMillis(500);
    private static final String FIRST = "interface: {rules: [{interface: {path: cap.*}, oneOf: [{implementationConstraints: {}}]}]}\n";
    /** A valid policy on its own, and the first part of {@link #COMPLETE}. */
    private static final String PART = "interface:\n  rules:\n    - interface: {path: cap.interface.first}\n      oneOf: []\n";
    private static final String COMPLETE = PART + "    - interface: {path: cap.interface.second}\n      oneOf: []\n";

    private static Snapshot initial;

    @TempDir
    Path temp;

    @RegisterExtension
    final LogCapture logs = LogCapture.of(Reloader.class);

    private final AtomicLong clock = new AtomicLong();
    private Path policy;
    private Decisions decisions;
    private Reloader reloader;

    @BeforeAll
    static void loadRules() throws IOException {
        Path file = Files.createTempFile("arbiter-reloader", ".yaml");
        Files.writeString(file, FIRST);
        initial = SnapshotLoader.load(Settings.embedded().withPolicyFile(file), REGISTRY);
        Files.delete(file);
    }

    @BeforeEach
    void watch() throws IOException {
        policy = temp.resolve("policy.yaml");
        Files.writeString(policy, FIRST);
        Settings settings = Settings.embedded().withPolicyFile(policy);
        decisions = new Decisions(REGISTRY, initial);
        reloader = new Reloader(decisions, settings, REGISTRY, SETTLE, clock::get);
    }

    private void write(String text, StandardOpenOption... options) throws IOException {
        Files.writeString(policy, text, options);
        reloader.changed();
    }

    private void advance(long millis) {
        clock.addAndGet(Duration.ofMillis(millis).toNanos());
        reloader.poll();
    }

    private String livePolicy() {
        return decisions.snapshot().policy().source().toString();
    }

    @Test
    void aFileWrittenInTwoStepsIsAppliedOnlyWhenCompleteAndSettled() throws IOException {
        write(PART);
        reloader.poll();
        advance(400);
        assertEquals(0, decisions.reloadState().reloads(), "the first part must not be applied before it settles");

        write(COMPLETE, StandardOpenOption.TRUNCATE_EXISTING);
        reloader.poll();
        advance(400);
        assertEquals(0, decisions.reloadState().reloads(), "the second write restarts the settle period");
        assertFalse(livePolicy().contains("cap.interface.first"), livePolicy());

        advance(100);
        assertEquals(1, decisions.reloadState().reloads());
        assertTrue(livePolicy().contains("cap.interface.second"), livePolicy());
        assertNull(decisions.reloadState().lastReloadError());
    }

    @Test
    void aChangeUndoneBeforeItSettlesIsNotApplied() throws IOException {
        write(COMPLETE);
        reloader.poll();
        write(FIRST);
        advance(1000);
        advance(1000);

        assertEquals(0, decisions.reloadState().reloads());
        assertEquals(0, decisions.reloadState().rejected());
    }

    @Test
    void aSettledInvalidPolicyIsRejectedOnceNamingTheFile() throws IOException {
        write("interface: {rules: [unclosed\n");
        reloader.poll();
        advance(500);
        advance(500);
        advance(500);

        assertEquals(0, decisions.reloadState().reloads());
        assertEquals(1, decisions.reloadState().rejected(), "the same content is not loaded again");
        assertTrue(decisions.reloadState().lastReloadError().contains(policy.toString()), decisions.reloadState().lastReloadError());
        assertTrue(livePolicy().contains("implementationConstraints"), "the previous policy keeps serving");
        List<String> errors = logs.messages(Level.ERROR);
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).startsWith("reload rejected, the previous snapshot keeps serving: policy " + policy),
                errors.get(0));
    }

    @Test
    void aPolicyWhoseListIsAnObjectIsRejectedInWordsOfOurOwn() throws IOException {
        write("{\"interface\": {\"rules\": {\"x\": 1}}}\n");
        reloader.poll();
        advance(500);

        String error = decisions.reloadState().lastReloadError();
        assertTrue(error != null && error.contains(policy.toString()), error);
        assertFalse(error.contains("Cannot invoke") || error.contains("Exception") || error.contains("because \""), error);
        assertEquals(List.of("reload rejected, the previous snapshot keeps serving: " + error), logs.messages(Level.ERROR));
    }

    @Test
    void anUnexpectedFailureIsReportedWithoutItsExceptionText() {
        decisions.reloadFailed(new NullPointerException("Cannot invoke \"java.util.List.size()\" because \"rules\" is null"));

        String error = decisions.reloadState().lastReloadError();
        assertFalse(error.contains("Cannot invoke") || error.contains("NullPointerException"), error);
        assertTrue(error.contains("reload failed"), error);
    }
}
