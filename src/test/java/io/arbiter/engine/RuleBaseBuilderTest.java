package io.arbiter.engine;

import ch.qos.logback.classic.Level;
import io.arbiter.decision.implementation.ImplementationDecider;
import io.arbiter.decision.implementation.ImplementationDecision;
import io.arbiter.decision.implementation.ImplementationFacts.Outcome;
import io.arbiter.decision.implementation.ImplementationRequest;
import io.arbiter.decision.Settings;
import io.arbiter.decision.Snapshot;
import io.arbiter.model.Ref;
import io.arbiter.testing.Fixtures;
import io.arbiter.testing.LogCapture;
import io.arbiter.testing.RuleTestSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Loading rules and tables fails loudly instead of silently producing an empty or partial rule base. */
class RuleBaseBuilderTest {

    private static final Path RULES = RuleTestSupport.RULES.resolve("implementation");
    private static final Path TABLES = RuleTestSupport.TABLES.resolve("implementation");
    private static final String TABLE = "rule-key-precedence.drl.csv";

    @TempDir
    Path temp;

    @RegisterExtension
    final LogCapture droolsLog = LogCapture.of(RuleTestSupport.DROOLS_COMPILE_LOG);

    @Test
    void tableNotNamedDrlCsvIsRefusedWithTheReason() throws IOException {
        Path tables = Files.createDirectories(temp.resolve("tables"));
        Files.copy(TABLES.resolve(TABLE), tables.resolve("rule-key-precedence.csv"));

        RuleBaseException e = assertThrows(RuleBaseException.class, () -> RuleBaseBuilder.collect(RULES, tables));

        assertTrue(e.getMessage().contains("rule-key-precedence.csv"), e.getMessage());
        assertTrue(e.getMessage().contains("*.drl.csv"), e.getMessage());
    }

    @Test
    void tableThatYieldsNoRulesIsRefused() throws IOException {
        Path tables = Files.createDirectories(temp.resolve("tables"));
        Files.writeString(tables.resolve("empty.drl.csv"), "RuleSet,io.arbiter.rules.implementation\n");

        RuleBaseException e = assertThrows(RuleBaseException.class,
                () -> RuleBaseBuilder.build("implementation", RULES, tables, ImplementationDecider.PHASES));

        assertTrue(e.getMessage().contains("empty.drl.csv"), e.getMessage());
        assertTrue(e.getMessage().contains("no rules"), e.getMessage());
    }

    @Test
    void emptyRuleFolderIsRefused() throws IOException {
        Path none = Files.createDirectories(temp.resolve("none"));

        RuleBaseException e = assertThrows(RuleBaseException.class,
                () -> RuleBaseBuilder.build("implementation", none, none, ImplementationDecider.PHASES));

        assertTrue(e.getMessage().contains("no rule files"), e.getMessage());
    }

    @Test
    void drlThatDoesNotCompileNamesTheFile() throws IOException {
        Path rules = Files.createDirectories(temp.resolve("rules"));
        Files.writeString(rules.resolve("broken.drl"), "package x;\nrule \"broken\" when Nonsense( then end\n");

        RuleBaseException e = assertThrows(RuleBaseException.class,
                () -> RuleBaseBuilder.build("broken", rules, temp.resolve("no-tables"), List.of()));

        assertTrue(e.getMessage().contains("broken.drl"), e.getMessage());
        String error = "mismatched input 'end' in rule \"broken\"";
        assertTrue(e.getMessage().contains(error), e.getMessage());
        // Drools logs the same error, without the file's name
        droolsLog.await(Level.ERROR, error);
    }

    private static final String TWO_PHASE_RULES = """
            package io.arbiter.rules.phases;
            rule "first rule"
                ruleflow-group "first"
            when
                String()
            then
            end
            rule "stray rule"
                ruleflow-group "frist"
            when
                Integer()
            then
            end
            """;

