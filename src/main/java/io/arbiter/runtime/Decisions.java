package io.arbiter.runtime;

import io.arbiter.decision.DecisionException;
import io.arbiter.decision.RevisionMatch;
import io.arbiter.decision.Snapshot;
import io.arbiter.decision.SnapshotLoadException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import io.arbiter.audit.Audit;
import io.arbiter.audit.DecisionRecord;
import io.arbiter.document.DocumentException;
import io.arbiter.document.Documents;
import io.arbiter.document.JsonSchemas;
import io.arbiter.document.LocatedDocument;
import io.arbiter.document.Problem;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.engine.DecisionDeadline;
import io.arbiter.engine.FiredRule;
import io.arbiter.policy.PolicyDocument;
import io.arbiter.policy.PolicyParser;
import io.arbiter.policy.StoreReferences;
import io.arbiter.policy.HubStorageCheck;
import io.arbiter.policytype.Chain;
import io.arbiter.policytype.Decision;
import io.arbiter.policytype.DecisionCall;
import io.arbiter.policytype.DecisionData;
import io.arbiter.policytype.Masks;
import io.arbiter.policytype.PolicyType;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.policytype.Target;
import io.arbiter.policytype.Versions;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * The service the edges call: one method per operation, for every registered policy type alike. Every decision
 * reads one snapshot; a policy replacement builds a new snapshot and swaps it in atomically, so in-flight
 * decisions finish on the old one.
 */
public final class Decisions {

    /** The global policy is a document of this type (the Capact policy syntax). */
    public static final String GLOBAL_POLICY_TYPE = "capact.implementation";

    private final PolicyTypeRegistry registry;
    private final AtomicReference<Snapshot> current;
    private final Audit audit;
    private final Map<String, JsonSchema> schemas = new ConcurrentHashMap<>();
    /** Memoised decisions take at most this much heap (a typical one holds tens of KB). */
    private static final long MEMO_BYTES = 16L * 1024 * 1024;
    private final DecisionMemo memo = new DecisionMemo(MEMO_BYTES);
    private volatile java.time.Duration decisionDeadline = DecisionDeadline.DEFAULT_BUDGET;

    public Decisions(PolicyTypeRegistry registry, Snapshot initial) {
        this(registry, initial, Audit.inMemory());
    }

    public Decisions(PolicyTypeRegistry registry, Snapshot initial, Audit audit) {
        this.registry = registry;
        this.current = new AtomicReference<>(listed(initial));
        this.audit = audit;
        audit.metrics().gauge("arbiter.decision.memo.hits", "Decisions answered from the memo of finished decisions", memo::hits);
        audit.metrics().gauge("arbiter.decision.memo.bytes", "Heap the memo of finished decisions holds, about", memo::heldBytes);
    }

    /** How long each decision may take from the moment it is received ({@code serve --decision-deadline}). */
    public void setDecisionDeadline(java.time.Duration deadline) {
        if (deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException("a decision deadline must be positive, not " + deadline);
        }
        this.decisionDeadline = deadline;
    }

    public java.time.Duration decisionDeadline() {
        return decisionDeadline;
    }

    public Audit audit() {
        return audit;
    }

    /** Why the last reload was rejected (null once a reload succeeds), and when reloads happened. */
    public record ReloadState(String lastReloadError, String lastReloadAt, long reloads, long rejected) {
    }

    private volatile ReloadState reloadState = new ReloadState(null, null, 0, 0);

    /** Swaps in a snapshot built from changed files: in-flight decisions finish on the one they started with. */
    public void swap(Snapshot next) {
        current.set(listed(next));
        wentLive.accept(next);
        recordReload(true, null);
    }

    /**
     * The snapshot, once each of its rule bases has listed where its rules are written and their phases (it parses
     * every rule file, tens of milliseconds): done before it goes live, so that its first decisions do not wait for it.
     */
    private static Snapshot listed(Snapshot snapshot) {
        snapshot.ruleBases().values().forEach(CompiledRuleBase::sourceOfRule);
        return snapshot;
    }

