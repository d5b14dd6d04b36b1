package io.arbiter.engine;

import org.drools.decisiontable.InputType;
import org.drools.decisiontable.SpreadsheetCompiler;
import org.drools.drl.ast.descr.PackageDescr;
import org.drools.drl.parser.DrlParser;
import org.drools.drl.parser.DroolsParserException;
import org.drools.model.codegen.ExecutableModelProject;
import org.drools.base.util.Drools;
import org.kie.api.KieBase;
import org.kie.api.definition.KieDefinition;
import org.kie.api.definition.KiePackage;
import org.kie.api.definition.rule.Rule;
import org.kie.api.KieServices;
import org.kie.api.builder.KieBuilder;
import org.kie.api.builder.KieFileSystem;
import org.kie.api.builder.Message;
import org.kie.api.builder.ReleaseId;
import org.kie.api.io.ResourceType;
import org.drools.compiler.kie.builder.impl.InternalKieModule;
import java.io.InputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Compiles the DRL files of {@code rules/<kind>/} and the decision tables of {@code decision-tables/<kind>/}
 * into one rule base. Fails loudly, never silently: a table not named {@code *.drl.csv}/{@code *.drl.xlsx}
 * (which Drools would skip), a table or rule base that yields no rules, and any compilation error.
 */
public final class RuleBaseBuilder {

    private static final Logger LOG = LoggerFactory.getLogger(RuleBaseBuilder.class);
    private static final AtomicLong BUILDS = new AtomicLong();
    private static final RuleBaseCache BUILT = new RuleBaseCache();
    private static final int POOL_SIZE = 16;
    private static final String GROUP = "io.arbiter.rules";
    /** ExternaliseCanonicalModelLambdaOption.PROPERTY_NAME (org.kie.internal): a kmodule.xml configuration key. */
    private static final String EXTERNALISE_LAMBDAS = "drools.externaliseCanonicalModelLambda";

    private RuleBaseBuilder() {
    }

    /** A file of a rule base: its name (for messages and the kie file system), content and kind. */
    public record RuleFile(String name, byte[] content, ResourceType type) {

