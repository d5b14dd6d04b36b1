package io.arbiter.impact;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.arbiter.runtime.Evaluation;

import java.util.List;
import java.util.Map;

/**
 * What a candidate snapshot would decide differently from the baseline. {@code decisions} counts every probe (a
 * replayed request logged a thousand times counts a thousand times), {@code changed} those decided differently,
 * {@code refired} those decided alike by other rules, {@code unaffected} those of a kind that reads nothing the
 * candidate changed (counted as unchanged without being decided: a new global policy leaves rollouts alone);
 * {@code notCompared} those left undecided when the run's time budget ran out (not in {@code decisions});
 * {@code byKind} splits them by decision target, {@code bySource} by where the probes came from. {@code changes} lists
 * each distinct changed or refired request once, at most as many as asked ({@code changesOmitted} says how many more
 * there were).
 */
public record ImpactReport(String baseline, String candidate, int decisions, int changed, int refired, int unaffected,
                           int notCompared,
                           Map<String, Tally> byKind, Map<String, Tally> bySource, List<Change> changes,
                           int changesOmitted, List<String> skipped) {

    /** How many decisions of one kind or source, and how many of them changed, refired or were unaffected. */
    public record Tally(int decisions, int changed, int refired, int unaffected) {
        static Tally of(int count, boolean isChanged, boolean isRefired, boolean isUnaffected) {
            return new Tally(count, isChanged ? count : 0, isRefired ? count : 0, isUnaffected ? count : 0);
        }

        Tally plus(Tally other) {
            return new Tally(decisions + other.decisions, changed + other.changed, refired + other.refired,
                    unaffected + other.unaffected);
        }
    }

    /**
     * One request decided differently: {@code fields} the top-level fields of the decision whose values changed,
     * before and after; the rules that fired only before or only after (as {@code package.name}, a decision-table
     * row by its row's name). {@code count} how many probes asked it; {@code subjects} what they were about (at most
     * {@link #SUBJECTS_SHOWN}). {@code test} is set for a probe of a test suite.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Change(String source, String kind, List<String> subjects, int count, String outcomeBefore,
                         String outcomeAfter, Map<String, Evaluation.Change> fields, List<String> firedOnlyBefore,
                         List<String> firedOnlyAfter, TestChange test) {

        public boolean decidedDifferently() {
            return !fields.isEmpty();
        }
    }

    /** A test's verdict before and after, with the candidate's mismatches when it fails. */
    public record TestChange(boolean passedBefore, boolean passedAfter, List<String> mismatchesAfter) {
    }

    public static final int SUBJECTS_SHOWN = 10;
}