    private volatile java.util.function.Consumer<Snapshot> wentLive = snapshot -> { };

    /**
     * Tells {@code listener} about every snapshot that goes live from now on (a reload, a policy replacement), on the
     * thread that swapped it in: a listener that does slow work hands it to a thread of its own.
     */
    public void onSnapshotLive(java.util.function.Consumer<Snapshot> listener) {
        this.wentLive = listener;
    }

    private volatile java.util.function.Function<Exception, String> reloadExplainer = failure -> null;

    /**
     * How a rejected reload is told, before {@link #reloadError}: the edge that serves sets it (the server reports
     * rules that do not compile as lint does); {@code explainer} answers null to leave a failure to the default.
     */
    public void explainReloadFailuresWith(java.util.function.Function<Exception, String> explainer) {
        this.reloadExplainer = explainer;
    }

    /** Records a rejected reload: the live snapshot stays. */
    public void reloadFailed(Exception failure) {
        String explained = reloadExplainer.apply(failure);
        recordReload(false, explained != null ? explained : reloadError(failure));
    }

    /** Records a rejected reload whose reason the caller has already put in an operator's words. */
    public void reloadRefused(String reason) {
        recordReload(false, reason);
    }

    private void recordReload(boolean applied, String error) {
        ReloadState previous = reloadState;
        reloadState = new ReloadState(error, java.time.Instant.now().toString(), previous.reloads() + (applied ? 1 : 0),
                previous.rejected() + (applied ? 0 : 1));
        audit.metrics().policyReload(applied);
        reloaded.accept(reloadState);
    }

    private volatile java.util.function.Consumer<ReloadState> reloaded = state -> { };

    /**
     * Tells {@code listener} the reload state after every reload from now on, applied or rejected, once it shows on
     * {@link #reloadState()} and the live snapshot, on the reloading thread.
     */
    public void onReload(java.util.function.Consumer<ReloadState> listener) {
        this.reloaded = listener;
    }

    /** Why a reload failed, in words of our own: a library's or the JDK's exception text is not shown. */
    public static String reloadError(Exception failure) {
        if (failure instanceof DocumentException document) {
            return document.problems().isEmpty() ? document.getMessage() : document.getMessage() + " " + document.problems();
        }
        if (failure instanceof SnapshotLoadException || failure instanceof io.arbiter.engine.RuleBaseException
                || failure instanceof DecisionException) {
            return failure.getMessage();
        }
        return UNEXPECTED_RELOAD_ERROR;
    }

    public static final String UNEXPECTED_RELOAD_ERROR = "the reload failed: an unexpected error (the server log has the details)";

    public ReloadState reloadState() {
        return reloadState;
    }

    private volatile PolicySource source = PolicySource.inProcess(this);

    /** Where the policy lives and {@code PUT /v1/policy} writes: the embedded default until another is set. */
    public void useSource(PolicySource source) {
        this.source = source;
    }

    public PolicySource source() {
        return source;
    }

    private volatile TableSource tableSource = TableSource.packaged();

    /** Where {@code PUT /v1/decision-tables/...} writes: the packaged tables (nowhere) until another is set. */
    public void useTableSource(TableSource source) {
        this.tableSource = source;
    }

    public TableSource tableSource() {
        return tableSource;
    }

    private volatile AutoCloseable watcher;

    /** Keeps the watcher that reloads this service, so that closing the service stops it. */
    public void watchWith(AutoCloseable reloader) {
        this.watcher = reloader;
    }

    /** Stops watching and flushes the decision log. */
    public void close() {
        source.close();
        if (watcher != null) {
            try {
                watcher.close();
            } catch (Exception e) {
                // closing a watcher cannot fail in a way that matters at shutdown
            }
        }
        audit.close();
    }

