package io.arbiter.engine;

import io.arbiter.decision.implementation.ImplementationDecider;
import io.arbiter.testing.RuleTestSupport;
import org.junit.jupiter.api.Test;

import org.drools.base.definitions.rule.impl.RuleImpl;
import org.kie.api.KieBase;
import org.kie.api.definition.KiePackage;
import org.kie.api.definition.rule.Rule;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The build-time kjar of a rule base is named by the content it was built from, and loads to the same rules. */
class PrecompiledRuleBaseTest {

    @Test
    void aPrecompiledKjarIsNamedByContentAndHoldsTheSameRules() {
        List<RuleBaseBuilder.RuleFile> files = RuleTestSupport.files(ImplementationDecider.KIND);
        // compiled here, not loaded: a working tree that was packaged holds this revision's kjar on the classpath
        CompiledRuleBase fromSource = RuleBaseBuilder.build("capact.implementation", files,
                ImplementationDecider.PHASES, RuleBaseBuilder.check("capact.implementation", files));

        byte[] kjar = RuleBaseBuilder.precompile("capact.implementation", files);
        String resource = RuleBaseBuilder.precompiledResource("capact.implementation", files);

        assertEquals("precompiled/capact.implementation-" + fromSource.revision() + "-drools-"
                + org.drools.base.util.Drools.getFullVersion() + ".kjar", resource);
        assertEquals(rules(fromSource.kieBase()), rules(ExecutableModel.load("capact.implementation", kjar)));
    }

    /** Each rule by package and name, with what decides when it fires: its ruleflow group, salience and conditions (the
     * bindings they declare; the compiler's own generated names are numbered per build, so they do not count). */
    private static Map<String, String> rules(KieBase kieBase) {
        Map<String, String> rules = new TreeMap<>();
        for (KiePackage pkg : kieBase.getKiePackages()) {
            for (Rule rule : pkg.getRules()) {
                RuleImpl impl = (RuleImpl) rule;
                rules.put(pkg.getName() + "." + rule.getName(), impl.getRuleFlowGroup() + " salience "
                        + impl.getSalience() + " when " + impl.getLhs().getChildren().stream()
                        .map(element -> element.getClass().getSimpleName() + element.getInnerDeclarations().keySet()
                                .stream().filter(binding -> !binding.startsWith("GENERATED_")).sorted().toList())
                        .toList());
            }
        }
        return rules;
    }

    @Test
    void editedFilesGetAnotherRevisionSoAStaleKjarIsNeverUsed() {
        List<RuleBaseBuilder.RuleFile> files = RuleTestSupport.files(ImplementationDecider.KIND);
        RuleBaseBuilder.RuleFile first = files.get(0);
        List<RuleBaseBuilder.RuleFile> edited = new java.util.ArrayList<>(files);
        edited.set(0, new RuleBaseBuilder.RuleFile(first.name(), (new String(first.content()) + "\n// edited\n").getBytes(), first.type()));

        assertTrue(!RuleBaseBuilder.revisionOf(files).equals(RuleBaseBuilder.revisionOf(edited)));
    }
}
