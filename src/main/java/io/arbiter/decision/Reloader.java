package io.arbiter.decision;

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
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code serve --watch}: reloads when the policy file (a ConfigMap mount swaps a symlink, so its folder is
 * watched), a rule file, a decision table or the catalog changes. Changes are debounced; the new snapshot is built
 * on this watcher's thread and swapped in atomically; a change that fails to parse, validate or compile leaves the
 * old snapshot serving and is reported by {@link Decisions#lastReloadError()}.
 */
public final class Reloader implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Reloader.class);

    private final Decisions decisions;
    private final Settings settings;
    private final PolicyTypeRegistry registry;
    private final long debounceMillis;
    private final WatchService watcher;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "arbiter-reload");
        thread.setDaemon(true);
        return thread;
    });
    private final Thread listener;
    private ScheduledFuture<?> pending;

    public Reloader(Decisions decisions, Settings settings, PolicyTypeRegistry registry, long debounceMillis) throws IOException {
        this.decisions = decisions;
        this.settings = settings;
        this.registry = registry;
        this.debounceMillis = debounceMillis;
        this.watcher = FileSystems.getDefault().newWatchService();
        for (Path folder : watchedFolders(settings)) {
            folder.register(watcher, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
                    StandardWatchEventKinds.ENTRY_DELETE);
        }
        this.listener = new Thread(this::listen, "arbiter-watch");
        this.listener.setDaemon(true);
        this.listener.start();
    }

    /** The folders whose changes trigger a reload: the policy's folder, and every folder under rules, tables and hub. */
    static Set<Path> watchedFolders(Settings settings) throws IOException {
        Set<Path> folders = new LinkedHashSet<>();
        if (settings.policyFile() != null) {
            folders.add(settings.policyFile().toAbsolutePath().getParent());
        }
        if (settings.typeInstancesFile() != null) {
            folders.add(settings.typeInstancesFile().toAbsolutePath().getParent());
        }
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
            schedule();
        }
    }

    private synchronized void schedule() {
        if (pending != null) {
            pending.cancel(false);
        }
        pending = scheduler.schedule(this::reloadNow, debounceMillis, TimeUnit.MILLISECONDS);
    }

    /** Builds a new snapshot from the settings and swaps it in; on failure the old one keeps serving. */
    public void reloadNow() {
        try {
            decisions.swap(SnapshotLoader.load(settings, registry, decisions.snapshot()));
            LOG.info("reloaded: policy {} rules {}", decisions.snapshot().policy().revision(), decisions.snapshot().ruleBases().keySet());
        } catch (RuntimeException e) {
            decisions.reloadFailed(e);
            LOG.error("reload rejected, the previous snapshot keeps serving: {}", e.getMessage());
        }
    }

    @Override
    public void close() {
        listener.interrupt();
        scheduler.shutdownNow();
        try {
            watcher.close();
        } catch (IOException e) {
            LOG.debug("closing watch service: {}", e.toString());
        }
    }
}
