package io.arbiter.runtime;

import io.arbiter.decision.Settings;
import io.arbiter.decision.Snapshot;
import io.arbiter.document.ContentRevision;
import io.arbiter.policytype.PolicyTypeRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * {@code serve --watch}: reloads when the policy file (a ConfigMap mount swaps a symlink, so its folder is
 * watched), the TypeInstance store, a rule file, a decision table or the catalog changes.
 * <p>
 * A change is applied only once the content of every watched file has stayed the same for the settle period: a
 * file being written in steps is not read half-written, even when its first part is itself a valid policy (a
 * writer that pauses for longer than the settle period should write another file and rename it over, as a
 * ConfigMap mount does). The new snapshot is built on this watcher's thread and swapped in only if it loads and
 * validates and the files did not change while it loaded; a change that fails to parse, validate or compile leaves
 * the old snapshot serving and is reported by {@link Decisions#reloadState()}.
 */
public final class Reloader implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Reloader.class);

    /** Long enough for a writer's steps, short against a ConfigMap's propagation (up to a minute). */
    public static final Duration DEFAULT_SETTLE = Duration.ofSeconds(1);

    private final Decisions decisions;
    private final Settings settings;
    private final PolicyTypeRegistry registry;
    private final long settleNanos;
    private final LongSupplier nanoClock;
    private WatchService watcher;
    private ScheduledExecutorService scheduler;
    private Thread listener;

    /** Something changed since the last poll: look at the files again. */
    private volatile boolean changed;
    /** The content the live snapshot was loaded from, or that the last rejected reload found. */
    private String settled;
    /** Content seen to differ from {@link #settled}, and since when (clock nanos) it has stayed the same. */
    private String candidate;
    private long candidateSince;

    /** Watches the settings' files and applies each change once it has settled (checked on a background thread). */
    public static Reloader watch(Decisions decisions, Settings settings, PolicyTypeRegistry registry, Duration settle)
            throws IOException {
        Reloader reloader = new Reloader(decisions, settings, registry, settle, System::nanoTime);
        reloader.start(Math.max(20, Math.min(500, settle.toMillis() / 5)));
        return reloader;
    }

    /** A reloader that only acts when {@link #poll()} is called, on the given clock: for tests. */
    Reloader(Decisions decisions, Settings settings, PolicyTypeRegistry registry, Duration settle, LongSupplier nanoClock) {
        if (settle.isNegative()) {
            throw new IllegalArgumentException("the settle period cannot be negative: " + settle);
        }
        this.decisions = decisions;
        this.settings = settings;
        this.registry = registry;
        this.settleNanos = settle.toNanos();
        this.nanoClock = nanoClock;
        this.settled = fingerprint();
    }

    private void start(long pollMillis) throws IOException {
        watcher = FileSystems.getDefault().newWatchService();
        for (Path folder : watchedFolders(settings)) {
            folder.register(watcher, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
                    StandardWatchEventKinds.ENTRY_DELETE);
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "arbiter-reload");
            thread.setDaemon(true);
            return thread;
        });
        scheduler.scheduleWithFixedDelay(this::pollSafely, pollMillis, pollMillis, TimeUnit.MILLISECONDS);
        listener = new Thread(this::listen, "arbiter-watch");
        listener.setDaemon(true);
        listener.start();
    }

    /** The folders whose changes trigger a reload: the policy's folder, and every folder under rules, tables and hub. */
    static Set<Path> watchedFolders(Settings settings) throws IOException {
        Set<Path> folders = new LinkedHashSet<>();
        Stream.of(settings.policyFile(), settings.typeInstancesFile()).filter(Objects::nonNull)
                .forEach(file -> folders.add(file.toAbsolutePath().getParent()));
        for (Path root : new Path[]{settings.rulesDir(), settings.tablesDir(), settings.hubDir()}) {
            if (root != null && Files.isDirectory(root)) {
                try (Stream<Path> tree = Files.walk(root)) {
                    tree.filter(Files::isDirectory).map(Path::toAbsolutePath).forEach(folders::add);
                }
            }
        }
        return folders;
    }

    private void listen() {
        while (!Thread.currentThread().isInterrupted()) {
            WatchKey key;
            try {
                key = watcher.take();
            } catch (InterruptedException | java.nio.file.ClosedWatchServiceException e) {
                return;
            }
            key.pollEvents();
            key.reset();
            changed = true;
        }
    }

    /** Noted by the file watcher; tests call it after writing a file. */
    void changed() {
        changed = true;
    }

    private void pollSafely() {
        try {
            poll();
        } catch (RuntimeException e) {
            // A scheduled task that throws is never run again: keep watching.
            LOG.error("watching for changes failed; will look again", e);
        }
    }

    /**
     * One look at the files: a new content starts its settle period, a content that changed again restarts it, and
     * a content that stayed the same for the whole period is loaded.
     */
    synchronized void poll() {
        if (!changed && candidate == null) {
            return;
        }
        changed = false;
        String now = fingerprint();
        if (now.equals(settled)) {
            candidate = null;
            return;
        }
        if (!now.equals(candidate)) {
            candidate = now;
            candidateSince = nanoClock.getAsLong();
            return;
        }
        if (nanoClock.getAsLong() - candidateSince < settleNanos) {
            return;
        }
        load(now);
    }

    /** Loads the settled content; if the files changed while it loaded, that content settles first. */
    private void load(String expected) {
        Snapshot next = null;
        RuntimeException failure = null;
        try {
            next = SnapshotLoader.load(settings, registry);
        } catch (RuntimeException e) {
            failure = e;
        }
        if (changedSince(expected)) {
            return;
        }
        settled = expected;
        candidate = null;
        if (failure == null) {
            decisions.swap(next);
            LOG.info("reloaded: policy {} rules {}", next.policy().revision(), next.ruleBases().keySet());
            return;
        }
        decisions.reloadFailed(failure);
        String reason = decisions.reloadState().lastReloadError();
        if (reason.equals(Decisions.UNEXPECTED_RELOAD_ERROR)) {
            LOG.error("reload rejected, the previous snapshot keeps serving", failure);
        } else {
            LOG.error("reload rejected, the previous snapshot keeps serving: {}", reason);
        }
    }

    private boolean changedSince(String expected) {
        String after = fingerprint();
        if (after.equals(expected)) {
            return false;
        }
        LOG.info("the files changed while they were loading; waiting for them to settle");
        candidate = after;
        candidateSince = nanoClock.getAsLong();
        return true;
    }

    /** A digest of every watched file's path and content (a missing or unreadable file counts as such). */
    private String fingerprint() {
        ContentRevision fingerprint = ContentRevision.start();
        for (Path file : watchedFiles()) {
            fingerprint.add(file.toString());
            try {
                fingerprint.add(Files.readAllBytes(file));
            } catch (IOException e) {
                fingerprint.add("unreadable: " + e.getClass().getName());
            }
        }
        return fingerprint.revision();
    }

    private List<Path> watchedFiles() {
        List<Path> files = new java.util.ArrayList<>(Stream.of(settings.policyFile(), settings.typeInstancesFile())
                .filter(Objects::nonNull).toList());
        // a folder counts by its files; the folder itself is listed so that its disappearance counts too
        for (Path root : new Path[]{settings.rulesDir(), settings.tablesDir(), settings.hubDir()}) {
            if (root != null) {
                files.add(root);
                try {
                    files.addAll(io.arbiter.engine.RuleFiles.filesUnder(root));
                } catch (java.io.UncheckedIOException e) {
                    // a file went away while the folder was listed: a change, seen complete at a later poll
                    files.add(root.resolve("(changing)"));
                }
            }
        }
        return files;
    }

    @Override
    public void close() {
        if (listener != null) {
            listener.interrupt();
        }
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
        if (watcher != null) {
            try {
                watcher.close();
            } catch (IOException e) {
                LOG.debug("closing watch service: {}", e.toString());
            }
        }
    }
}
