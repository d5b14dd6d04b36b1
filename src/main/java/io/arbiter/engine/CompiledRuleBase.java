package io.arbiter.engine;

import org.kie.api.KieBase;
import org.kie.api.runtime.ClassObjectFilter;
import org.kie.api.runtime.KieSession;
import org.kie.api.runtime.KieSessionsPool;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A compiled, immutable rule base for one decision kind, with a pool of reusable sessions.
 *
 * @param phases   the ruleflow groups a decision runs through by default, in order
 * @param revision a content hash of every rule file and table it was built from
 */
public record CompiledRuleBase(String name, KieBase kieBase, KieSessionsPool pool, List<String> phases,
                               String revision, List<String> ruleNames, List<RuleBaseBuilder.RuleFile> files,
                               boolean recording) {

    /**
     * Decisions over more facts than this get a new session instead of a pooled one. A pooled session keeps its
     * node memories across decisions, so they age into the old generation; a large decision then fills them with
     * young objects, and every young collection scans those old-to-young references (measured on a 5,000-cluster
     * rollout: 3.4 s of GC pauses in 6 s with the pool, 0.15 s without). Small decisions keep the pool, which
     * saves the per-session set-up.
     */
    public static final int POOLED_SESSION_MAX_FACTS = 1_000;

    public CompiledRuleBase(String name, KieBase kieBase, KieSessionsPool pool, List<String> phases, String revision,
                            List<String> ruleNames, List<RuleBaseBuilder.RuleFile> files) {
        this(name, kieBase, pool, phases, revision, ruleNames, files, true);
    }

    /** The same rule base without the firing recorder: only for measuring what recording costs (JMH). */
    public CompiledRuleBase withoutRecording() {
        return new CompiledRuleBase(name, kieBase, pool, phases, revision, ruleNames, files, false);
    }

    /**
     * Every rule of this rule base with its name, package, phase and where it is written (file and line, or table
     * and row): what a firing's {@code rule} stands for.
     */
    public List<RuleSources.RuleSource> listing() {
        return RuleSources.of(files);
    }

    /** Each rule's phase and where it is written, by its qualified name. */
    private record ByRule(java.util.Map<String, String> phase, java.util.Map<String, String> source) {
    }

    /**
     * {@link ByRule} of the rule bases used last, by name and revision: derived from {@link #listing} (which parses
     * every file) once per rule base, not per decision. Bounded: each reload or table edit builds a rule base with a
     * new revision, and a replay of an archived snapshot another.
     */
    private static final java.util.Map<String, ByRule> BY_RULE = new java.util.LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<String, ByRule> eldest) {
            return size() > 64;
        }
    };

    private ByRule byRule() {
        String key = name + " " + revision;
        synchronized (BY_RULE) {
            ByRule known = BY_RULE.get(key);
            if (known != null) {
                return known;
            }
        }
        java.util.Map<String, String> phases = new java.util.HashMap<>();
        java.util.Map<String, String> sources = new java.util.HashMap<>();
        for (RuleSources.RuleSource source : listing()) {
            if (source.phase() != null) {
                phases.putIfAbsent(source.rule(), source.phase());
            }
            sources.putIfAbsent(source.rule(), source.file()
                    + (source.line() != null ? ":" + source.line() : source.row() != null ? ":" + source.row() : ""));
        }
        ByRule derived = new ByRule(java.util.Map.copyOf(phases), java.util.Map.copyOf(sources));
        synchronized (BY_RULE) {
            BY_RULE.put(key, derived);
        }
        return derived;
    }

    /** Where each rule is written, by its qualified name: {@code file:line}, a DRL rule's line or a table row's. */
    public java.util.Map<String, String> sourceOfRule() {
        return byRule().source();
    }

    /** The phase (ruleflow group) of each rule, by its qualified name. */
    public java.util.Map<String, String> phaseOfRule() {
        return byRule().phase();
    }

    /**
     * Runs one decision: inserts the facts, fires the phases in order, lets {@code reader} query the session,
     * and returns what the reader produced together with every rule firing.
     */
    public <T> Run<T> run(Collection<?> facts, Function<KieSession, T> reader) {
        return run(facts, phases, reader);
    }

    /** As {@link #run(Collection, Function)}, through the given phases (a subset of the rule base's, in order). */
    public <T> Run<T> run(Collection<?> facts, List<String> phasesToRun, Function<KieSession, T> reader) {
        DecisionDeadline deadline = DecisionDeadline.current();
        deadline.check();
        try (OpenSession open = open(facts, deadline)) {
            var agenda = open.session.getAgenda();
            for (int i = phasesToRun.size() - 1; i >= 0; i--) {
                agenda.getAgendaGroup(phasesToRun.get(i)).setFocus();
            }
            fire(open.session, deadline, deadline.maxFirings());
            return new Run<>(reader.apply(open.session), open.fired());
        }
    }

    /**
     * Fires at most {@code budget} rules; throws when that many fired (the decision needs more) or when the deadline
     * halted the session. Returns how many fired.
     */
    private static int fire(KieSession session, DecisionDeadline deadline, int budget) {
        int fired = session.fireAllRules(budget);
        deadline.check();
        if (fired >= budget) {
            throw deadline.firingsExceeded();
        }
        return fired;
    }

    /**
     * Runs the phases over each partition of the facts in a session of its own, the partitions in parallel
     * ({@link Parallel}), and returns each partition's result in partition order. Only for partitions that no rule of
     * these phases can join across: each session sees only its own facts.
     * <p>
     * The firings are merged phase by phase and, within a phase, partition by partition, then numbered in that order:
     * the order a single session firing the phases over all the facts would follow, up to the order of independent
     * firings within a phase.
     */
    public <T> Run<List<T>> runPartitions(List<? extends Collection<?>> partitions, List<String> phasesToRun,
                                          Function<KieSession, T> reader) {
        // partitions run on helper threads too: they get the caller's deadline, and share its firings limit
        DecisionDeadline deadline = DecisionDeadline.current();
        deadline.check();
        DecisionDeadline shared = new DecisionDeadline(deadline.endNanos(), deadline.budget(),
                Math.max(1, deadline.maxFirings() / Math.max(1, partitions.size())));
        List<Supplier<PhasedRun<T>>> tasks = new ArrayList<>(partitions.size());
        for (Collection<?> partition : partitions) {
            tasks.add(() -> runPhaseByPhase(partition, phasesToRun, reader, shared));
        }
        List<PhasedRun<T>> runs = Parallel.all(tasks);
        List<T> results = new ArrayList<>(runs.size());
        int firings = 0;
        for (PhasedRun<T> run : runs) {
            results.add(run.result());
            firings += run.fired().size();
        }
        List<FiredRule> merged = new ArrayList<>(firings);
        for (int phase = 0; phase < phasesToRun.size(); phase++) {
            for (PhasedRun<T> run : runs) {
                int from = phase == 0 ? 0 : run.phaseEnds()[phase - 1];
                for (FiredRule fired : run.fired().subList(from, run.phaseEnds()[phase])) {
                    merged.add(fired.renumbered(merged.size() + 1));
                }
            }
        }
        return new Run<>(results, merged);
    }

    /** As {@link #run}, firing one phase at a time, and noting where each phase's firings end. */
    private <T> PhasedRun<T> runPhaseByPhase(Collection<?> facts, List<String> phasesToRun, Function<KieSession, T> reader,
                                             DecisionDeadline deadline) {
        try (OpenSession open = open(facts, deadline)) {
            int[] phaseEnds = new int[phasesToRun.size()];
            int fired = 0;
            for (int i = 0; i < phasesToRun.size(); i++) {
                open.session.getAgenda().getAgendaGroup(phasesToRun.get(i)).setFocus();
                fired += fire(open.session, deadline, deadline.maxFirings() - fired);
                phaseEnds[i] = open.recorder == null ? 0 : open.recorder.count();
            }
            return new PhasedRun<>(reader.apply(open.session), open.fired(), phaseEnds);
        }
    }

    /**
     * A session holding {@code facts}, recording its firings when this rule base records, and halted if it is still
     * firing when the deadline passes.
     */
    private OpenSession open(Collection<?> facts, DecisionDeadline deadline) {
        KieSession session = facts.size() <= POOLED_SESSION_MAX_FACTS ? pool.newKieSession() : kieBase.newKieSession();
        FiredRuleRecorder recorder = recording ? new FiredRuleRecorder() : null;
        if (recorder != null) {
            session.addEventListener(recorder);
        }
        OpenSession open = new OpenSession(session, recorder, deadline.atDeadline(session::halt));
        try {
            for (Object fact : facts) {
                session.insert(fact);
            }
        } catch (RuntimeException | Error e) {
            open.close();
            throw e;
        }
        return open;
    }

    private record OpenSession(KieSession session, FiredRuleRecorder recorder, DecisionDeadline.Halt halt)
            implements AutoCloseable {

        List<FiredRule> fired() {
            return recorder == null ? List.of() : recorder.fired();
        }

        /**
         * Disposes the session. One the deadline halted (or was about to halt) is destroyed rather than handed back
         * to the pool, so no later decision gets a session in a halted state.
         */
        @Override
        public void close() {
            boolean halted = !halt.cancel();
            if (recorder != null) {
                session.removeEventListener(recorder);
            }
            if (halted) {
                session.destroy();
            } else {
                session.dispose();
            }
        }
    }

    private record PhasedRun<T>(T result, List<FiredRule> fired, int[] phaseEnds) {
    }

    /** The facts of {@code type} in {@code session}, for a reader: no query to evaluate, in no particular order. */
    public static <T> List<T> factsOf(KieSession session, Class<T> type) {
        List<T> facts = new ArrayList<>();
        for (Object fact : session.getObjects(new ClassObjectFilter(type))) {
            facts.add(type.cast(fact));
        }
        return facts;
    }

    /** What a decision run produced, and the rules that fired to produce it. */
    public record Run<T>(T result, List<FiredRule> firedRules) {
    }
}
