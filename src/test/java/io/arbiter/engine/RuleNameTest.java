package io.arbiter.engine;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A rule's names, made once per rule. */
class RuleNameTest {

    @Test
    void aRuleIsQualifiedByItsPackage() {
        RuleName name = RuleName.of("io.arbiter.rules.x", "Catch-all cap.*");

        assertEquals("io.arbiter.rules.x.Catch-all cap.*", name.qualified());
        assertEquals("Catch-all cap.*", name.name());
        assertEquals("io.arbiter.rules.x", name.packageName());
    }

    @Test
    void theSameRuleGetsTheSameInstanceAndOtherRulesDiffer() {
        assertSame(RuleName.of("io.arbiter.rules.x", "First"), RuleName.of("io.arbiter.rules.x", "First"));
        assertNotEquals(RuleName.of("io.arbiter.rules.x", "First"), RuleName.of("io.arbiter.rules.y", "First"));
        // "a.b" + "c" and "a" + "b.c" qualify alike but are different rules
        assertNotEquals(RuleName.of("a.b", "c"), RuleName.of("a", "b.c"));
    }

    @Test
    void threadsAskingForANewRuleAtOnceGetOneInstance() throws Exception {
        var pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            java.util.List<java.util.concurrent.Future<RuleName>> asked = new java.util.ArrayList<>();
            for (int i = 0; i < 64; i++) {
                asked.add(pool.submit(() -> RuleName.of("io.arbiter.rules.race", "Asked at once")));
            }
            RuleName first = asked.get(0).get();
            for (var answer : asked) {
                assertSame(first, answer.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aRuleNeedsAPackageAndAName() {
        assertThrows(NullPointerException.class, () -> RuleName.of(null, "First"));
        assertThrows(NullPointerException.class, () -> RuleName.of("io.arbiter.rules.x", null));
    }
}
