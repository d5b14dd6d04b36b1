package io.arbiter.engine;

import org.drools.decisiontable.parser.csv.CsvLineParser;
import org.drools.drl.ast.descr.AttributeDescr;
import org.drools.drl.ast.descr.PackageDescr;
import org.drools.drl.ast.descr.RuleDescr;
import org.drools.drl.parser.DroolsParserException;
import org.kie.api.io.ResourceType;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Where each rule of a rule base is written: its file, the line of a DRL rule or the row of a decision table, and
 * its phase (ruleflow group). A firing names only its rule; this is what lets a reader find the rule behind it.
 * The compiled rule base keeps no source, so the files are parsed again (once per rule set, when asked).
 */
public final class RuleSources {

    /**
     * @param rule  {@code package.name}, as a firing's {@code rule}; written with {@code name} and {@code package}
     * @param file  {@code rules/<folder>/<file>.drl} or {@code decision-tables/<folder>/<file>.drl.csv}
     * @param line  the 1-based line of a DRL rule, else null
     * @param row   the 1-based line of a decision table's row (a CSV table), else null
     */
    public record RuleSource(String rule, String name,
                             @com.fasterxml.jackson.annotation.JsonProperty("package") String packageName,
                             String phase, String file, Integer line, Integer row) {
    }

    private RuleSources() {
    }

    /** The rules declared by {@code files} (as {@link RuleBaseBuilder#collect} names them), in file order. */
    public static List<RuleSource> of(List<RuleBaseBuilder.RuleFile> files) {
        List<RuleSource> sources = new ArrayList<>();
        for (RuleBaseBuilder.RuleFile file : files) {
            boolean table = file.type() == ResourceType.DTABLE;
            String display = (table ? "decision-tables/" : "rules/") + file.name();
            PackageDescr descr;
            try {
                descr = RuleBaseBuilder.packageOf(file);
            } catch (DroolsParserException | RuntimeException e) {
                continue; // it compiled into the live rule base, so it parses; a file that does not declares nothing here
            }
            if (descr == null) {
                continue;
            }
            List<String> csvLines = table && file.name().endsWith(".csv")
                    ? new String(file.content(), StandardCharsets.UTF_8).lines().toList() : List.of();
            for (RuleDescr rule : descr.getRules()) {
                if (rule.isQuery()) {
                    continue;
                }
                AttributeDescr group = rule.getAttributes().getOrDefault("ruleflow-group",
                        rule.getAttributes().get("agenda-group"));
                String packageName = descr.getNamespace();
                sources.add(new RuleSource(packageName + "." + rule.getName(), rule.getName(), packageName,
                        group == null ? null : group.getValue(), display, table ? null : rule.getLine(),
                        table ? rowOf(csvLines, rule.getName()) : null));
            }
        }
        return sources;
    }

    /** The line of the table row whose NAME cell is {@code name}: the column headed {@code NAME} after a RuleTable line. */
    static Integer rowOf(List<String> lines, String name) {
        int nameColumn = -1;
        for (int i = 0; i < lines.size(); i++) {
            List<String> cells = cells(lines.get(i));
            if (nameColumn < 0) {
                nameColumn = cells.indexOf("NAME");
            } else if (nameColumn < cells.size() && cells.get(nameColumn).equals(name)) {
                return i + 1;
            }
        }
        return null;
    }

    /** The cells of one CSV line, trimmed, as Drools reads a CSV table's line. */
    static List<String> cells(String line) {
        return new CsvLineParser().parse(line).stream().map(String::trim).toList();
    }
}