    /** A recent decision as it was logged (parameters masked unless logged), by its id. */
    public Optional<DecisionRecord> recentDecision(String decisionId) {
        return audit.find(decisionId);
    }

    /** The rules of a live rule base, by its revision: what the {@code rule} of a firing stands for. */
    public record RuleListing(String revision, String policyType, List<io.arbiter.engine.RuleSources.RuleSource> rules) {
    }

    public Optional<RuleListing> rules(String rulesRevision) {
        return current.get().ruleBases().entrySet().stream()
                .filter(entry -> entry.getValue().revision().equals(rulesRevision)).findFirst()
                .map(entry -> new RuleListing(rulesRevision, entry.getKey(), entry.getValue().listing()));
    }

    public PolicyTypeRegistry registry() {
        return registry;
    }

    public Snapshot snapshot() {
        return current.get();
    }

    /** Thrown for a decision target no policy type serves. */
    public static final class UnknownTargetException extends RuntimeException {
        public UnknownTargetException(String target, List<String> known) {
            super("no policy type serves decision target '" + target + "'; targets: " + known);
        }
    }

    /**
     * Decides one request of a target: parse, check the version, validate against the target's schema, then let
     * the type's rules decide. The response carries the type's result plus any {@code warnings}.
     */
    public ObjectNode decide(String targetName, byte[] body, String contentType) {
        return decideEncoded(targetName, body, contentType).response();
    }

    /** A decision's response, encoded once: the bytes that are answered are the bytes that are logged. */
    public record Decided(byte[] json) {
        /** The response read back as a tree, for the offline tools and the CLI, which read it. */
        public ObjectNode response() {
            try {
                return (ObjectNode) Documents.jsonMapper().readTree(json);
            } catch (java.io.IOException e) {
                throw new IllegalStateException("cannot read back an encoded decision", e);
            }
        }
    }

    /** {@link #decide}, with the response encoded as the decision log recorded it. */
    public Decided decideEncoded(String targetName, byte[] body, String contentType) {
        return DecisionDeadline.after(decisionDeadline).within(() -> decideWithin(targetName, body, contentType));
    }

    /**
     * A decision as the runtime finished it, before it is given an id: the envelope encoded, and what its record is
     * made of. The same for every decision of one request under one snapshot, so a repeated one is memoised.
     */
    record Finished(Envelope.Encoded envelope, String outcome, String policyRevision, List<FiredRule> firedRules,
                    Audit.Logged logged, Masks masks) {
    }

    /**
     * A repeated request's decision taken from the memo of finished decisions, when that involves no waiting: the
     * response and record {@link #decideEncoded} would give, so that the server can answer it where the request
     * arrived instead of handing it to a worker thread. Empty when the request has to be decided, when its record
     * has to be waited for (a REQUIRED decision log), or when its record is not the response's bytes as they are
     * (masked or summarised: that reads the response back, more work than the event loop should do).
     */
    public Optional<Decided> decideIfMemoised(String targetName, byte[] body, String contentType) {
        if (body.length > DecisionMemo.MAX_ENTRY_BYTES || audit.waitsForLog()) {
            return Optional.empty();
        }
        long started = System.nanoTime();
        List<PolicyType> types = typesOf(targetName);
        DecisionMemo.Key key = memoKey(types, current.get(), targetName, body, contentType);
        Finished finished = key == null ? null
                : memo.get(key, hit -> audit.recordsAsEncoded(hit.logged(), hit.envelope().length()));
        return Optional.ofNullable(finished).map(hit -> answer(targetName, hit, started));
    }

    private Decided decideWithin(String targetName, byte[] body, String contentType) {
        long started = System.nanoTime();
        Snapshot snapshot = current.get();
        List<PolicyType> types = typesOf(targetName);
        DecisionMemo.Key key = memoKey(types, snapshot, targetName, body, contentType);
        Finished finished = key == null ? null : memo.get(key);
        if (finished == null) {
            finished = decide(registry.target(targetName), registry.chain(targetName), types, body, contentType, snapshot);
            if (key != null) {
                memo.put(key, finished);
            }
        }
        return answer(targetName, finished, started);
    }

