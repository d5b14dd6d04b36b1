package io.arbiter.impact;

import io.arbiter.decision.Snapshot;
import io.arbiter.runtime.Decisions;
import io.arbiter.runtime.Evaluation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
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

    /** A distinct request: its probes, and what each side decided (null when it was not decided). */
    private record Compared(List<Probe> probes, Evaluation before, Evaluation after, boolean unaffected) {
        boolean notCompared() {
            return before == null && !unaffected;
        }
    }

    public static ImpactReport run(Decisions baseline, Decisions candidate, List<Probe> probes, List<String> skipped,
                                   int maxChanges, Progress progress) {
        return run(baseline, candidate, probes, skipped, maxChanges, null, progress);
    }

    /**
     * @param budget how long deciding may take (null: as long as it takes); requests not started by then are counted
     *               as {@code notCompared} and the report says so
     */
    public static ImpactReport run(Decisions baseline, Decisions candidate, List<Probe> probes, List<String> skipped,
                                   int maxChanges, java.time.Duration budget, Progress progress) {
        if (maxChanges < 0) {
            throw new IllegalArgumentException("the number of changes listed must be 0 or more, not " + maxChanges);
        }
        long deadline = budget == null ? Long.MAX_VALUE : System.nanoTime() + budget.toNanos();
        Map<String, List<Probe>> distinct = new LinkedHashMap<>();
        probes.forEach(probe -> distinct.computeIfAbsent(probe.key(), key -> new ArrayList<>()).add(probe));
        List<List<Probe>> groups = new ArrayList<>(distinct.values());
        AtomicInteger done = new AtomicInteger();
        Map<String, Boolean> unaffectedTargets = new java.util.concurrent.ConcurrentHashMap<>();
        List<Compared> compared = groups.parallelStream().map(group -> {
            Probe probe = group.get(0);
            boolean unaffected = unaffectedTargets.computeIfAbsent(probe.target(),
                    target -> readsNothingChanged(baseline, candidate, target));
            Compared result;
            if (unaffected) {
                result = new Compared(group, null, null, true);
            } else if (System.nanoTime() - deadline > 0 && deadline != Long.MAX_VALUE) {
                result = new Compared(group, null, null, false);
            } else {
                result = new Compared(group, Evaluation.of(baseline, probe.target(), probe.body()),
                        Evaluation.of(candidate, probe.target(), probe.body()), false);
            }
            progress.decided(done.incrementAndGet(), groups.size());
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
        type.get().consumes().forEach(data -> ruleBases.add(data.substring(0, Math.max(0, data.indexOf('/')))));
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
        for (Compared pair : compared) {
            if (pair.notCompared()) {
                notCompared += pair.probes().size();
                continue;
            }
            Map<String, Evaluation.Change> fields = pair.unaffected() ? Map.of() : pair.after().changesFrom(pair.before());
            List<String> onlyBefore = pair.unaffected() ? List.of() : minus(pair.before().firedRules(), pair.after().firedRules());
            List<String> onlyAfter = pair.unaffected() ? List.of() : minus(pair.after().firedRules(), pair.before().firedRules());
            boolean isChanged = !fields.isEmpty();
            boolean isRefired = !isChanged && !(onlyBefore.isEmpty() && onlyAfter.isEmpty());
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
                if (isChanged || isRefired) {
                    changes.add(new ImpactReport.Change(source, kind,
                            entry.getValue().stream().map(Probe::subject).limit(ImpactReport.SUBJECTS_SHOWN).toList(), count,
                            pair.before().outcome(), pair.after().outcome(), fields, onlyBefore, onlyAfter, null));
                }
            }
        }
        // decided differently first, then by how many decisions each stands for
        changes.sort(Comparator.comparing((ImpactReport.Change change) -> !change.decidedDifferently())
                .thenComparing(Comparator.comparingInt(ImpactReport.Change::count).reversed()));
        int omitted = Math.max(0, changes.size() - maxChanges);
        return new ImpactReport(baseline, candidate, decisions, changed, refired, unaffected, notCompared, byKind, bySource,
                List.copyOf(changes.subList(0, changes.size() - omitted)), omitted, List.copyOf(skipped));
    }

    /** The rules of {@code a} that {@code b} fired fewer times (each rule once, in {@code a}'s firing order). */
    private static List<String> minus(List<String> a, List<String> b) {
        Map<String, Integer> left = new HashMap<>();
        b.forEach(rule -> left.merge(rule, 1, Integer::sum));
        java.util.LinkedHashSet<String> extra = new java.util.LinkedHashSet<>();
        for (String rule : a) {
            if (left.merge(rule, -1, Integer::sum) < 0) {
                extra.add(rule);
            }
        }
        return List.copyOf(extra);
    }
}