    @Test
    void ruleInAGroupThatIsNoPhaseIsRefusedWithTheRuleNamed() throws IOException {
        Path rules = Files.createDirectories(temp.resolve("rules"));
        Files.writeString(rules.resolve("phases.drl"), TWO_PHASE_RULES);

        RuleBaseException e = assertThrows(RuleBaseException.class,
                () -> RuleBaseBuilder.build("phases", rules, temp.resolve("no-tables"), List.of("first")));

        assertTrue(e.getMessage().contains("rule 'stray rule' in phases.drl is in ruleflow-group 'frist'"), e.getMessage());
        assertTrue(!e.getMessage().contains("'first rule'"), e.getMessage());
    }

    @Test
    void phaseWithoutARuleIsRefusedWithThePhaseNamed() throws IOException {
        Path rules = Files.createDirectories(temp.resolve("rules"));
        Files.writeString(rules.resolve("phases.drl"), TWO_PHASE_RULES);

        RuleBaseException e = assertThrows(RuleBaseException.class,
                () -> RuleBaseBuilder.build("phases", rules, temp.resolve("no-tables"), List.of("first", "frist", "second")));

        assertEquals("the rule base 'phases' does not match its phases:\n"
                + "  phase 'second' of 'phases' has no rule (no rule has ruleflow-group \"second\")", e.getMessage());
    }

    @Test
    void everyPackagedRuleBaseMatchesItsPhases() {
        for (var type : io.arbiter.policytype.PolicyTypeRegistry.discover().types()) {
            RuleBaseBuilder.build(type.name(), io.arbiter.runtime.SnapshotLoader.ruleFiles(type, null, null),
                    type.ruleSet().phases());
        }
    }

    /** The implementation rule files with the precedence table's content replaced. */
    private static List<RuleBaseBuilder.RuleFile> withTable(String content) {
        return RuleTestSupport.files("implementation").stream()
                .map(file -> file.name().endsWith(TABLE) ? new RuleBaseBuilder.RuleFile(file.name(), content.getBytes(), file.type()) : file)
                .toList();
    }

    @Test
    void reorderingThePrecedenceTableChangesTheDecision() throws IOException {
        String table = Files.readString(TABLES.resolve(TABLE))
                .replace("Exact path and revision,rule-key,PATH_REVISION,1", "Exact path and revision,rule-key,PATH_REVISION,3")
                .replace("Catch-all cap.*,rule-key,ANY,3", "Catch-all cap.*,rule-key,ANY,1");
        CompiledRuleBase reordered = RuleBaseBuilder.build("implementation", withTable(table), ImplementationDecider.PHASES);
        var policy = Fixtures.policy("""
                interface:
                  default:
                    inject:
                      requiredTypeInstances: [{id: c268d3f5-8834-434b-bea2-b677793611c5}]
                  rules:
                    - interface: {path: cap.interface.database.postgresql.install, revision: 0.1.0}
                      oneOf: []
                    - interface: {path: cap.*}
                      oneOf: [{implementationConstraints: {}}]
                """);
        var request = ImplementationRequest.forInterface(new Ref("cap.interface.database.postgresql.install", "0.1.0"));

        ImplementationDecision standard = ImplementationDecider.decide(request, Fixtures.snapshot(policy));
        ImplementationDecision swapped = ImplementationDecider.decide(request, new Snapshot(policy,
                Map.of(io.arbiter.decision.implementation.ImplementationPolicyType.NAME, reordered), Fixtures.embeddedCatalog(), Fixtures.embeddedStore(),
                Settings.DEFAULT_PLATFORM));

        assertEquals(Outcome.DENIED, standard.outcome());
        assertEquals(Outcome.SELECTED, swapped.outcome());
        assertEquals("cap.*", swapped.rule().interfaceRef().path());
    }

    @Test
    void revisionChangesWithContentAndRuleNamesAreListed() throws IOException {
        CompiledRuleBase original = RuleTestSupport.ruleBase(ImplementationDecider.KIND, ImplementationDecider.PHASES);
        CompiledRuleBase changed = RuleBaseBuilder.build("implementation",
                withTable(Files.readString(TABLES.resolve(TABLE)) + "Second catch-all,rule-key,ANY,4\n"), ImplementationDecider.PHASES);

        assertTrue(!original.revision().equals(changed.revision()));
        assertTrue(original.ruleNames().contains("io.arbiter.rules.implementation.Catch-all cap.*"), original.ruleNames().toString());
    }
}
