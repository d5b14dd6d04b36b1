package io.arbiter.runtime;

import io.arbiter.engine.RuleBaseBuilder;
import io.arbiter.policytype.PolicyType;
import io.arbiter.policytype.PolicyTypeRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Build step ({@code process-classes}, before the tests): compiles each registered policy type's packaged rules and
 * tables into a kjar under {@code <classes>/precompiled/}, named by the content revision of the files it was built
 * from and the Drools version that compiled them, and keeps one already so named. Silent when it succeeds, so that
 * {@code mvn -q} prints nothing ({@code ARBITER_LOG_LEVEL=DEBUG} names the kjars it writes); a failure is a stack
 * trace and a failed build.
 */
public final class PrecompileRules {

    private static final Logger LOG = LoggerFactory.getLogger(PrecompileRules.class);

    private PrecompileRules() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: PrecompileRules <classes directory>");
            System.exit(2);
        }
        Path classes = Path.of(args[0]);
        Path out = Files.createDirectories(classes.resolve("precompiled"));
        Set<Path> current = new HashSet<>();
        for (PolicyType type : PolicyTypeRegistry.discover().types()) {
            List<RuleBaseBuilder.RuleFile> files = SnapshotLoader.ruleFiles(type, classes.resolve("rules"),
                    classes.resolve("decision-tables"));
            Path kjar = classes.resolve(RuleBaseBuilder.precompiledResource(type.name(), files));
            current.add(kjar);
            // named by the content revision of its files: one that exists was built from exactly these files
            if (!Files.exists(kjar)) {
                Files.write(kjar, RuleBaseBuilder.precompile(type.name(), files));
                LOG.debug("precompiled {} -> {} ({} bytes)", type.name(), classes.relativize(kjar), Files.size(kjar));
            }
        }
        // kjars of earlier files would never be used (their names carry another revision), but would be packaged
        try (var stale = Files.list(out)) {
            for (Path kjar : stale.filter(file -> file.toString().endsWith(".kjar") && !current.contains(file)).toList()) {
                Files.delete(kjar);
            }
        }
        System.exit(0);
    }
}
