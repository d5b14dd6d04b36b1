package io.arbiter.archive;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.document.Documents;
import io.arbiter.engine.FiredRule;
import io.arbiter.runtime.Evaluation;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** A replay report as text ({@code arbiter audit --replay}): the verdict first, then what differs. */
public final class ReplayText {

    /** A value longer than this is cut in the report: the decision log holds it whole. */
    private static final int MAX_VALUE_CHARS = 2_000;

    private ReplayText() {
    }

    /**
     * When the snapshot went live before the decision: a snapshot live again after another was live went live several
     * times, and its last time may come after the decision.
     */
    private static String liveWhen(Replay.Report report) {
        if (report.decidedAt() == null) {
            return "last live from " + report.snapshot().wentLive() + "; the record says no time it was decided";
        }
        return report.snapshot().liveAt(report.decidedAt()).map(at -> "live from " + at)
                .orElse("the archive keeps no time it went live before the decision, at " + report.decidedAt()
                        + "; it went live at " + String.join(", ", report.snapshot().liveFrom()));
    }

    public static void print(Replay.Report report, Path archive, PrintWriter out) {
        out.println("decision " + report.decisionId() + " (" + report.target() + ")");
        if (!report.found()) {
            out.println("NOT FOUND: no snapshot in the archive " + archive + " has the revisions it was decided with: "
                    + report.lookedFor());
            return;
        }
        ArchiveManifest snapshot = report.snapshot();
        out.println("replayed under snapshot " + snapshot.snapshotRevision() + " (" + liveWhen(report)
                + "; policy " + snapshot.policy() + ", catalog " + snapshot.catalog() + ", TypeInstances "
                + snapshot.typeInstances() + ")");
        report.notes().forEach(note -> out.println("note: " + note));
        Evaluation before = report.before();
        Evaluation after = report.after();
        if (report.identical()) {
            out.println("IDENTICAL: outcome " + after.outcome() + ", the same result and the same "
                    + after.firings().size() + " firings");
            return;
        }
        out.println("DIFFERENT: outcome " + before.outcome() + " logged, " + after.outcome() + " replayed");
        Map<String, Evaluation.Change> changes = report.changes();
        changes.forEach((field, change) -> {
            out.println("  " + field + ":");
            out.println("    before: " + json(change.before()));
            out.println("    after:  " + json(change.after()));
        });
        Map<String, Integer> onlyBefore = report.firedOnlyBefore();
        Map<String, Integer> onlyAfter = report.firedOnlyAfter();
        onlyBefore.forEach((rule, times) -> out.println("  fired only before: " + rule + (times > 1 ? " (" + times + " times)" : "")));
        onlyAfter.forEach((rule, times) -> out.println("  fired only after:  " + rule + (times > 1 ? " (" + times + " times)" : "")));
        if (onlyBefore.isEmpty() && onlyAfter.isEmpty() && !before.firings().equals(after.firings())) {
            int at = firstDifference(before.firings(), after.firings());
            out.println("  the same rules fired, in another order or with other facts: firing " + (at + 1) + " was "
                    + describe(before.firings(), at) + ", is " + describe(after.firings(), at));
        }
        if (changes.isEmpty() && before.firings().equals(after.firings())) {
            out.println("  (no field differs)");
        }
    }

    private static int firstDifference(List<FiredRule> before, List<FiredRule> after) {
        int at = 0;
        while (at < before.size() && at < after.size() && before.get(at).equals(after.get(at))) {
            at++;
        }
        return at;
    }

    private static String describe(List<FiredRule> firings, int at) {
        if (at >= firings.size()) {
            return "(none)";
        }
        FiredRule firing = firings.get(at);
        return firing.rule() + " " + firing.facts();
    }

    private static String json(JsonNode value) {
        String text;
        try {
            text = Documents.jsonMapper().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            text = value.toString();
        }
        return text.length() <= MAX_VALUE_CHARS ? text : text.substring(0, MAX_VALUE_CHARS) + "... (" + text.length() + " characters)";
    }
}