    /** The types that decide a target: its own, or each of its chain's in turn. */
    private List<PolicyType> typesOf(String targetName) {
        return registry.chain(targetName)
                .map(c -> c.types().stream().map(name -> registry.type(name).orElseThrow()).toList())
                .orElseGet(() -> List.of(registry.typeOfTarget(targetName).orElseThrow(() ->
                        new UnknownTargetException(targetName, registry.targets().stream().map(Target::name).toList()))));
    }

    /** A request's key in the memo; null when one of the target's types does not decide from it and the snapshot alone. */
    private static DecisionMemo.Key memoKey(List<PolicyType> types, Snapshot snapshot, String targetName, byte[] body,
                                            String contentType) {
        return types.stream().allMatch(PolicyType::decidesFromRequestAndSnapshot)
                ? DecisionMemo.Key.of(snapshot.revision(), targetName, contentType, body) : null;
    }

    /** A finished decision given its own id, recorded, and answered. */
    private Decided answer(String targetName, Finished finished, long started) {
        String decisionId = UUID.randomUUID().toString();
        byte[] json = finished.envelope().withId(decisionId);
        audit.record(new Audit.Decided(decisionId, targetName, finished.outcome(), finished.policyRevision(),
                finished.firedRules(), finished.logged(), json, finished.masks()), System.nanoTime() - started);
        return new Decided(json);
    }

    /** The request parsed and checked against the target's schema. */
    private LocatedDocument parseValid(Target target, byte[] body, String contentType) {
        LocatedDocument request = parseRequest(body, contentType);
        List<Problem> problems = JsonSchemas.problems(schema(target), request.tree()).stream()
                .map(problem -> problem.locatedBy(request.locations())).toList();
        if (!problems.isEmpty()) {
            throw new DecisionException(DecisionException.Code.INVALID_REQUEST,
                    "the request does not match the " + target.name() + " schema: " + problems.get(0), problems);
        }
        return request;
    }

    /**
     * Decides a request of a type's own target, or of a chain's: each type in turn, given what the types before it
     * produced of what it consumes (a type whose consumed data was not produced is skipped: no Implementation, no
     * backends). One envelope and one record. A chain's result has one field per type's target ({@code implementation},
     * {@code backend}), null for a part that was skipped; its firings are every part's in order, each phase named
     * {@code target/phase}; its outcome and version are the first part's; its rules revision is each part's, joined
     * with {@code +}.
     */
    private Finished decide(Target target, Optional<Chain> chain, List<PolicyType> types, byte[] body, String contentType,
                            Snapshot snapshot) {
        LocatedDocument request = parseValid(target, body, contentType);
        Map<DecisionData, Object> produced = new LinkedHashMap<>();
        Map<String, Object> results = new LinkedHashMap<>();
        List<FiredRule> firings = new ArrayList<>();
        List<Envelope.PhaseStart> phases = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        List<String> rulesRevisions = new ArrayList<>();
        Map<String, String> ruleSources = new LinkedHashMap<>();
        String outcome = null;
        String version = null;
        for (PolicyType type : types) {
            Target part = chain.isPresent() ? type.targets().get(0) : target;
            boolean first = outcome == null;
            Map<DecisionData, Object> consumed = new LinkedHashMap<>(produced);
            consumed.keySet().retainAll(type.consumes());
            if (!first && !consumed.keySet().containsAll(type.consumes())) {
                results.put(part.name(), null);
                continue;
            }
            DecisionCall call = new DecisionCall(type, part, request, snapshot, consumed, !first, new ArrayList<>());
            JsonNode requested = request.tree().path("apiVersion");
            String partVersion = first && requested.isTextual() ? requested.asText() : Versions.latestSupported(type);
            Decision decision = decide(type, call, partVersion, request);
            if (first) {
                outcome = decision.outcome();
                version = partVersion;
            }
            produced.putAll(decision.produced());
            results.put(part.name(), decision.result());
            int offset = firings.size();
            List<FiredRule> partFirings = offset == 0 ? decision.firedRules() : decision.firedRules().stream()
                    .map(firing -> firing.renumbered(firing.order() + offset)).toList();
            phases.addAll(Envelope.phases(partFirings, call.ruleBase().phaseOfRule(),
                    chain.isPresent() ? part.name() + "/" : ""));
            firings.addAll(partFirings);
            warnings.addAll(decision.warnings());
            warnings.addAll(call.warnings());
            rulesRevisions.add(call.ruleBase().revision());
            sources(partFirings, call.ruleBase().sourceOfRule(), ruleSources);
        }
        Masks masks = chain.isPresent() ? masks(registry, chain.get()) : types.get(0).masks();
        Object result = chain.isPresent() ? new ChainResult(results) : results.get(target.name());
        Envelope envelope = new Envelope(target.name(), types.stream().map(PolicyType::name).collect(Collectors.joining("+")),
                version, outcome, result, firings, phases, snapshot.policy().revision(), String.join("+", rulesRevisions),
                snapshot.catalog().revision(), snapshot.typeInstances().revision(), snapshot.revision(), warnings);
        return new Finished(envelope.encoded(), outcome, envelope.policyRevision(), firings,
                audit.logged(body, request.tree(), result, masks, ruleSources), masks);
    }

