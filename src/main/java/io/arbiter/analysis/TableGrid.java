package io.arbiter.analysis;

import io.arbiter.document.Problem;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * A CSV decision table as an analyst sees it in the browser: every line of the file as a row of cells, and each
 * {@code RuleTable} with its columns (the analyst's header, the column's kind, the values an enumerated column allows)
 * and its data rows, each with its row number and its name (the row's note). Rows and columns are 1-based, as lint
 * locates its findings. Also the other way: a grid of cells written back as the CSV the table compiler reads.
 */
public final class TableGrid {

    /** Bounds of an edited table: a table of the service is tens of rows and a handful of columns. */
    public static final int MAX_ROWS = 2_000;
    public static final int MAX_COLUMNS = 100;
    public static final int MAX_CELL_CHARS = 4_096;

    private TableGrid() {
    }

    /** The table's view: {@code cells} (every line), {@code notes} and {@code tables} (columns and data rows). */
    public static Map<String, Object> view(String file, byte[] content) {
        DecisionTable parsed = DecisionTable.parse(file, content);
        List<List<String>> cells = new ArrayList<>();
        String notes = null;
        for (String line : new String(content, StandardCharsets.UTF_8).split("\r?\n", -1)) {
            List<String> row = new org.drools.decisiontable.parser.csv.CsvLineParser().parse(line);
            cells.add(row);
            if (!row.isEmpty() && row.get(0).trim().equals("Notes") && row.size() > 1 && notes == null) {
                notes = row.get(1);
            }
        }
        while (!cells.isEmpty() && cells.get(cells.size() - 1).stream().allMatch(String::isBlank)) {
            cells.remove(cells.size() - 1);
        }
        List<Map<String, Object>> tables = new ArrayList<>();
        for (DecisionTable.Table table : parsed.tables()) {
            List<Map<String, Object>> columns = new ArrayList<>();
            for (int c = 0; c < table.kinds().size(); c++) {
                Map<String, Object> column = new LinkedHashMap<>();
                column.put("column", c + 1);
                column.put("kind", table.kind(c));
                column.put("header", table.headers().cell(c));
                column.put("objectType", table.objectTypes().cell(c));
                column.put("code", table.code().cell(c));
                List<String> allowed = table.kind(c).equals("CONDITION") ? TableLint.allowedValues(parsed, table, c) : null;
                if (allowed != null) {
                    column.put("allowed", allowed);
                }
                columns.add(column);
            }
            List<Integer> names = table.columnsOf("NAME");
            List<Map<String, Object>> rows = new ArrayList<>();
            for (DecisionTable.Row row : table.rows()) {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("row", row.number());
                r.put("name", names.isEmpty() ? null : row.cell(names.get(0)));
                r.put("cells", row.cells());
                rows.add(r);
            }
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("name", table.name());
            t.put("row", table.nameRow());
            t.put("headerRow", table.headers().number());
            t.put("columns", columns);
            t.put("rows", rows);
            tables.add(t);
        }
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("notes", notes);
        view.put("cells", cells);
        view.put("tables", tables);
        return view;
    }

    /** Problems of a CSV body before it is read as a table: not UTF-8, a line with a quote left open, too large. */
    public static List<Problem> shapeProblems(byte[] content) {
        ByteBuffer in = ByteBuffer.wrap(content);
        CharBuffer text = CharBuffer.allocate(content.length); // UTF-8 never decodes to more chars than bytes
        if (StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(in, text, true).isError()) {
            int at = in.position();
            int row = 1 + (int) IntStream.range(0, at).filter(i -> content[i] == '\n').count();
            return List.of(new Problem("row " + row, "the table is not UTF-8 text (an invalid byte at offset " + at + ")", row, null));
        }
        String[] lines = text.flip().toString().split("\r?\n", -1);
        if (lines.length > MAX_ROWS + 1) {
            return List.of(new Problem("row " + (MAX_ROWS + 1), "the table has " + lines.length + " rows; at most " + MAX_ROWS,
                    MAX_ROWS + 1, null));
        }
        List<Problem> problems = new ArrayList<>();
        for (int i = 0; i < lines.length && problems.size() < 20; i++) {
            String line = lines[i];
            int row = i + 1;
            if (line.length() > MAX_COLUMNS * (MAX_CELL_CHARS + 3)) {
                problems.add(new Problem("row " + row, "row " + row + " is " + line.length() + " characters long", row, null));
                continue;
            }
            if (cellProblems(row, new org.drools.decisiontable.parser.csv.CsvLineParser().parse(line), false, problems)
                    && quoteLeftOpen(line)) {
                problems.add(new Problem("row " + row, "row " + row + " leaves a quoted cell open (a cell cannot span lines)",
                        row, null));
            }
        }
        return problems;
    }

    /** A grid of cells (a JSON body's {@code cells}) written as CSV: a cell with a comma or a quote is quoted. */
    public static byte[] toCsv(List<List<String>> cells) {
        StringBuilder csv = new StringBuilder();
        for (List<String> row : cells) {
            for (int c = 0; c < row.size(); c++) {
                if (c > 0) {
                    csv.append(',');
                }
                String cell = row.get(c) == null ? "" : row.get(c);
                if (cell.contains(",") || cell.contains("\"") || cell.startsWith(" ") || cell.endsWith(" ")) {
                    csv.append('"').append(cell.replace("\"", "\"\"")).append('"');
                } else {
                    csv.append(cell);
                }
            }
            csv.append('\n');
        }
        return csv.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Problems of a grid before it is written: a cell across lines, too many rows, columns or characters. */
    public static List<Problem> gridProblems(List<List<String>> cells) {
        List<Problem> problems = new ArrayList<>();
        if (cells.size() > MAX_ROWS) {
            return List.of(new Problem("row " + (MAX_ROWS + 1), "the table has " + cells.size() + " rows; at most " + MAX_ROWS,
                    MAX_ROWS + 1, null));
        }
        for (int r = 0; r < cells.size() && problems.size() < 20; r++) {
            cellProblems(r + 1, cells.get(r), true, problems);
        }
        return problems;
    }

    /**
     * The problems of row {@code row}'s cells: too many columns, else each cell too long or (when {@code oneLine}) across
     * lines. False when the row has too many columns to look at its cells.
     */
    private static boolean cellProblems(int row, List<String> cells, boolean oneLine, List<Problem> problems) {
        if (cells.size() > MAX_COLUMNS) {
            problems.add(new Problem("row " + row + ", column " + (MAX_COLUMNS + 1), "row " + row + " has " + cells.size()
                    + " columns; at most " + MAX_COLUMNS, row, MAX_COLUMNS + 1));
            return false;
        }
        for (int c = 0; c < cells.size(); c++) {
            String cell = cells.get(c) == null ? "" : cells.get(c);
            if (cell.length() > MAX_CELL_CHARS) {
                problems.add(new Problem("row " + row + ", column " + (c + 1), "the cell holds " + cell.length()
                        + " characters; at most " + MAX_CELL_CHARS, row, c + 1));
            } else if (oneLine && (cell.contains("\n") || cell.contains("\r"))) {
                problems.add(new Problem("row " + row + ", column " + (c + 1), "a cell cannot span lines", row, c + 1));
            }
        }
        return true;
    }

    /** An odd number of quotes: a doubled quote inside a quoted cell counts twice. */
    private static boolean quoteLeftOpen(String line) {
        return line.chars().filter(c -> c == '"').count() % 2 == 1;
    }
}
