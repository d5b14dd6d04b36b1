package io.arbiter.engine;

import io.arbiter.decision.implementation.ImplementationDecider;
import io.arbiter.testing.RuleTestSupport;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The build-time kjar of a rule base is named by the content it was built from, and loads to the same rules. */
class PrecompiledRuleBaseTest {

    @Test
    void aPrecompiledKjarIsNamedByContentAndHoldsTheSameRules() {
        List<RuleBaseBuilder.RuleFile> files = RuleTestSupport.files(ImplementationDecider.KIND);
        CompiledRuleBase fromSource = RuleTestSupport.ruleBase(ImplementationDecider.KIND, ImplementationDecider.ALL_PHASES);

        byte[] kjar = RuleBaseBuilder.precompile("capact.implementation", files);
        String resource = RuleBaseBuilder.precompiledResource("capact.implementation", files);

        assertTrue(kjar.length > 1000);
        assertEquals("precompiled/capact.implementation-" + fromSource.revision() + ".kjar", resource);
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
