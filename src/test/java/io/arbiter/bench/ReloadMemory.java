package io.arbiter.bench;

import io.arbiter.runtime.SnapshotLoader;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.engine.RuleBaseBuilder;
import io.arbiter.policytype.PolicyType;
import io.arbiter.policytype.PolicyTypeRegistry;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Heap after a full GC over repeated rule reloads: each reload compiles a type's packaged rules with one changed
 * comment (a new revision, as an edited rule file gives) and drops the previous rule base, as a snapshot swap does.
 * Flat numbers mean a released rule base leaves nothing behind (in Drools' global KieRepository, say).
 * <p>
 * {@code bash bench/reload-memory.sh [reloads] [every] [type]} (defaults 500, 50, test.greeting: the plugin type's
 * small rule base keeps a run to minutes; a built-in type such as capact.backend takes seconds a reload).
 */
public final class ReloadMemory {

    private ReloadMemory() {
    }

    public static void main(String[] args) {
        int reloads = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        int every = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        String typeName = args.length > 2 ? args[2] : "test.greeting";
        PolicyType type = PolicyTypeRegistry.discover().types().stream()
                .filter(candidate -> candidate.name().equals(typeName)).findFirst().orElseThrow();
        List<RuleBaseBuilder.RuleFile> files = SnapshotLoader.ruleFiles(type, null, null);
        RuleBaseBuilder.RuleFile first = files.stream()
                .filter(file -> file.name().endsWith(".drl")).findFirst().orElseThrow();
        CompiledRuleBase live = null;
        System.out.printf("reloads heap-after-gc-MiB (type %s)%n", typeName);
        System.out.printf("%7d %8.1f%n", 0, heapAfterGc());
        for (int reload = 1; reload <= reloads; reload++) {
            List<RuleBaseBuilder.RuleFile> changed = new ArrayList<>();
            for (RuleBaseBuilder.RuleFile file : files) {
                changed.add(file != first ? file : new RuleBaseBuilder.RuleFile(file.name(),
                        (new String(file.content(), StandardCharsets.UTF_8) + "\n// reload " + reload + "\n")
                                .getBytes(StandardCharsets.UTF_8), file.type()));
            }
            live = RuleBaseBuilder.build(type.name(), changed, type.ruleSet().phases());
            if (reload % every == 0) {
                System.out.printf("%7d %8.1f%n", reload, heapAfterGc());
            }
        }
        System.out.println("live rule base: " + live.revision());
    }

    private static double heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / (1024.0 * 1024.0);
    }
}
