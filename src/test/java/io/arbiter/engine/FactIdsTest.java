package io.arbiter.engine;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A fact names itself by its {@link FactId} template; every fact type of the service has a template that works. */
class FactIdsTest {

    @FactId("group {index}")
    record Group(int index, String name) implements Fact {
    }

    @FactId("{group.factId} holds {cluster} ({clusters.size} in all), {missing}")
    record Member(Group group, String cluster, List<String> clusters, String missing) implements Fact {
    }

    record Unnamed(String secret) implements Fact {
    }

    @FactId("{group.nme}")
    record Misspelt(Group group) implements Fact {
    }

    @FactId("{id")
    record Unclosed(String id) implements Fact {
    }

    @Test
    void aTemplateWritesTheValuesItNamesAndNestedFactsByTheirIds() {
        Member member = new Member(new Group(3, "g3"), "c1", List.of("c1", "c2"), null);
        assertEquals("group 3 holds c1 (2 in all), null", member.factId());
        assertEquals("group 3 holds c1 (2 in all), null", FiredRuleRecorder.idOf(member));
    }

    @Test
    void aFactWithoutATemplateIsRefusedByName() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> new Unnamed("s3cr3t").factId());
        assertTrue(e.getMessage().contains("Unnamed") && e.getMessage().contains("@FactId"), e.getMessage());
    }

    @Test
    void aTemplateNamingWhatTheFactDoesNotHaveIsRefusedWithThePath() {
        IllegalStateException misspelt = assertThrows(IllegalStateException.class, () -> new Misspelt(new Group(1, "g")).factId());
        assertTrue(misspelt.getMessage().contains("{group.nme}"), misspelt.getMessage());
        IllegalStateException unclosed = assertThrows(IllegalStateException.class, () -> new Unclosed("x").factId());
        assertTrue(unclosed.getMessage().contains("unclosed"), unclosed.getMessage());
    }

    /** Every concrete Fact of src/main/java either writes its own factId or has a template naming what it has. */
    @Test
    void everyFactTypeOfTheServiceNamesItself() throws IOException, ReflectiveOperationException {
        Path classes = Path.of(Fact.class.getProtectionDomain().getCodeSource().getLocation().getPath());
        List<String> names = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes)) {
            files.filter(f -> f.toString().endsWith(".class")).forEach(f -> names.add(
                    classes.relativize(f).toString().replace('/', '.').replaceAll("\\.class$", "")));
        }
        int templated = 0;
        for (String name : names) {
            Class<?> type = Class.forName(name, false, Fact.class.getClassLoader());
            if (!Fact.class.isAssignableFrom(type) || type.isInterface() || Modifier.isAbstract(type.getModifiers())) {
                continue;
            }
            if (type.getMethod("factId").getDeclaringClass() != Fact.class) {
                continue; // its own factId (a component, or a name that needs more than a template)
            }
            FactIds.check(type.asSubclass(Fact.class));
            templated++;
        }
        assertTrue(templated > 60, "fact types with a template: " + templated);
    }
}
