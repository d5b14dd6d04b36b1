package io.arbiter.impact;

import io.arbiter.decision.Snapshot;
import io.arbiter.runtime.Decisions;
import io.arbiter.runtime.Evaluation;
import io.arbiter.suite.SuiteRunner;
import io.arbiter.suite.TestCase;
import io.arbiter.suite.TestResult;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Decides every probe under the baseline and under the candidate and reports what changed. A request asked many
 * times (a replayed log repeats requests) is decided once per side: decisions depend only on the request and the
 * snapshot.
 */
public final class ImpactAnalysis {

    /** Told how many distinct requests are decided so far, of how many. */
    public interface Progress {
        void decided(int done, int total);

        Progress NONE = (done, total) -> {
        };
    }

    private ImpactAnalysis() {
    }

    /**
     * A distinct request: its probes, and what each side decided (null when it was not decided); for a test, its
     * verdict on each side.
     */
    private record Compared(List<Probe> probes, Evaluation before, Evaluation after, boolean unaffected,
                            TestResult testBefore, TestResult testAfter) {
        boolean notCompared() {
            return before == null && !unaffected;
        }
    }

    /** What to decide: a distinct request and the probes that asked it, or a test. */
    private record Work(List<Probe> probes, TestCase test) {
    }

    public static ImpactReport run(Decisions baseline, Decisions candidate, List<Probe> probes, List<String> skipped,
                                   int maxChanges, Progress progress) {
        return run(baseline, candidate, probes, List.of(), skipped, maxChanges, null, progress);
    }

    /**
     * @param tests  tests of test suites, each run under both snapshots (with its own policy file when it names one)
     * @param budget how long deciding may take (null: as long as it takes); requests not started by then are counted
     *               as {@code notCompared} and the report says so
     */
    public static ImpactReport run(Decisions baseline, Decisions candidate, List<Probe> probes, List<TestCase> tests,
                                   List<String> skipped, int maxChanges, java.time.Duration budget, Progress progress) {
        if (maxChanges < 0) {
            throw new IllegalArgumentException("the number of changes listed must be 0 or more, not " + maxChanges);
        }
        long deadline = budget == null ? Long.MAX_VALUE : System.nanoTime() + budget.toNanos();
        Map<String, List<Probe>> distinct = new LinkedHashMap<>();
        probes.forEach(probe -> distinct.computeIfAbsent(probe.key(), key -> new ArrayList<>()).add(probe));
        List<Work> work = new ArrayList<>();
        distinct.values().forEach(group -> work.add(new Work(group, null)));
        tests.forEach(test -> work.add(new Work(List.of(new Probe(Probe.Source.TEST, test.target(), test.title(),
                Probes.encode(test.request()))), test)));
        SuiteRunner testsBefore = tests.isEmpty() ? null : new SuiteRunner(baseline.registry(), baseline.snapshot());
        SuiteRunner testsAfter = tests.isEmpty() ? null : new SuiteRunner(candidate.registry(), candidate.snapshot());
        AtomicInteger done = new AtomicInteger();
        Map<String, Boolean> unaffectedTargets = new java.util.concurrent.ConcurrentHashMap<>();
        List<Compared> compared = work.parallelStream().map(item -> {
            Probe probe = item.probes().get(0);
            Compared result;
            if (System.nanoTime() - deadline > 0 && deadline != Long.MAX_VALUE) {
                result = new Compared(item.probes(), null, null, false, null, null);
            } else if (item.test() != null) {
                TestResult before = testsBefore.run(item.test());
                TestResult after = testsAfter.run(item.test());
                result = new Compared(item.probes(), before.evaluation(), after.evaluation(), false, before, after);
            } else if (unaffectedTargets.computeIfAbsent(probe.target(), target -> readsNothingChanged(baseline, candidate, target))) {
                result = new Compared(item.probes(), null, null, true, null, null);
            } else {
                result = new Compared(item.probes(), Evaluation.of(baseline, probe.target(), probe.body()),
                        Evaluation.of(candidate, probe.target(), probe.body()), false, null, null);
            }
            progress.decided(done.incrementAndGet(), work.size());
            return result;
        }).toList();
        List<String> allSkipped = new ArrayList<>(skipped);
        long notCompared = compared.stream().filter(Compared::notCompared).mapToLong(pair -> pair.probes().size()).sum();
        if (notCompared > 0) {
            allSkipped.add(notCompared + " decisions not compared: deciding took longer than its budget of " + budget.toSeconds() + " s");
        }
        return report(baseline.snapshot().revision(), candidate.snapshot().revision(), compared, allSkipped, maxChanges);
    }

