package io.arbiter.engine;

import org.drools.model.Model;
import org.drools.modelcompiler.KieBaseBuilder;
import org.kie.api.KieBase;
import org.kie.api.KieServices;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * A rule base from a kjar compiled to Drools' executable model: the kjar's classes are defined by a class loader of
 * the rule base's own, and the models its {@code drools-model} file names are handed to {@link KieBaseBuilder}.
 * Installing the kjar in KieServices' repository and asking a KieContainer for the rule base would also parse its
 * {@code kmodule.xml} and {@code pom.xml} (XStream, a SAX parser) and copy it into an in-memory file system, which on
 * two cores doubles the time start-up takes to load the packaged rule bases. Nothing is registered JVM-wide, so a rule
 * base no snapshot uses any longer is garbage together with its classes.
 */
final class ExecutableModel {

    /** Where a kjar built with {@code ExecutableModelProject} lists its model classes, one per line. */
    private static final String MODEL_LIST = "/drools-model";

    private ExecutableModel() {
    }

    static KieBase load(String name, byte[] kjar) {
        return load(name, kjar, ExecutableModel.class.getClassLoader());
    }

    /** As {@link #load(String, byte[])}, with the kjar's classes defined in a child of {@code parent}. */
    static KieBase load(String name, byte[] kjar, ClassLoader parent) {
        Map<String, byte[]> classes = new HashMap<>();
        List<String> models = new ArrayList<>();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(kjar))) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                String path = entry.getName();
                if (path.endsWith(".class")) {
                    classes.put(path.substring(0, path.length() - ".class".length()).replace('/', '.'), in.readAllBytes());
                } else if (path.endsWith(MODEL_LIST)) {
                    // the first line is the format's version ("Drools-Model-Version:10.1.0"), then class names
                    new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::trim)
                            .filter(line -> !line.isEmpty() && !line.contains(":")).forEach(models::add);
                }
            }
        } catch (IOException e) {
            throw new RuleBaseException("the compiled rule base '" + name + "' cannot be read: " + e.getMessage(), e);
        }
        if (models.isEmpty()) {
            throw new RuleBaseException("the compiled rule base '" + name + "' names no executable model");
        }
        ClassLoader loader = new KjarClassLoader(classes, parent);
        List<Model> instances = new ArrayList<>();
        try {
            for (String model : models) {
                instances.add((Model) loader.loadClass(model).getConstructor().newInstance());
            }
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new RuleBaseException("the compiled rule base '" + name + "' cannot be loaded: " + e, e);
        }
        return KieBaseBuilder.createKieBaseFromModel(instances, KieServices.get().newKieBaseConfiguration(null, loader));
    }

    /**
     * Defines the kjar's classes; everything else (the fact classes, Drools) comes from the application. A kjar class
     * is defined here without asking the parent first: the application's class loader keeps a lock for every class
     * name it is asked for, for good, and each build's generated classes have names of their own.
     */
    private static final class KjarClassLoader extends ClassLoader {

        static {
            registerAsParallelCapable();
        }

        private final Map<String, byte[]> classes;

        KjarClassLoader(Map<String, byte[]> classes, ClassLoader parent) {
            super(parent);
            this.classes = classes;
        }

        @Override
        protected Class<?> loadClass(String className, boolean resolve) throws ClassNotFoundException {
            if (!classes.containsKey(className)) {
                return super.loadClass(className, resolve);
            }
            synchronized (getClassLoadingLock(className)) {
                Class<?> loaded = findLoadedClass(className);
                return loaded != null ? loaded : findClass(className);
            }
        }

        @Override
        protected Class<?> findClass(String className) throws ClassNotFoundException {
            byte[] bytes = classes.get(className);
            if (bytes == null) {
                throw new ClassNotFoundException(className);
            }
            return defineClass(className, bytes, 0, bytes.length);
        }
    }
}
