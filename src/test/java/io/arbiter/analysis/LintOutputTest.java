package io.arbiter.analysis;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The text output: grouped by file, the offending line, a caret under the column (a CSV cell for tables). */
class LintOutputTest {

    @Test
    void aTableFindingPutsTheCaretUnderItsCell() {
        Finding finding = Finding.inTable(Finding.Severity.ERROR, "duplicate-precedence", "t.drl.csv", 2, 4, "twice");
        List<String> lines = List.of("Rule,Phase,Kind,Precedence", "\"Catch, all\",rule-key,ANY,2");

        String text = LintOutput.text(List.of(finding), file -> lines);

        assertTrue(text.startsWith("t.drl.csv\n  2:4: error [duplicate-precedence] twice\n"), text);
        assertTrue(text.contains("    | \"Catch, all\",rule-key,ANY,2\n    | " + " ".repeat(26) + "^\n"), text);
        assertTrue(text.endsWith("invalid: 1 error(s), 0 warning(s)\n"), text);
    }

    @Test
    void theCellOffsetSkipsQuotedCommas() {
        assertEquals(0, DecisionTable.offsetOfColumn("a,b", 1));
        assertEquals(2, DecisionTable.offsetOfColumn("a,b", 2));
        assertEquals(13, DecisionTable.offsetOfColumn("\"x, y\",\"z\",w,v", 4) - 0);
    }
}
