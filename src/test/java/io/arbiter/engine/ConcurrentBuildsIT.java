package io.arbiter.engine;

import io.arbiter.policytype.PolicyType;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.runtime.SnapshotLoader;
import io.arbiter.testing.TestFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two builds of one rule base at once (a reload while a refused load's other types still compile, say) each compile
 * their own files. When both wrote their files to the same paths, Drools' compiler could
 * hand one build the other's rules: the rollout rules with a situation row dropped compiled to the full table, and
 * so passed the check that refuses them, in about a third of such pairs. Each pair here races once; six pairs missed
 * that defect with a chance under one in ten.
 */
class ConcurrentBuildsIT {

    @TempDir
    Path temp;

    @Test
    void twoBuildsOfOneRuleBaseAtOnceEachCompileTheirOwnFiles() throws Exception {
        PolicyType rollout = PolicyTypeRegistry.discover().types().stream()
                .filter(type -> type.name().equals("ocm.rollout")).findFirst().orElseThrow();
        List<RuleBaseBuilder.RuleFile> files = SnapshotLoader.ruleFiles(rollout, null, null);
        Path rules = TestFiles.copyTree(Path.of("rules"), temp.resolve("rules"));
        Path tables = TestFiles.copyTree(Path.of("decision-tables"), temp.resolve("decision-tables"));
        TestFiles.dropRow(tables.resolve("rollout/cluster-situation.drl.csv"),
                "Any other record in neither list was rolled out before");
        List<RuleBaseBuilder.RuleFile> cut = SnapshotLoader.ruleFiles(rollout, rules, tables);
        int fullRules = rulesIn(RuleBaseBuilder.precompile(rollout.name(), files));

        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int pair = 0; pair < 6; pair++) {
                Future<byte[]> full = pool.submit(() -> RuleBaseBuilder.precompile(rollout.name(), files));
                // content of its own each pair: rule bases are kept per content, and this one must compile every time
                List<RuleBaseBuilder.RuleFile> cutAgain = withComment(cut, "// pair " + pair);
                Future<RuleBaseException> refused = pool.submit(() -> assertThrows(RuleBaseException.class,
                        () -> rollout.buildRuleBase(cutAgain), "the rules without the row are refused"));

                assertTrue(refused.get().getMessage().contains("in neither list as Progressing"), refused.get().getMessage());
                assertEquals(fullRules, rulesIn(full.get()), "the full rules keep every row");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static List<RuleBaseBuilder.RuleFile> withComment(List<RuleBaseBuilder.RuleFile> files, String comment) {
        List<RuleBaseBuilder.RuleFile> changed = new java.util.ArrayList<>(files);
        int drl = java.util.stream.IntStream.range(0, files.size())
                .filter(i -> files.get(i).name().endsWith(".drl")).findFirst().orElseThrow();
        RuleBaseBuilder.RuleFile file = files.get(drl);
        changed.set(drl, new RuleBaseBuilder.RuleFile(file.name(),
                (new String(file.content(), java.nio.charset.StandardCharsets.UTF_8) + "\n" + comment + "\n")
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8), file.type()));
        return changed;
    }

    private static int rulesIn(byte[] kjar) {
        return ExecutableModel.load("ocm.rollout", kjar).getKiePackages().stream().mapToInt(pkg -> pkg.getRules().size()).sum();
    }
}
