package io.arbiter.decision;

import io.arbiter.runtime.SnapshotLoader;
import io.arbiter.engine.RuleBaseBuilder;
import io.arbiter.engine.RuleBaseException;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.testing.TestFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.kie.api.io.ResourceType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Start-up and reload refuse rules that would silently decide differently: a missing or empty rule or table
 * folder, a rule in a group its type never fires, a type left without rules. Each refusal names what is wrong.
 */
class ConfigurationFailsLoudlyTest {

    private static final PolicyTypeRegistry REGISTRY = PolicyTypeRegistry.discover();

    @TempDir
    Path temp;

    private Path rules;
    private Path tables;

    private void copyProjectRules() throws IOException {
        rules = TestFiles.copyTree(Path.of("rules"), temp.resolve("rules"));
        tables = TestFiles.copyTree(Path.of("decision-tables"), temp.resolve("decision-tables"));
        TestFiles.copyTree(Path.of("src/test/resources/rules"), rules);
        TestFiles.copyTree(Path.of("src/test/resources/decision-tables"), tables);
    }

    private static RuleBaseException refused(Path rulesRoot, Path tablesRoot) {
        Settings settings = Settings.embedded().withRules(rulesRoot, tablesRoot);
        return assertThrows(RuleBaseException.class, () -> SnapshotLoader.load(settings, REGISTRY));
    }

    @Test
    void aMissingDecisionTablesFolderIsRefusedByName() throws IOException {
        copyProjectRules();
        Path missing = temp.resolve("nonexistent");

        RuleBaseException e = refused(rules, missing);

        assertTrue(e.getMessage().contains(missing.toString()) && e.getMessage().contains("does not exist"), e.getMessage());
    }

    @Test
    void aMissingRulesFolderIsRefusedByName() throws IOException {
        copyProjectRules();
        Path missing = temp.resolve("nonexistent");

        RuleBaseException e = refused(missing, tables);

        assertTrue(e.getMessage().contains(missing.toString()) && e.getMessage().contains("does not exist"), e.getMessage());
    }

    @Test
    void anEmptyDecisionTablesFolderIsRefusedNamingTheTypesFolder() throws IOException {
        copyProjectRules();
        Path empty = Files.createDirectories(temp.resolve("empty"));

        RuleBaseException e = refused(rules, empty);

        assertTrue(e.getMessage().contains(empty.toString()) && e.getMessage().contains("is missing"), e.getMessage());
    }

    @Test
    void aTypeFolderWithoutTablesIsRefused() throws IOException {
        copyProjectRules();
        try (Stream<Path> files = Files.list(tables.resolve("implementation"))) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.writeString(tables.resolve("implementation/README.txt"), "tables go here\n");

        RuleBaseException e = refused(rules, tables);

        assertTrue(e.getMessage().contains(tables.resolve("implementation").toString()), e.getMessage());
        assertTrue(e.getMessage().contains("holds no *.drl.csv"), e.getMessage());
    }

    @Test
    void aRuleInAGroupThatIsNotAPhaseOfItsTypeIsRefusedByName() throws IOException {
        copyProjectRules();
        Files.writeString(rules.resolve("greeting/99-stray.drl"), """
                package io.arbiter.rules.greeting;
                rule "Stray rule in a group greetings never fire"
                ruleflow-group "farewell"
                when
                then
                end
                """);

        RuleBaseException e = refused(rules, tables);

        assertTrue(e.getMessage().contains("Stray rule in a group greetings never fire"), e.getMessage());
        assertTrue(e.getMessage().contains("'farewell'") && e.getMessage().contains("test.greeting"), e.getMessage());
        assertTrue(e.getMessage().contains("greeting/99-stray.drl"), e.getMessage());
    }

    @Test
    void aSituationTableThatLeavesAClusterWithoutASituationIsRefusedNamingWhere() throws IOException {
        copyProjectRules();
        TestFiles.dropRow(tables.resolve("rollout/cluster-situation.drl.csv"),
                "Any other record in neither list was rolled out before");

        RuleBaseException e = refused(rules, tables);

        assertTrue(e.getMessage().contains("'ocm.rollout'") && e.getMessage().contains("cluster-situation"), e.getMessage());
        for (String status : List.of("Progressing", "Succeeded", "Failed", "TimeOut")) {
            assertTrue(e.getMessage().contains("in neither list as " + status), e.getMessage());
        }
        // ToApply and Skip keep rows of their own, and a cluster without a record its own
        assertTrue(!e.getMessage().contains("as ToApply") && !e.getMessage().contains("as Skip")
                && !e.getMessage().contains("without a record"), e.getMessage());
    }

    @Test
    void aTreatmentTableThatLeavesASituationWithoutAStatusIsRefusedNamingWhen() throws IOException {
        copyProjectRules();
        TestFiles.dropRow(tables.resolve("rollout/cluster-treatment.drl.csv"), "Waiting otherwise gets the policy as is");

        RuleBaseException e = refused(rules, tables);

        assertTrue(e.getMessage().contains("'ocm.rollout'") && e.getMessage().contains("cluster-treatment"), e.getMessage());
        // only progressive enforcement keeps a row for a waiting cluster
        for (String missing : List.of("waiting its turn (All, remediationAction enforce)",
                "waiting its turn (All, remediationAction inform)", "waiting its turn (Progressive, remediationAction inform)")) {
            assertTrue(e.getMessage().contains(missing), e.getMessage());
        }
        assertTrue(!e.getMessage().contains("(Progressive, remediationAction enforce)")
                && !e.getMessage().contains("watched"), e.getMessage());
    }

    @Test
    void aRuleWithoutAGroupIsRefused() {
        var files = List.of(drl("ungrouped.drl", """
                package x;
                rule "No group"
                when
                then
                end
                """));

        RuleBaseException e = assertThrows(RuleBaseException.class, () -> RuleBaseBuilder.build("ungrouped", files, List.of("only")));

        assertTrue(e.getMessage().contains("'No group' in ungrouped.drl") && e.getMessage().contains("no ruleflow-group"), e.getMessage());
    }

    @Test
    void aTypeWithOnlyQueriesHasNoRulesAndIsRefused() {
        var files = List.of(drl("queries.drl", """
                package x;
                query "nothing"
                    String()
                end
                """));

        RuleBaseException e = assertThrows(RuleBaseException.class, () -> RuleBaseBuilder.build("queries-only", files, List.of("only")));

        assertTrue(e.getMessage().contains("queries-only") && e.getMessage().contains("no rules"), e.getMessage());
    }

    private static RuleBaseBuilder.RuleFile drl(String name, String text) {
        return new RuleBaseBuilder.RuleFile(name, text.getBytes(StandardCharsets.UTF_8), ResourceType.DRL);
    }
}
