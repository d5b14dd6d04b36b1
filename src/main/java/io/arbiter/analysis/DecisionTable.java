package io.arbiter.analysis;

import org.drools.decisiontable.parser.csv.CsvLineParser;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * A CSV decision table read as the table compiler reads it (its own CSV line parser, one row per line): the imports,
 * whether it is Sequential, and each {@code RuleTable} with its column kinds, code cells, headers and data rows,
 * every cell at its 1-based row and column.
 */
record DecisionTable(String file, List<String> imports, boolean sequential, List<Table> tables) {

    record Row(int number, List<String> cells) {
        String cell(int column) {
            return column < cells.size() ? cells.get(column).trim() : "";
        }
    }

    /**
     * One {@code RuleTable}: the row of its name, its column kinds, object types (the pattern each condition column
     * constrains), code cells, headers and data rows.
     */
    record Table(String name, int nameRow, List<String> kinds, Row objectTypes, Row code, Row headers, List<Row> rows) {
        String kind(int column) {
            return column < kinds.size() ? kinds.get(column).trim() : "";
        }

        List<Integer> columnsOf(String kind) {
            return IntStream.range(0, kinds.size()).filter(c -> kind(c).equals(kind)).boxed().toList();
        }

        /** The row a rule of this table comes from: by its NAME cell, else by Drools' {@code <table>_<row>} naming. */
        Row rowOfRule(String ruleName) {
            List<Integer> names = columnsOf("NAME");
            for (Row row : rows) {
                if (!names.isEmpty() && row.cell(names.get(0)).equals(ruleName)) {
                    return row;
                }
                if (ruleName.equals(name.replace(' ', '_') + "_" + row.number())
                        || ruleName.equals(name + "_" + row.number())) {
                    return row;
                }
            }
            return null;
        }
    }

    private static final Pattern RULE_TABLE = Pattern.compile("^RuleTable\\s*(.*)$");

    static DecisionTable parse(String file, byte[] content) {
        String[] lines = new String(content, StandardCharsets.UTF_8).split("\r?\n", -1);
        CsvLineParser parser = new CsvLineParser();
        List<Row> all = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            all.add(new Row(i + 1, parser.parse(lines[i])));
        }
        List<String> imports = new ArrayList<>();
        boolean sequential = false;
        List<Table> tables = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            Row row = all.get(i);
            String first = row.cell(0);
            if (first.equals("Import")) {
                for (String imported : row.cell(1).split(",")) {
                    imports.add(imported.trim());
                }
            } else if (first.equals("Sequential")) {
                sequential = row.cell(1).equalsIgnoreCase("true");
            }
            Matcher table = RULE_TABLE.matcher(first);
            if (table.matches() && i + 4 < all.size()) {
                List<Row> rows = new ArrayList<>();
                int r = i + 5;
                while (r < all.size() && !blank(all.get(r))) {
                    rows.add(all.get(r));
                    r++;
                }
                tables.add(new Table(table.group(1).trim(), row.number(), all.get(i + 1).cells(), all.get(i + 2),
                        all.get(i + 3), all.get(i + 4), rows));
                i = r - 1;
            }
        }
        return new DecisionTable(file, imports, sequential, tables);
    }

    private static boolean blank(Row row) {
        return row.cells().stream().allMatch(cell -> cell.isBlank());
    }

    /** The 0-based character offset where a 1-based CSV column starts in a line (for a caret under it). */
    static int offsetOfColumn(String line, int column) {
        int current = 1;
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            if (current == column) {
                return i;
            }
            char c = line.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                current++;
                if (current == column) {
                    return i + 1;
                }
            }
        }
        return current == column ? line.length() : 0;
    }
}