    /** Adds where each rule of {@code firings} is written to {@code into}, in the order they first fired. */
    private static void sources(List<FiredRule> firings, Map<String, String> sourceOfRule, Map<String, String> into) {
        firings.forEach(firing -> into.computeIfAbsent(firing.rule(), rule -> sourceOfRule.getOrDefault(rule, "?")));
    }

    /**
     * What a chain's record masks: each part's request paths (every part reads the one request), and each part's
     * response paths under its target's name.
     */
    public static Masks masks(PolicyTypeRegistry registry, Chain chain) {
        List<String> request = new ArrayList<>();
        List<String> response = new ArrayList<>();
        for (String typeName : chain.types()) {
            PolicyType type = registry.type(typeName).orElseThrow();
            type.masks().request().stream().filter(path -> !request.contains(path)).forEach(request::add);
            type.masks().response().forEach(path -> response.add(type.targets().get(0).name() + "." + path));
        }
        return new Masks(request, response);
    }

    /** {@code type}'s decision as {@code version}, its refusal's problems located in the request. */
    private static Decision decide(PolicyType type, DecisionCall call, String version, LocatedDocument request) {
        call.requireUsableVersion(version, "$.apiVersion", DecisionException.Code.INVALID_REQUEST);
        try {
            return type.decide(call);
        } catch (DecisionException e) {
            throw located(e, request);
        }
    }

    /** A type's refusal with each problem given the line and column of its path in the request, where it has none. */
    private static DecisionException located(DecisionException e, LocatedDocument request) {
        if (e.problems().stream().allMatch(problem -> problem.line() != null)) {
            return e;
        }
        DecisionException located = new DecisionException(e.code(), e.getMessage(),
                e.problems().stream().map(problem -> problem.locatedBy(request.locations())).toList());
        located.setStackTrace(e.getStackTrace());
        return located;
    }

    private JsonSchema schema(Target target) {
        return schemas.computeIfAbsent(target.name(), name -> JsonSchemas.compile(target.requestSchema()));
    }

    /** The result of validating a policy without applying it. */
    public record Validation(boolean valid, List<Problem> problems, List<String> warnings) {
    }

    public Validation validatePolicy(byte[] body, String contentType) {
        try {
            return new Validation(true, List.of(), parseGlobalPolicy(body, contentType).warnings());
        } catch (DecisionException e) {
            return new Validation(false, e.problems(), List.of());
        }
    }

