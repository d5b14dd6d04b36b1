package io.arbiter.impact;

import io.arbiter.runtime.Evaluation;

import java.io.PrintWriter;
import java.util.Map;

/**
 * An impact report as text: a table of counts per kind and per source ("unaffected": of a kind that reads nothing the
 * candidate changed), then each change with its values before and after.
 */
public final class ImpactText {

    private ImpactText() {
    }

    public static void print(ImpactReport report, PrintWriter out) {
        out.printf("baseline %s, candidate %s%n%n", report.baseline(), report.candidate());
        out.printf("%-16s %10s %10s %10s %10s%n", "kind", "decisions", "changed", "refired", "unaffected");
        report.byKind().forEach((kind, tally) -> row(out, kind, tally));
        out.println();
        report.bySource().forEach((source, tally) -> row(out, "from " + source, tally));
        row(out, "total", new ImpactReport.Tally(report.decisions(), report.changed(), report.refired(), report.unaffected()));
        for (ImpactReport.Change change : report.changes()) {
            out.println();
            out.printf("%s %s (%s): %s%s%n", change.decidedDifferently() ? "CHANGED" : "REFIRED", change.kind(),
                    change.source(), String.join(", ", change.subjects()),
                    change.count() > change.subjects().size() ? " and " + (change.count() - change.subjects().size()) + " more"
                            : change.count() > 1 ? " (" + change.count() + " decisions)" : "");
            if (change.test() != null) {
                out.printf("  test: %s -> %s%n", verdict(change.test().passedBefore()), verdict(change.test().passedAfter()));
                change.test().mismatchesAfter().forEach(mismatch -> out.println("    " + mismatch));
            }
            for (Map.Entry<String, Evaluation.Change> field : change.fields().entrySet()) {
                out.printf("  %s: %s -> %s%n", field.getKey(), field.getValue().before(), field.getValue().after());
            }
            change.firedOnlyBefore().forEach(rule -> out.println("  - fired before only: " + rule));
            change.firedOnlyAfter().forEach(rule -> out.println("  + fired after only:  " + rule));
        }
        if (report.changesOmitted() > 0) {
            out.printf("%n%d more changes not listed%n", report.changesOmitted());
        }
        report.skipped().forEach(skip -> out.println("skipped: " + skip));
    }

    private static void row(PrintWriter out, String name, ImpactReport.Tally tally) {
        out.printf("%-16s %,10d %,10d %,10d %,10d%n", name, tally.decisions(), tally.changed(), tally.refired(), tally.unaffected());
    }

    private static String verdict(boolean passed) {
        return passed ? "PASS" : "FAIL";
    }
}
