package io.arbiter.engine;

import io.arbiter.decision.backend.BackendDecider;
import io.arbiter.testing.RuleTestSupport;
import org.junit.jupiter.api.Test;
import org.kie.api.KieBase;
import org.kie.api.runtime.KieSession;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A rule base's classes are defined by a class loader of its own. The application's class loader keeps a lock for
 * every class name it is asked for, for good, and every build names its generated classes anew: asking it for them
 * grew the heap by each reload.
 */
class ExecutableModelTest {

    @Test
    void theKjarsClassesAreNotAskedOfTheApplicationsClassLoader() throws IOException {
        List<RuleBaseBuilder.RuleFile> files = RuleTestSupport.files(BackendDecider.KIND);
        byte[] kjar = RuleBaseBuilder.precompile("capact.backend", files);
        Recording parent = new Recording(getClass().getClassLoader());

        KieBase kieBase = ExecutableModel.load("capact.backend", kjar, parent);
        KieSession session = kieBase.newKieSession();
        try {
            session.fireAllRules();
        } finally {
            session.dispose();
        }

        Set<String> ownClasses = classesOf(kjar);
        assertFalse(ownClasses.isEmpty() || parent.asked.isEmpty(), "the kjar defines classes and Drools' come from the parent");
        Set<String> askedForOwn = new TreeSet<>(parent.asked);
        askedForOwn.retainAll(ownClasses);
        assertTrue(askedForOwn.isEmpty(), "the parent was asked for the kjar's own classes: " + askedForOwn);
    }

    private static Set<String> classesOf(byte[] kjar) throws IOException {
        Set<String> classes = new TreeSet<>();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(kjar))) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                if (entry.getName().endsWith(".class")) {
                    classes.add(entry.getName().substring(0, entry.getName().length() - ".class".length()).replace('/', '.'));
                }
            }
        }
        return classes;
    }

    /** Loads as its parent does, noting every class name it is asked for. */
    private static final class Recording extends ClassLoader {
        final Set<String> asked = ConcurrentHashMap.newKeySet();

        Recording(ClassLoader parent) {
            super(parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            asked.add(name);
            return super.loadClass(name, resolve);
        }
    }
}