    /** A policy replacement refused because the caller's revision is stale. */
    public static final class StaleRevisionException extends RuntimeException {
        public StaleRevisionException(RevisionMatch expected, String actual) {
            super("the policy changed: If-Match names " + (expected.revisions().isEmpty() ? "no strong entity tag" : expected)
                    + " but the live revision is " + actual);
        }

        public StaleRevisionException(String message) {
            super(message);
        }
    }

    /**
     * Replaces the global policy. An invalid policy throws and leaves the live one unchanged; with
     * {@code ifMatch}, a stale revision throws {@link StaleRevisionException}.
     */
    public PolicyDocument replacePolicy(byte[] body, String contentType, Optional<RevisionMatch> ifMatch) {
        return replacePolicy(body, contentType, ifMatch, () -> { });
    }

    /**
     * {@link #replacePolicy(byte[], String, Optional)}, running {@code persist} once the policy is valid, the revision
     * matches and the new snapshot is derived, before it goes live: a {@code persist} that throws leaves the live
     * policy unchanged. Callers that persist serialise their replacements, so the last one persisted is the one live.
     */
    public PolicyDocument replacePolicy(byte[] body, String contentType, Optional<RevisionMatch> ifMatch, Runnable persist) {
        PolicyDocument parsed;
        try {
            parsed = parseGlobalPolicy(body, contentType);
        } catch (DecisionException e) {
            audit.metrics().policyReload(false);
            throw e;
        }
        Snapshot live;
        Snapshot updated;
        do {
            live = current.get();
            if (ifMatch.isPresent() && !ifMatch.get().matches(live.policy().revision())) {
                throw new StaleRevisionException(ifMatch.get(), live.policy().revision());
            }
            updated = live.withPolicy(parsed);
            if (current.get() == live) {
                persist.run();
            }
        } while (!current.compareAndSet(live, updated));
        wentLive.accept(updated);
        audit.metrics().policyReload(true);
        return updated.policy();
    }

    /**
     * The live snapshot with {@code body} as its global policy, not swapped in: what replacing the policy would
     * serve. An invalid policy throws as {@link #replacePolicy} does.
     */
    public Snapshot withCandidatePolicy(byte[] body, String contentType) {
        return current.get().withPolicy(parseGlobalPolicy(body, contentType));
    }

    private PolicyDocument parseGlobalPolicy(byte[] body, String contentType) {
        try {
            LocatedDocument text = Documents.parse(body, contentType);
            return withVersionWarnings(PolicyParser.parse(text), text);
        } catch (DocumentException e) {
            throw new DecisionException(DecisionException.Code.INVALID_POLICY, e.getMessage(), e.problems());
        }
    }

    /**
     * Checks what only the server can: backends that are not Hub storages are problems; a deprecated syntax
     * version and ids the store cannot resolve are warnings.
     */
    private PolicyDocument withVersionWarnings(PolicyDocument document, LocatedDocument text) {
        List<Problem> problems = HubStorageCheck.problems(document.policy(), current.get().typeInstances(), current.get().catalog())
                .stream().map(problem -> problem.locatedBy(text.locations())).toList();
        if (!problems.isEmpty()) {
            throw new DocumentException("the policy is invalid: " + problems.get(0), problems);
        }
        PolicyType type = registry.type(GLOBAL_POLICY_TYPE).orElseThrow();
        List<String> warnings = new ArrayList<>(document.warnings());
        Versions.check(type, document.version(), "$.apiVersion", DecisionException.Code.INVALID_POLICY).ifPresent(warnings::add);
        warnings.addAll(StoreReferences.unresolved(document.policy(), current.get().typeInstances()));
        return document.withWarnings(warnings);
    }

    private static LocatedDocument parseRequest(byte[] body, String contentType) {
        try {
            return Documents.parse(body, contentType);
        } catch (DocumentException e) {
            throw new DecisionException(DecisionException.Code.INVALID_REQUEST, e.getMessage(), e.problems());
        }
    }
}
