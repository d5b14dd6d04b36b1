package io.arbiter.engine;

import io.arbiter.runtime.SnapshotLoader;
import io.arbiter.policytype.PolicyType;
import io.arbiter.policytype.PolicyTypeRegistry;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Where each rule is written: every rule of every packaged rule base has its file, phase, and line or table row. */
class RuleSourcesTest {

    private static Map<String, RuleSources.RuleSource> sources(String typeName) {
        PolicyType type = PolicyTypeRegistry.discover().type(typeName).orElseThrow();
        return RuleSources.of(SnapshotLoader.ruleFiles(type, null, null)).stream()
                .collect(Collectors.toMap(RuleSources.RuleSource::rule, Function.identity()));
    }

    @Test
    void aDrlRuleNamesItsFileLineAndPhase() throws IOException {
        var source = sources("capact.implementation")
                .get("io.arbiter.rules.implementation.Implementation matches a oneOf item when no reason rejects the trial");

        assertEquals("rules/implementation/20-matching.drl", source.file());
        assertEquals("matching", source.phase());
        assertNull(source.row());
        List<String> lines = Files.readAllLines(Path.of(source.file()));
        assertTrue(lines.get(source.line() - 1).startsWith("rule \"Implementation matches a oneOf item when no reason"), lines.get(source.line() - 1));
    }

    @Test
    void aTableRowNamesItsTableAndRow() throws IOException {
        var source = sources("capact.implementation").get("io.arbiter.rules.implementation.Catch-all cap.*");

        assertEquals("decision-tables/implementation/rule-key-precedence.drl.csv", source.file());
        assertEquals("rule-key", source.phase());
        assertNull(source.line());
        assertEquals("Catch-all cap.*,rule-key,ANY,3", Files.readAllLines(Path.of(source.file())).get(source.row() - 1));
    }

    @Test
    void everyRuleOfEveryPackagedRuleBaseHasASourceInOneOfItsPhases() {
        PolicyTypeRegistry registry = PolicyTypeRegistry.discover();
        for (PolicyType type : registry.types()) {
            var files = SnapshotLoader.ruleFiles(type, null, null);
            CompiledRuleBase base = RuleBaseBuilder.build(type.name(), files, type.ruleSet().phases());
            Map<String, RuleSources.RuleSource> sources = RuleSources.of(files).stream()
                    .collect(Collectors.toMap(RuleSources.RuleSource::rule, Function.identity()));
            for (String rule : base.ruleNames()) {
                if (sources.containsKey(rule)) {
                    assertTrue(type.ruleSet().phases().contains(sources.get(rule).phase()), rule);
                }
            }
            long rules = base.ruleNames().stream().filter(sources::containsKey).count();
            assertEquals(sources.size(), rules, type.name() + ": every source is a rule of the rule base");
            assertTrue(rules > 0, type.name());
        }
    }

    @Test
    void csvCellsKeepQuotedCommas() {
        assertEquals(List.of("a", "b, c", "say \"hi\"", ""), RuleSources.cells("a,\"b, c\",\"say \"\"hi\"\"\","));
        assertEquals(3, RuleSources.rowOf(List.of("RuleTable X", "NAME,CONDITION", "Row one,x"), "Row one"));
        assertNull(RuleSources.rowOf(List.of("NAME,CONDITION", "Row one,x"), "Row two"));
    }
}