        /** The DRL the file declares: its text, or the rules Drools generates from a decision table. */
        String drl() {
            return type == ResourceType.DTABLE
                    ? new SpreadsheetCompiler().compile(new ByteArrayInputStream(content),
                            name.endsWith(".csv") ? InputType.CSV : InputType.XLS)
                    : new String(content, java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    public static CompiledRuleBase build(String name, Path rulesFolder, Path tablesFolder, List<String> phases) {
        return build(name, collect(rulesFolder, tablesFolder), phases);
    }

    /** The files of several folders under a rules root and a tables root, named {@code <folder>/<file>}. */
    public static List<RuleFile> collect(List<String> folders, java.util.function.Function<String, Path> rulesFolder,
                                         java.util.function.Function<String, Path> tablesFolder) {
        List<RuleFile> files = new ArrayList<>();
        for (String folder : folders) {
            for (RuleFile file : collect(rulesFolder.apply(folder), tablesFolder.apply(folder))) {
                files.add(new RuleFile(folder + "/" + file.name(), file.content(), file.type()));
            }
        }
        return files;
    }

    /** Reads the rule files of a kind: every {@code .drl} under the rules folder, every table under the tables folder. */
    public static List<RuleFile> collect(Path rulesFolder, Path tablesFolder) {
        List<RuleFile> files = new ArrayList<>();
        for (Path file : RuleFiles.filesUnder(rulesFolder)) {
            String fileName = file.getFileName().toString();
            if (fileName.endsWith(".drl")) {
                files.add(new RuleFile(display(rulesFolder, file), read(file), ResourceType.DRL));
            } else if (looksLikeTable(fileName)) {
                throw new RuleBaseException("decision table " + file + " is in the rules folder; move it to decision-tables/");
            }
        }
        for (Path file : RuleFiles.filesUnder(tablesFolder)) {
            String fileName = file.getFileName().toString();
            if (fileName.endsWith(".drl.csv") || fileName.endsWith(".drl.xlsx")) {
                files.add(new RuleFile(display(tablesFolder, file), read(file), ResourceType.DTABLE));
            } else if (looksLikeTable(fileName)) {
                throw new RuleBaseException("decision table " + file + " must be named *.drl.csv or *.drl.xlsx:"
                        + " Drools skips other names and the rule base would silently lose its rules");
            }
        }
        return files;
    }

    /**
     * The rule base of these files: the one this JVM already has for them, else the packaged kjar built from exactly
     * these files, else compiled from them.
     */
    public static CompiledRuleBase build(String name, List<RuleFile> files, List<String> phases) {
        if (files.isEmpty()) {
            throw new RuleBaseException("the rule base '" + name + "' has no rule files");
        }
        String revision = revisionOf(files);
        return BUILT.get(name, revision, phases, () -> {
            long started = System.nanoTime();
            byte[] precompiled = precompiled(name, files);
            return load(name, files, phases, precompiled != null ? precompiled
                    : compiled(name, files, "1.0.0"), precompiled != null, started);
        });
    }

    /**
     * The rule base of files that {@link #check} compiled without errors, from the kjar it compiled: lint checks a
     * rule base as start-up would without compiling its files a second time.
     */
    public static CompiledRuleBase build(String name, List<RuleFile> files, List<String> phases, Check check) {
        if (check.kjar() == null) {
            throw new IllegalArgumentException("the rule base '" + name + "' did not compile: " + check.errors());
        }
        long started = System.nanoTime();
        requireRulesInTables(files);
        return load(name, files, phases, check.kjar(), false, started);
    }

    private static CompiledRuleBase load(String name, List<RuleFile> files, List<String> phases, byte[] kjar,
                                         boolean precompiled, long started) {
        String revision = revisionOf(files);
        KieBase kieBase = ExecutableModel.load(name, kjar);
        List<String> ruleNames = kieBase.getKiePackages().stream()
                .flatMap(pkg -> pkg.getRules().stream().map(rule -> pkg.getName() + "." + rule.getName()))
                .sorted().toList();
        checkPhases(name, kieBase, phases, files);
        LOG.info("the rule base '{}' {}: {} rules from {} files in {} ms", name, precompiled ? "loaded precompiled" : "built",
                ruleNames.size(), files.size(), (System.nanoTime() - started) / 1_000_000);
        return new CompiledRuleBase(name, kieBase, kieBase.newKieSessionsPool(POOL_SIZE), List.copyOf(phases),
                revision, ruleNames, List.copyOf(files));
    }

    /**
     * Every rule (queries aside) must be in a ruleflow group the type fires: a rule in any other group compiles
     * and never fires, and one without a group fires in whatever phase happens to run. Every phase must hold a rule:
     * a phase the type lists and no rule names is a typo on one side or the other. A rule base of queries only
     * decides nothing.
     */
    static void checkPhases(String name, KieBase kieBase, List<String> phases, List<RuleFile> files) {
        int rules = 0;
        List<String> problems = new ArrayList<>();
        java.util.Set<String> empty = new java.util.LinkedHashSet<>(phases);
        Map<String, String> groups = new java.util.HashMap<>();
        RuleSources.of(files).forEach(source -> groups.putIfAbsent(source.rule(), source.phase()));
        for (KiePackage pkg : kieBase.getKiePackages()) {
            for (Rule rule : pkg.getRules()) {
                if (rule.getKnowledgeType() != KieDefinition.KnowledgeType.RULE) {
                    continue;
                }
                rules++;
                String group = groups.get(rule.getPackageName() + "." + rule.getName());
                if (group == null) {
                    problems.add(describe(rule, files) + " has no ruleflow-group; give it one of the phases " + phases);
                } else if (!phases.contains(group)) {
                    problems.add(describe(rule, files) + " is in ruleflow-group '" + group + "', which is not a phase of '"
                            + name + "' and would never fire; phases: " + phases);
                } else {
                    empty.remove(group);
                }
            }
        }
        if (rules == 0) {
            throw new RuleBaseException("the rule base '" + name + "' has no rules (queries alone decide nothing)");
        }
        for (String phase : empty) {
            problems.add("phase '" + phase + "' of '" + name + "' has no rule (no rule has ruleflow-group \"" + phase + "\")");
        }
        if (!problems.isEmpty()) {
            throw new RuleBaseException("the rule base '" + name + "' does not match its phases:\n  "
                    + String.join("\n  ", problems));
        }
    }

    /** A rule by name and file (the compiled rule does not keep its file: the files are parsed again to find it). */
    private static String describe(Rule rule, List<RuleFile> files) {
        String file = files.stream().filter(candidate -> declares(candidate, rule.getName()))
                .map(RuleFile::name).findFirst().orElse("package " + rule.getPackageName());
        return "rule '" + rule.getName() + "' in " + file;
    }

    private static boolean declares(RuleFile file, String ruleName) {
        try {
            return ruleNamesIn(file).contains(ruleName);
        } catch (DroolsParserException | RuntimeException e) {
            return false; // it compiled, so it parses; a file that does not is not the rule's
        }
    }

    /**
     * Compiles the files and returns the kjar bytes, for {@code PrecompileRules} to package. Its release id carries
     * the content revision, so a precompiled rule base is only used for exactly the files it was built from.
     */
    public static byte[] precompile(String name, List<RuleFile> files) {
        return compiled(name, files, "0.0.0-" + revisionOf(files));
    }

    /**
     * The kjar the files compile to. The compiler installs it in KieServices' JVM-wide repository under its release
     * id ({@link #releaseIdOfBuild}); it is taken out again at once, so that nothing stays behind per build.
     */
    private static byte[] compiled(String name, List<RuleFile> files, String version) {
        ReleaseId releaseId = releaseIdOfBuild(name, version);
        try {
            return kjarOf(compile(name, files, releaseId));
        } finally {
            KieServices.get().getRepository().removeKieModule(releaseId);
        }
    }

    /**
     * The classpath resource a precompiled rule base for these files lives in, named by the content of the files and by
     * the Drools version that compiled them: a kjar holds classes generated for that version, and the build keeps a
     * kjar whose name says it is up to date.
     */
    public static String precompiledResource(String name, List<RuleFile> files) {
        return "precompiled/" + artifactOf(name) + "-" + revisionOf(files) + "-drools-" + Drools.getFullVersion() + ".kjar";
    }

    private static byte[] precompiled(String name, List<RuleFile> files) {
        try (InputStream in = RuleBaseBuilder.class.getClassLoader()
                .getResourceAsStream(precompiledResource(name, files))) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            LOG.warn("cannot read precompiled rule base '{}', compiling instead: {}", name, e.toString());
            return null;
        }
    }

    private static void requireRulesInTables(List<RuleFile> files) {
        for (RuleFile file : files) {
            if (file.type() == ResourceType.DTABLE && rulesIn(file) == 0) {
                throw new RuleBaseException("decision table " + file.name() + " yields no rules");
            }
        }
    }

    private static KieBuilder compile(String name, List<RuleFile> files, ReleaseId releaseId) {
        requireRulesInTables(files);
        KieBuilder builder;
        try {
            builder = KieServices.get().newKieBuilder(fileSystem(files, releaseId)).buildAll(ExecutableModelProject.class);
        } catch (RuntimeException e) {
            throw new RuleBaseException("the rule base '" + name + "' does not compile: " + e.getMessage(), e);
        }
        List<Message> errors = builder.getResults().getMessages(Message.Level.ERROR);
        if (!errors.isEmpty()) {
            StringBuilder message = new StringBuilder("the rule base '" + name + "' does not compile:");
            errors.forEach(error -> message.append("\n  ").append(error.getPath().replace(folderOf(releaseId), ""))
                    .append(" line ")
                    .append(error.getLine()).append(": ").append(firstLine(error.getText())));
            throw new RuleBaseException(message.toString());
        }
        return builder;
    }

    /** The module a rule base compiles from: its files under one package folder, and how the compiler is set up. */
    private static KieFileSystem fileSystem(List<RuleFile> files, ReleaseId releaseId) {
        KieServices services = KieServices.get();
        KieFileSystem fileSystem = services.newKieFileSystem();
        fileSystem.generateAndWritePomXML(releaseId);
        // Lambdas stay inline in the rule classes: externalised, each is a class of its own, which start-up loads
        // more slowly (bench/README.md, start-up), and Drools 10.1's post-processor that externalises them has thrown
        // on constraints like ours (index out of bounds in ExecModelLambdaPostProcessor.convertIndexedByCall). Set
        // for this module's builder only (kmodule.xml configuration), not JVM-wide.
        fileSystem.writeKModuleXML(services.newKieModuleModel()
                .setConfigurationProperty(EXTERNALISE_LAMBDAS, "false").toXML());
        for (RuleFile file : files) {
            fileSystem.write(resourcePath(releaseId, file),
                    services.getResources().newByteArrayResource(file.content()).setResourceType(file.type()));
        }
        return fileSystem;
    }

    /** Where a build puts a file: in a folder of the build's own ({@link #releaseIdOfBuild}). */
    private static String resourcePath(ReleaseId build, RuleFile file) {
        return folderOf(build) + file.name();
    }

    private static String folderOf(ReleaseId build) {
        return "src/main/resources/io/arbiter/rules/" + build.getArtifactId() + "/";
    }

    /**
     * A compile error of one rule file ({@code file} null: of the rule base as a whole); {@code line} and
     * {@code column} 0 when unknown. {@code tableSyntax}: the decision table did not even turn into rules.
     */
    public record CompileError(String file, int line, int column, String text, boolean tableSyntax) {
    }

    /**
     * What compiling {@code files} as {@link #build} does reports, without throwing: every error, located in its file.
     * A CSV decision table is compiled through the DRL it generates, given in {@code generatedDrl} by file, so that
     * an error's line can be traced to the table's row. {@code kjar}: what the files compiled to, when there was no
     * error (null otherwise).
     */
    public record Check(List<CompileError> errors, Map<String, String> generatedDrl, byte[] kjar) {
    }

    public static Check check(String name, List<RuleFile> files) {
        ReleaseId releaseId = releaseIdOfBuild(name, "1.0.0");
        List<CompileError> errors = new ArrayList<>();
        Map<String, String> generated = new java.util.LinkedHashMap<>();
        Map<String, String> fileOfResource = new java.util.LinkedHashMap<>();
        List<RuleFile> compiled = new ArrayList<>();
        for (RuleFile file : files) {
            RuleFile source = file;
            if (file.type() == ResourceType.DTABLE && file.name().endsWith(".csv")) {
                String drl;
                try {
                    drl = file.drl();
                } catch (RuntimeException e) {
                    errors.add(new CompileError(file.name(), 0, 0, "the table does not compile to rules: " + e.getMessage(), true));
                    continue;
                }
                generated.put(file.name(), drl);
                source = new RuleFile(file.name() + ".drl", drl.getBytes(java.nio.charset.StandardCharsets.UTF_8), ResourceType.DRL);
            }
            compiled.add(source);
            fileOfResource.put(resourcePath(releaseId, source), file.name());
        }
        KieServices services = KieServices.get();
        KieBuilder builder;
        try {
            builder = services.newKieBuilder(fileSystem(compiled, releaseId)).buildAll(ExecutableModelProject.class);
        } catch (RuntimeException e) {
            errors.add(new CompileError(null, 0, 0, "the rule base does not compile: " + e.getMessage(), false));
            return new Check(errors, generated, null);
        } finally {
            services.getRepository().removeKieModule(releaseId);
        }
        for (Message message : builder.getResults().getMessages(Message.Level.ERROR)) {
            String path = message.getPath() == null ? "" : message.getPath();
            String file = fileOfResource.entrySet().stream()
                    .filter(entry -> !path.isEmpty() && (path.endsWith(entry.getKey().substring("src/main/resources/".length()))
                            || entry.getKey().endsWith(path)))
                    .map(Map.Entry::getValue).findFirst().orElse(null);
            errors.add(new CompileError(file, Math.max(0, message.getLine()), Math.max(0, message.getColumn()),
                    firstLine(message.getText()), false));
        }
        return new Check(errors, generated, errors.isEmpty() ? kjarOf(builder) : null);
    }

    /**
     * The bytes of the kjar a builder built. kie-api's {@code KieModule} gives only its release id; the bytes are what
     * {@link ExecutableModel} loads and what is packaged precompiled, so the internal module is the one way to them.
     */
    private static byte[] kjarOf(KieBuilder builder) {
        return ((InternalKieModule) builder.getKieModule()).getBytes();
    }

    /**
     * A release id of this build alone: its artifact, and so the folder its files are written to, is numbered per
     * build. Two builds of one rule base whose files had the same paths, running at once (a reload while a refused
     * load's other types still compile, say), could each get the other's rules from Drools' compiler: a rollout table
     * with a row dropped compiled to the full table in 4 of 15 such pairs.
     */
    private static ReleaseId releaseIdOfBuild(String name, String version) {
        return KieServices.get().newReleaseId(GROUP, artifactOf(name) + "-build" + BUILDS.incrementAndGet(), version);
    }

    private static String artifactOf(String name) {
        return name.replaceAll("[^A-Za-z0-9_.-]", "-");
    }

    /** How many rules a decision table compiles to (queries and functions do not count). */
    static int rulesIn(RuleFile table) {
        try {
            return ruleNamesIn(table).size();
        } catch (DroolsParserException | RuntimeException e) {
            throw new RuleBaseException("decision table " + table.name() + " yields no rules: " + e.getMessage(), e);
        }
    }

    /** The names of the rules and queries a DRL file or decision table declares. */
    private static List<String> ruleNamesIn(RuleFile file) throws DroolsParserException {
        PackageDescr descr = packageOf(file);
        return descr == null ? List.of() : descr.getRules().stream().map(rule -> rule.getName()).toList();
    }

    /** The parsed DRL of a file, or null when it declares nothing. */
    static PackageDescr packageOf(RuleFile file) throws DroolsParserException {
        return new DrlParser().parse(null, file.drl());
    }

    private static boolean looksLikeTable(String fileName) {
        return fileName.endsWith(".csv") || fileName.endsWith(".xlsx") || fileName.endsWith(".xls");
    }

    private static String display(Path folder, Path file) {
        return folder.relativize(file).toString().replace('\\', '/');
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static String firstLine(String text) {
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }

    public static String revisionOf(List<RuleFile> files) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (RuleFile file : files) {
                digest.update(file.name().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                digest.update((byte) 0);
                digest.update(file.content());
            }
            return HexFormat.of().formatHex(digest.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