    /**
     * True when the target's decisions read nothing the candidate changed: its type's rule base, the rule bases of the
     * types it consumes from, and the snapshot parts it reads are the same on both sides. Such a request is decided
     * alike under both, so it is counted without being decided.
     */
    static boolean readsNothingChanged(Decisions baseline, Decisions candidate, String target) {
        var type = baseline.registry().typeOfTarget(target);
        if (type.isEmpty()) {
            return false;
        }
        Snapshot before = baseline.snapshot();
        Snapshot after = candidate.snapshot();
        List<String> ruleBases = new ArrayList<>(List.of(type.get().name()));
        type.get().consumes().forEach(data -> ruleBases.add(data.type()));
        for (String name : ruleBases) {
            var a = before.ruleBases().get(name);
            var b = after.ruleBases().get(name);
            if (a == null || b == null || !a.revision().equals(b.revision())) {
                return false;
            }
        }
        return type.get().reads().stream().allMatch(part -> before.revisionOf(part).equals(after.revisionOf(part)));
    }

    private static ImpactReport report(String baseline, String candidate, List<Compared> compared, List<String> skipped,
                                       int maxChanges) {
        Map<String, ImpactReport.Tally> byKind = new TreeMap<>();
        Map<String, ImpactReport.Tally> bySource = new LinkedHashMap<>();
        List<ImpactReport.Change> changes = new ArrayList<>();
        int decisions = 0;
        int changed = 0;
        int refired = 0;
        int unaffected = 0;
        int notCompared = 0;
        ImpactReport.TestTally tests = new ImpactReport.TestTally(0, 0, 0);
        for (Compared pair : compared) {
            if (pair.notCompared()) {
                notCompared += pair.probes().size();
                continue;
            }
            Map<String, Evaluation.Change> fields = pair.unaffected() ? Map.of() : pair.after().changesFrom(pair.before());
            List<String> onlyBefore = pair.unaffected() ? List.of() : List.copyOf(pair.before().firedMoreOftenThan(pair.after()).keySet());
            List<String> onlyAfter = pair.unaffected() ? List.of() : List.copyOf(pair.after().firedMoreOftenThan(pair.before()).keySet());
            boolean isChanged = !fields.isEmpty();
            boolean isRefired = !isChanged && !(onlyBefore.isEmpty() && onlyAfter.isEmpty());
            ImpactReport.TestChange test = null;
            if (pair.testBefore() != null) {
                tests = tests.plus(pair.testBefore().passed(), pair.testAfter().passed());
                if (isChanged || isRefired || pair.testBefore().passed() != pair.testAfter().passed()) {
                    test = new ImpactReport.TestChange(pair.testBefore().passed(), pair.testAfter().passed(),
                            pair.testAfter().mismatches());
                }
            }
            Map<Probe.Source, List<Probe>> bySourceOfPair = new TreeMap<>();
            pair.probes().forEach(probe -> bySourceOfPair.computeIfAbsent(probe.source(), s -> new ArrayList<>()).add(probe));
            for (var entry : bySourceOfPair.entrySet()) {
                int count = entry.getValue().size();
                String kind = entry.getValue().get(0).target();
                String source = entry.getKey().name().toLowerCase(java.util.Locale.ROOT);
                ImpactReport.Tally tally = ImpactReport.Tally.of(count, isChanged, isRefired, pair.unaffected());
                byKind.merge(kind, tally, ImpactReport.Tally::plus);
                bySource.merge(source, tally, ImpactReport.Tally::plus);
                decisions += count;
                changed += isChanged ? count : 0;
                refired += isRefired ? count : 0;
                unaffected += pair.unaffected() ? count : 0;
                if (isChanged || isRefired || test != null) {
                    changes.add(new ImpactReport.Change(source, kind,
                            entry.getValue().stream().map(Probe::subject).limit(ImpactReport.SUBJECTS_SHOWN).toList(), count,
                            pair.before().outcome(), pair.after().outcome(), fields, onlyBefore, onlyAfter, test));
                }
            }
        }
        // a test that stopped passing first, then decided differently, then by how many decisions each stands for
        changes.sort(Comparator.comparing((ImpactReport.Change change) -> !change.breaksATest())
                .thenComparing(change -> !change.decidedDifferently())
                .thenComparing(Comparator.comparingInt(ImpactReport.Change::count).reversed()));
        int omitted = Math.max(0, changes.size() - maxChanges);
        return new ImpactReport(baseline, candidate, decisions, changed, refired, unaffected, notCompared,
                tests.tests() == 0 ? null : tests, byKind, bySource,
                List.copyOf(changes.subList(0, changes.size() - omitted)), omitted, List.copyOf(skipped));
    }
}
