package io.arbiter.decision;

import io.arbiter.decision.backend.BackendFacts;
import io.arbiter.decision.dependencies.DependencyFacts;
import io.arbiter.decision.implementation.ImplementationFacts;
import io.arbiter.decision.merge.PolicyMergeFacts;
import io.arbiter.decision.rollout.RolloutFacts;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Facts are records and mean what all their fields say: rules join them with {@code ==} (equals), so a record that
 * compared only some fields would make two different facts one. A record may hash fewer fields (a hash need not tell
 * facts apart, equals does), as {@code DependencyFacts.Template} does for speed.
 */
class FactRecordEqualityTest {

    @Test
    void noFactRecordOverridesEquals() {
        List<String> overriding = new ArrayList<>();
        for (Class<?> holder : List.of(DependencyFacts.class, RolloutFacts.class, BackendFacts.class,
                PolicyMergeFacts.class, ImplementationFacts.class)) {
            for (Class<?> type : holder.getDeclaredClasses()) {
                if (type.isRecord() && declares(type, "equals", Object.class)) {
                    overriding.add(type.getName() + ".equals");
                }
            }
        }
        assertEquals(List.of(), overriding);
    }

    @Test
    void factsDifferingInAnyFieldAreDifferent() {
        var template = new DependencyFacts.Template(0, 0, "t", "ConfigurationPolicy", false, false, null);
        assertNotEquals(template, new DependencyFacts.Template(0, 0, "t", "CertificatePolicy", false, false, null));
        assertNotEquals(template, new DependencyFacts.Template(0, 0, "t", "ConfigurationPolicy", true, false, null));
        assertNotEquals(template, new DependencyFacts.Template(0, 0, "u", "ConfigurationPolicy", false, false, null));
        var cluster = new RolloutFacts.ClusterState("a", 0, 0, 0, 0, 0, RolloutFacts.Status.Succeeded, 1L);
        assertNotEquals(cluster, new RolloutFacts.ClusterState("a", 0, 0, 0, 0, 0, RolloutFacts.Status.Failed, 1L));
        var group = new RolloutFacts.Group(0, "g", 0, 3);
        assertNotEquals(group, new RolloutFacts.Group(0, "h", 0, 4));
        assertEquals(template, new DependencyFacts.Template(0, 0, "t", "ConfigurationPolicy", false, false, null));
        assertEquals(template.hashCode(),
                new DependencyFacts.Template(0, 0, "t", "ConfigurationPolicy", false, false, null).hashCode());
    }

    /** Written by hand: the compiler's own equals and hashCode of a record are final, a hand-written one need not be. */
    private static boolean declares(Class<?> type, String name, Class<?>... parameters) {
        try {
            return !java.lang.reflect.Modifier.isFinal(type.getDeclaredMethod(name, parameters).getModifiers());
        } catch (NoSuchMethodException e) {
            return false;
        }
    }
}
