package io.arbiter.analysis;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.document.Documents;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/** Renders lint findings: text for people, JSON for scripts, SARIF 2.1.0 for code-review tools. */
public final class LintOutput {

    public enum Format { TEXT, JSON, SARIF }

    private LintOutput() {
    }

    /**
     * Grouped by file; each finding with its location, the offending line and a caret under its column.
     * {@code lines} gives a file's lines (null when it cannot be read).
     */
    public static String text(List<Finding> findings, Function<String, List<String>> lines) {
        StringBuilder out = new StringBuilder();
        Map<String, List<Finding>> byFile = new LinkedHashMap<>();
        findings.forEach(finding -> byFile.computeIfAbsent(String.valueOf(finding.file()), f -> new java.util.ArrayList<>()).add(finding));
        for (Map.Entry<String, List<Finding>> entry : byFile.entrySet()) {
            String file = entry.getKey();
            List<String> text = lines.apply(file);
            out.append(file).append('\n');
            for (Finding finding : entry.getValue()) {
                out.append("  ").append(finding.line() == null ? "" : finding.line() + ":" + (finding.column() == null ? "" : finding.column() + ":"))
                        .append(finding.line() == null ? "" : " ")
                        .append(finding.severity().label()).append(" [").append(finding.code()).append("] ");
                if (!finding.path().startsWith("row ")) {
                    out.append(finding.path()).append(": ");
                }
                out.append(finding.problem()).append('\n');
                if (text != null && finding.line() != null && finding.line() >= 1 && finding.line() <= text.size()) {
                    String line = text.get(finding.line() - 1);
                    out.append("    | ").append(line).append('\n');
                    int caret = finding.column() == null ? -1 : file.endsWith(".csv")
                            ? DecisionTable.offsetOfColumn(line, finding.column()) : finding.column() - 1;
                    if (caret >= 0) {
                        out.append("    | ").append(" ".repeat(Math.min(caret, line.length()))).append("^\n");
                    }
                }
            }
        }
        long errors = findings.stream().filter(Finding::isError).count();
        long warnings = findings.size() - errors;
        out.append(errors == 0 ? "valid" : "invalid").append(": ").append(errors).append(" error(s), ")
                .append(warnings).append(" warning(s)\n");
        return out.toString();
    }

    /** {@code {"valid": bool, "problems": [{"severity", "code", "path", "line", "column", "problem", "file"}]}}. */
    public static ObjectNode json(List<Finding> findings) {
        ObjectNode root = Documents.jsonMapper().createObjectNode();
        root.put("valid", findings.stream().noneMatch(Finding::isError));
        ArrayNode problems = root.putArray("problems");
        findings.forEach(finding -> problems.add(Documents.jsonMapper().valueToTree(finding)));
        return root;
    }

    /** SARIF 2.1.0: one run of the tool {@code arbiter lint}, a reporting rule per finding code. */
    public static ObjectNode sarif(List<Finding> findings) {
        ObjectNode root = Documents.jsonMapper().createObjectNode();
        root.put("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
        root.put("version", "2.1.0");
        ObjectNode run = root.putArray("runs").addObject();
        ObjectNode driver = run.putObject("tool").putObject("driver");
        driver.put("name", "arbiter lint");
        driver.put("informationUri", "https://github.com/arbiter/arbiter/blob/main/docs/lint.md");
        Set<String> codes = new LinkedHashSet<>();
        findings.forEach(finding -> codes.add(finding.code()));
        ArrayNode rules = driver.putArray("rules");
        codes.forEach(code -> rules.addObject().put("id", code));
        ArrayNode results = run.putArray("results");
        for (Finding finding : findings) {
            ObjectNode result = results.addObject();
            result.put("ruleId", finding.code());
            result.put("level", finding.isError() ? "error" : "warning");
            result.putObject("message").put("text", finding.problem());
            ObjectNode location = result.putArray("locations").addObject();
            if (finding.file() != null) {
                ObjectNode physical = location.putObject("physicalLocation");
                physical.putObject("artifactLocation").put("uri", finding.file());
                if (finding.line() != null) {
                    ObjectNode region = physical.putObject("region");
                    region.put("startLine", finding.line());
                    if (finding.column() != null) {
                        region.put("startColumn", finding.column());
                    }
                }
            }
            location.putArray("logicalLocations").addObject().put("fullyQualifiedName", finding.path());
        }
        return root;
    }
}
