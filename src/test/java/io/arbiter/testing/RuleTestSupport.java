package io.arbiter.testing;

import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.engine.FiredRule;
import io.arbiter.runtime.SnapshotLoader;
import io.arbiter.engine.RuleBaseBuilder;
import io.arbiter.policytype.PolicyType;
import io.arbiter.policytype.PolicyTypeRegistry;
import org.kie.api.runtime.KieSession;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The project's rule test support: builds a rule base from the project's {@code rules/<kind>/} and
 * {@code decision-tables/<kind>/} on disk, fires it with a recording listener, and asserts on the firings.
 */
public final class RuleTestSupport {

    public static final Path RULES = Path.of("rules");
    public static final Path TABLES = Path.of("decision-tables");
    /**
     * Where Drools' compiler logs the errors of a rule base that does not compile (at ERROR), besides returning them
     * in its results, which {@link RuleBaseBuilder} reports with each file's name: for {@link LogCapture}.
     */
    public static final String DROOLS_COMPILE_LOG = "org.drools.compiler.kie.builder.impl.KieProject";

    private RuleTestSupport() {
    }

    /**
     * The project's rule base for a decision kind, named by its policy type: the packaged kjar, and the very rule base a
     * server in this JVM decides with ({@link RuleBaseBuilder#build} keeps one per content).
     */
    public static CompiledRuleBase ruleBase(String kind, List<String> phases) {
        return RuleBaseBuilder.build(typeOf(kind).name(), files(kind), phases);
    }

    /** The files of the registered policy type whose rules live in {@code rules/<kind>/}, with any shared folders. */
    public static List<RuleBaseBuilder.RuleFile> files(String kind) {
        return SnapshotLoader.ruleFiles(typeOf(kind), RULES, TABLES);
    }

    private static PolicyType typeOf(String kind) {
        return PolicyTypeRegistry.discover().types().stream()
                .filter(t -> t.ruleSet().folders().contains(kind)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no policy type keeps its rules in rules/" + kind));
    }

    /** Fires the facts and returns what {@code reader} read, plus the firings. */
    public static <T> CompiledRuleBase.Run<T> fire(CompiledRuleBase ruleBase, Collection<?> facts,
                                                   Function<KieSession, T> reader) {
        return ruleBase.run(facts, reader);
    }

    public static List<String> names(List<FiredRule> fired) {
        return fired.stream().map(RuleTestSupport::name).toList();
    }

    /** A firing's rule name without its package (every rule package of the project is {@code io.arbiter.rules.<kind>}). */
    public static String name(FiredRule fired) {
        return name(fired.rule());
    }

    /** {@code rule} (qualified, as firings give it) without its package. */
    public static String name(String rule) {
        return rule.substring(packageOf(rule).length() + 1);
    }

    public static String packageOf(FiredRule fired) {
        return packageOf(fired.rule());
    }

    private static String packageOf(String rule) {
        java.util.regex.Matcher matcher = java.util.regex.Pattern.compile("^io\\.arbiter\\.rules\\.[a-z]+").matcher(rule);
        if (!matcher.find()) {
            throw new AssertionError("not a rule of the project's packages: " + rule);
        }
        return matcher.group();
    }

    public static void assertFired(List<FiredRule> fired, String rule) {
        assertTrue(names(fired).contains(rule), () -> "expected rule '" + rule + "' to fire; fired: " + names(fired));
    }

    public static void assertFiredTimes(List<FiredRule> fired, String rule, int times) {
        assertEquals(times, names(fired).stream().filter(rule::equals).count(),
                () -> "rule '" + rule + "' fired count; fired: " + names(fired));
    }

    public static void assertNotFired(List<FiredRule> fired, String rule) {
        assertFalse(names(fired).contains(rule), () -> "expected rule '" + rule + "' not to fire; fired: " + names(fired));
    }

    /** Asserts that {@code first} fired (its first firing) before {@code second} (its first firing). */
    public static void assertFiredBefore(List<FiredRule> fired, String first, String second) {
        List<String> names = names(fired);
        assertFired(fired, first);
        assertFired(fired, second);
        assertTrue(names.indexOf(first) < names.indexOf(second),
                () -> "expected '" + first + "' before '" + second + "'; fired: " + names);
    }
}
