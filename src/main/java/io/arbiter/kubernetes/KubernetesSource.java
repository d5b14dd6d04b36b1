package io.arbiter.kubernetes;

import io.arbiter.decision.DecisionException;
import io.arbiter.decision.RevisionMatch;
import io.arbiter.decision.Settings;
import io.arbiter.decision.Snapshot;
import io.arbiter.document.DocumentException;
import io.arbiter.policy.PolicyDocument;
import io.arbiter.policy.PolicyParser;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.runtime.Decisions;
import io.arbiter.runtime.PolicySource;
import io.arbiter.runtime.SnapshotLoader;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * {@code serve --source kubernetes}: the policy and rules live in ConfigMaps ({@link ConfigMapNames}) that an informer
 * watches. Each change is loaded as a file reload is ({@link SnapshotLoader}, then {@link Decisions#swap}), on one
 * thread of its own, so every replica applies the same content through the same validation. A change that fails to
 * load leaves the previous snapshot serving and is reported on {@code /readyz}, {@code /v1/status}, the reload metric
 * and as an Event on each ConfigMap that changed. {@code PUT /v1/policy} writes the policy ConfigMap, conditional on
 * the resourceVersion it read, and answers once this replica serves the new content.
 */
public final class KubernetesSource implements PolicySource, io.arbiter.runtime.TableSource {

    private static final Logger LOG = LoggerFactory.getLogger(KubernetesSource.class);

    /** How often the informer's watch is looked at, to report a lost API server as stale (its content is not polled). */
    private static final long WATCH_CHECK_MILLIS = 200;
    private static final int WRITE_ATTEMPTS = 5;

    private final KubernetesSettings settings;
    private final Settings base;
    private final PolicyTypeRegistry registry;
    private final List<String> ruleFolders;
    private final KubernetesClient client;
    private final String namespace;
    private final ScheduledExecutorService applier;
    private final AtomicBoolean applyPending = new AtomicBoolean();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private SharedIndexInformer<ConfigMap> informer;

    private volatile Decisions decisions;
    /** The content the live snapshot was loaded from. */
    private volatile SourceContent served;
    /** The last content refused, and why; null once a content is applied. */
    private volatile Refusal refused;
    private volatile boolean stale;
    private volatile String staleSince;

    /** A refused content: its revision, the ConfigMaps that changed, the error, and the policy revision it held. */
    public record Refusal(String revision, List<String> configMaps, String error, String at, String policyRevision) {
    }

    private KubernetesSource(KubernetesSettings settings, Settings base, PolicyTypeRegistry registry) {
        this.settings = settings;
        this.base = base;
        this.registry = registry;
        this.ruleFolders = registry.types().stream().flatMap(type -> type.ruleSet().folders().stream()).distinct().sorted().toList();
        this.client = settings.client().get();
        this.namespace = settings.namespace() != null ? settings.namespace()
                : client.getNamespace() != null ? client.getNamespace() : "default";
        this.applier = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "arbiter-kubernetes");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Starts the informer on the instance's ConfigMaps and waits until it has listed them: the source is then ready
     * to give the first snapshot ({@link #load()}). Fails when the API server cannot be reached or refuses.
     */
    public static KubernetesSource connect(KubernetesSettings settings, Settings base, PolicyTypeRegistry registry) {
        KubernetesSource source = new KubernetesSource(settings, base, registry);
        try {
            source.start();
        } catch (RuntimeException e) {
            source.close();
            throw e;
        }
        return source;
    }

    private void start() {
        informer = client.configMaps().inNamespace(namespace).withLabels(ConfigMapNames.selector(settings.instance()))
                .runnableInformer(0);
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(ConfigMap configMap) {
                scheduleApply();
            }

            @Override
            public void onUpdate(ConfigMap before, ConfigMap after) {
                scheduleApply();
            }

            @Override
            public void onDelete(ConfigMap configMap, boolean finalStateUnknown) {
                scheduleApply();
            }
        });
        // At start-up a failure to list stops the start (the pod restarts and tries again); once started, a lost API
        // server is retried for as long as it takes, and the last content keeps serving meanwhile.
        informer.exceptionHandler((started, failure) -> {
            LOG.debug("the ConfigMap informer will retry: {}", failure.toString());
            return started;
        });
        try {
            informer.start().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new PolicySource.SourceUnavailableException("cannot list the ConfigMaps of instance '" + settings.instance()
                    + "' in namespace " + namespace + ": " + reason(e), e);
        }
        applier.scheduleWithFixedDelay(this::checkWatching, WATCH_CHECK_MILLIS, WATCH_CHECK_MILLIS, TimeUnit.MILLISECONDS);
    }

    private static String reason(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof java.util.concurrent.ExecutionException || cause instanceof java.util.concurrent.CompletionException
                || cause instanceof KubernetesClientException k && k.getCode() <= 0) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof KubernetesClientException k && k.getCode() > 0) {
            return "the API server answered HTTP " + k.getCode() + (k.getCode() == 403 ? " (the ServiceAccount needs get, list"
                    + " and watch on configmaps: docker/kubernetes/rbac.yaml)" : "");
        }
        return cause instanceof java.util.concurrent.TimeoutException ? "no answer within 30 s" : "the API server cannot be reached";
    }

    /** The snapshot of what the ConfigMaps hold now, loaded and validated; it throws as a reload would fail. */
    public Snapshot load() {
        SourceContent content = content();
        Snapshot snapshot = load(content);
        served = content;
        return snapshot;
    }

    /** Serves {@code decisions} from now on: every change the informer sees is applied to it. */
    public void attach(Decisions decisions) {
        this.decisions = decisions;
        decisions.useSource(this);
        decisions.useTableSource(this);
        decisions.audit().metrics().gauge("arbiter.source.stale",
                "1 while the API server cannot be reached and the last content it gave serves", () -> stale ? 1 : 0);
        decisions.audit().metrics().gauge("arbiter.source.revision.skew",
                "1 while this replica does not serve the source's latest content (refused, or not yet applied)",
                () -> servesLatest() ? 0 : 1);
        scheduleApply();
    }

    /** Runs {@code listener} after each content applied or refused and each change of staleness, from now on. */
    public void onChange(Runnable listener) {
        listeners.add(listener);
    }

    private SourceContent content() {
        return SourceContent.of(settings.instance(), ruleFolders, informer.getStore().list());
    }

    private void scheduleApply() {
        if (applyPending.compareAndSet(false, true)) {
            try {
                applier.execute(this::apply);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // closed
            }
        }
    }

    /** Loads what the ConfigMaps hold now, unless it is what serves or what was last refused. */
    private void apply() {
        applyPending.set(false);
        Decisions target = decisions;
        if (target == null) {
            return;
        }
        try {
            SourceContent content = content();
            Refusal last = refused;
            if (content.revision().equals(served.revision()) || last != null && content.revision().equals(last.revision())) {
                return;
            }
            Snapshot next;
            try {
                next = load(content);
            } catch (RuntimeException e) {
                refuse(target, content, e);
                changed();
                return;
            }
            SourceContent previous = served;
            served = content;
            refused = null;
            target.swap(next);
            LOG.info("applied content {} from ConfigMaps {}: policy {}", content.revision(), content.changedSince(previous),
                    next.policy().revision());
        } catch (RuntimeException e) {
            LOG.error("applying the ConfigMaps failed; the previous content keeps serving", e);
        }
        changed();
    }

    private void refuse(Decisions target, SourceContent content, RuntimeException failure) {
        List<String> changed = content.changedSince(served);
        String error = inConfigMapTerms(Decisions.reloadError(failure));
        if (!changed.isEmpty() && changed.stream().noneMatch(error::contains)) {
            error = error + " (changed: ConfigMap " + String.join(", ConfigMap ", changed) + ")";
        }
        refused = new Refusal(content.revision(), changed, error, java.time.Instant.now().toString(), policyRevision(content));
        target.reloadRefused(error);
        if (error.equals(Decisions.UNEXPECTED_RELOAD_ERROR)) {
            LOG.error("content {} refused, the previous content keeps serving", content.revision(), failure);
        } else {
            LOG.error("content {} refused, the previous content keeps serving: {}", content.revision(), error);
        }
        for (String name : changed.isEmpty() ? List.of(ConfigMapNames.policy(settings.instance())) : changed) {
            ConfigMap configMap = content.objects().get(name);
            if (configMap != null) {
                RefusalEvents.record(client, namespace, configMap, settings.replica(), content.revision(), error);
            }
        }
    }

    private Snapshot load(SourceContent content) {
        Path dir;
        try {
            dir = Files.createTempDirectory("arbiter-configmaps-");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot make a folder for the ConfigMaps' content", e);
        }
        currentDir = dir;
        try {
            return SnapshotLoader.load(content.materialize(dir, base, ruleFolders, settings.instance()), registry);
        } finally {
            delete(dir);
        }
    }

    /** The folder the content being loaded was written to, to name ConfigMaps instead of its paths in errors. */
    private volatile Path currentDir;

    /** An error about the written files, with each file named as the ConfigMap and key it came from. */
    private String inConfigMapTerms(String error) {
        Path dir = currentDir;
        if (dir == null) {
            return error;
        }
        String text = error.replace(dir.resolve(ConfigMapNames.POLICY_KEY).toString(),
                "ConfigMap " + ConfigMapNames.policy(settings.instance()) + " key " + ConfigMapNames.POLICY_KEY);
        for (String folder : ruleFolders) {
            for (String kind : new String[]{"rules", "decision-tables"}) {
                text = text.replace(dir.resolve(kind).resolve(folder) + "/",
                        "ConfigMap " + ConfigMapNames.rules(settings.instance(), folder) + " key ");
            }
        }
        return text.replace(dir + "/", "");
    }

    private static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            LOG.debug("could not delete {}: {}", dir, e.toString());
        }
    }

    /** Notes a lost or regained watch; on regaining it, what the informer listed again is applied. */
    private void checkWatching() {
        boolean watching = informer.isWatching();
        if (watching == !stale) {
            return;
        }
        stale = !watching;
        staleSince = stale ? java.time.Instant.now().toString() : null;
        if (stale) {
            LOG.warn("the API server cannot be reached: the last content ({}) keeps serving, reported stale", served.revision());
        } else {
            LOG.info("the API server is back: resynchronising");
            scheduleApply();
        }
        changed();
    }

    private void changed() {
        synchronized (this) {
            notifyAll();
        }
        listeners.forEach(Runnable::run);
    }

    @Override
    public boolean stale() {
        return stale;
    }

    /** True when the content this replica serves is the latest the informer has. */
    public boolean servesLatest() {
        return content().revision().equals(served.revision());
    }

    public String servedRevision() {
        return served.revision();
    }

    public Optional<Refusal> refusal() {
        return Optional.ofNullable(refused);
    }

    @Override
    public Map<String, Object> status() {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("kind", "kubernetes");
        status.put("namespace", namespace);
        status.put("instance", settings.instance());
        status.put("replica", settings.replica());
        String latest = content().revision();
        status.put("latestRevision", latest);
        status.put("servedRevision", served.revision());
        status.put("servesLatest", latest.equals(served.revision()));
        status.put("stale", stale);
        status.put("staleSince", staleSince);
        Refusal last = refused;
        status.put("lastRefused", last == null ? null : Map.of("revision", last.revision(), "configMaps", last.configMaps(),
                "error", last.error(), "at", last.at()));
        return status;
    }

    /**
     * Writes the policy ConfigMap. {@code If-Match} is compared with the revision of the policy the ConfigMap holds, read
     * from the API server (not this replica's memory), and the write is conditional on the resourceVersion read with it:
     * a change in between is a 412 for a conditional PUT, and read again for an unconditional one.
     */
    @Override
    public Replaced replace(byte[] body, String contentType, Optional<RevisionMatch> ifMatch) {
        PolicyDocument wanted = decisions.withCandidatePolicy(body, contentType).policy();
        String name = ConfigMapNames.policy(settings.instance());
        writeKey(name, ConfigMapNames.POLICY_KEY, new String(body, StandardCharsets.UTF_8), "the policy", current -> {
            if (current == null) {
                throw new PolicySource.SourceUnavailableException("the ConfigMap " + name + " does not exist in namespace "
                        + namespace + ": create it (docs/kubernetes.md), then PUT again");
            }
            String currentRevision = policyRevision(current);
            if (ifMatch.isPresent() && !ifMatch.get().matches(currentRevision)) {
                throw new Decisions.StaleRevisionException(ifMatch.get(), currentRevision);
            }
        });
        awaitServed(() -> decisions.snapshot().policy().revision().equals(wanted.revision()), "the policy", wanted.revision());
        return new Replaced(wanted, null);
    }

    /**
     * Writes a decision table to its folder's ConfigMap ({@code <instance>-rules-<folder>}, key {@code <file>}), on
     * condition that the key holds the revision this replica serves and that the resourceVersion read with it is still
     * current; then waits until this replica serves the candidate's rule base for {@code type}.
     */
    @Override
    public String write(String folder, String file, byte[] content, String liveRevision, String type, Snapshot candidate) {
        String name = ConfigMapNames.rules(settings.instance(), folder);
        writeKey(name, file, new String(content, StandardCharsets.UTF_8), "the table", current -> {
            if (current == null) {
                throw new PolicySource.SourceOfTruthException("the decision table " + folder + "/" + file + " is packaged:"
                        + " no ConfigMap " + name + " holds the folder " + folder + " in namespace " + namespace
                        + "; create it with the folder's files (docs/kubernetes.md), then PUT again");
            }
            String held = current.getData() == null ? null : current.getData().get(file);
            String heldRevision = held == null ? "absent" : io.arbiter.runtime.TableSource.revisionOf(
                    held.getBytes(StandardCharsets.UTF_8));
            if (!heldRevision.equals(liveRevision)) {
                throw new Decisions.StaleRevisionException("the decision table changed: ConfigMap " + name + " key " + file
                        + " holds revision " + heldRevision + ", not the " + liveRevision + " this replica serves; GET it again");
            }
        });
        String wanted = candidate.ruleBase(type).revision();
        awaitServed(() -> decisions.snapshot().ruleBase(type).revision().equals(wanted), "the decision table", null);
        return null;
    }

    /**
     * Writes {@code value} under {@code key} of the ConfigMap {@code name}, conditional on the resourceVersion read:
     * {@code check} sees each read (null when the ConfigMap does not exist) and throws to refuse the write; a write
     * that lost to another is read and checked again, up to {@link #WRITE_ATTEMPTS} times.
     */
    private void writeKey(String name, String key, String value, String what, java.util.function.Consumer<ConfigMap> check) {
        for (int attempt = 1; ; attempt++) {
            ConfigMap current;
            try {
                current = client.configMaps().inNamespace(namespace).withName(name).get();
            } catch (KubernetesClientException e) {
                throw unavailable("read", name, e);
            }
            check.accept(current);
            ConfigMap updated = new ConfigMapBuilder(current).addToData(key, value).build();
            try {
                client.configMaps().inNamespace(namespace).resource(updated)
                        .lockResourceVersion(current.getMetadata().getResourceVersion()).update();
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) {
                    throw unavailable("update", name, e);
                }
                // written meanwhile: read again, and check what it holds now
                if (attempt == WRITE_ATTEMPTS) {
                    throw new PolicySource.SourceUnavailableException("the ConfigMap " + name + " changed under each of "
                            + WRITE_ATTEMPTS + " attempts to write it; " + what + " is unchanged, PUT again");
                }
            }
        }
    }

    private PolicySource.SourceUnavailableException unavailable(String action, String name, KubernetesClientException e) {
        return new PolicySource.SourceUnavailableException("cannot " + action + " the ConfigMap " + name + " in namespace "
                + namespace + ": " + reason(e) + "; the policy is unchanged", e);
    }

    /**
     * Waits until {@code served} holds; a refusal (of the policy revision, when given; else of any content that is the
     * latest), or the apply timeout, is a 503.
     */
    private synchronized void awaitServed(java.util.function.BooleanSupplier served, String what, String policyRevision) {
        long deadline = System.nanoTime() + settings.applyTimeout().toNanos();
        while (!served.getAsBoolean()) {
            Refusal last = refused;
            if (last != null && (policyRevision != null ? policyRevision.equals(last.policyRevision())
                    : last.revision().equals(content().revision()))) {
                throw new PolicySource.SourceUnavailableException(what + " was written to the ConfigMap, but this replica"
                        + " refused the content: " + last.error());
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new PolicySource.SourceUnavailableException(what + " was written to the ConfigMap, but this replica"
                        + " did not serve it within " + settings.applyTimeout().toMillis() + " ms; GET /v1/status shows when it does");
            }
            try {
                TimeUnit.NANOSECONDS.timedWait(this, left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new PolicySource.SourceUnavailableException("interrupted while waiting for the policy to serve");
            }
        }
    }

    /** The revision of the policy a ConfigMap holds, as GET /v1/policy would give it; a placeholder when it is invalid. */
    private static String policyRevision(ConfigMap configMap) {
        String text = configMap.getData() == null ? null : configMap.getData().get(ConfigMapNames.POLICY_KEY);
        return text == null ? "absent" : policyRevision(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String policyRevision(SourceContent content) {
        return content.policy() == null ? "absent" : policyRevision(content.policy());
    }

    private static String policyRevision(byte[] text) {
        try {
            return PolicyParser.parse(text, "application/yaml").revision();
        } catch (DocumentException | DecisionException e) {
            return "invalid";
        }
    }

    private final AtomicBoolean closed = new AtomicBoolean();

    /** Stops the informer and the client; once (the server closes its source first, then the service). */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        applier.shutdownNow();
        if (informer != null) {
            informer.stop();
        }
        client.close();
    }
}
