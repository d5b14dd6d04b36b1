package io.arbiter.suite;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import io.arbiter.document.DocumentException;
import io.arbiter.document.Documents;
import io.arbiter.document.JsonSchemas;
import io.arbiter.document.LocatedDocument;
import io.arbiter.document.Problem;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.policytype.Target;
import io.arbiter.runtime.SnapshotLoader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Reads test suite files: YAML or JSON documents with a top-level {@code tests} list (see docs/testing.md), given as
 * files or as folders searched recursively for {@code *.yaml}, {@code *.yml} and {@code *.json}. A suite that cannot be
 * run is refused whole with every problem located ({@link SuiteException}); nothing is decided while loading.
 */
public final class TestSuites {

    /** The default target of a test. */
    public static final String DEFAULT_TARGET = "implementation";
    /** A suite file larger than this is refused unread: 1000 times a large suite, and well within a default heap. */
    public static final long MAX_FILE_BYTES = 16L * 1024 * 1024;

    /** The shape of a suite file: {@code src/main/resources/schemas/test-suite.json}, which editors can use too. */
    private static final JsonSchema SCHEMA = JsonSchemas.compile(JsonSchemas.resource("/schemas/test-suite.json"));

    private TestSuites() {
    }

    /** The tests of {@code paths}, for the targets of the policy types on the classpath. */
    public static List<TestCase> load(List<Path> paths) {
        return load(paths, PolicyTypeRegistry.discover());
    }

    /** The tests of {@code paths} (files and folders), file by file in the order given, folders' files sorted by path. */
    public static List<TestCase> load(List<Path> paths, PolicyTypeRegistry registry) {
        Set<String> targets = new LinkedHashSet<>(registry.targets().stream().map(Target::name).toList());
        List<TestCase> tests = new ArrayList<>();
        for (Path file : files(paths)) {
            tests.addAll(loadFile(file, targets));
        }
        return tests;
    }

    /** The suite files named by {@code paths}, each once. */
    static List<Path> files(List<Path> paths) {
        Set<Path> files = new LinkedHashSet<>();
        Set<Path> seen = new HashSet<>();
        for (Path path : paths) {
            if (Files.isDirectory(path)) {
                List<Path> found;
                try (Stream<Path> walk = Files.walk(path)) {
                    found = walk.filter(Files::isRegularFile).filter(TestSuites::isSuiteFile)
                            .sorted(java.util.Comparator.comparing(Path::toString)).toList();
                } catch (IOException | java.io.UncheckedIOException e) {
                    throw new SuiteException(path, List.of(Problem.at("$", "the folder cannot be read")));
                }
                if (found.isEmpty()) {
                    throw new SuiteException(path, List.of(Problem.at("$", "the folder holds no *.yaml, *.yml or *.json file")));
                }
                found.stream().filter(file -> seen.add(file.toAbsolutePath().normalize())).forEach(files::add);
            } else if (Files.isRegularFile(path)) {
                if (seen.add(path.toAbsolutePath().normalize())) {
                    files.add(path);
                }
            } else {
                throw new SuiteException(path, List.of(Problem.at("$", Files.exists(path)
                        ? "not a file or folder" : "no such file or folder")));
            }
        }
        return List.copyOf(files);
    }

    private static boolean isSuiteFile(Path file) {
        String name = file.getFileName().toString();
        return name.endsWith(".yaml") || name.endsWith(".yml") || name.endsWith(".json");
    }

    private static List<TestCase> loadFile(Path file, Set<String> targets) {
        LocatedDocument document = parse(file);
        JsonNode root = document.tree();
        List<Problem> shape = JsonSchemas.problems(SCHEMA, root);
        List<Problem> problems = new ArrayList<>(shape);
        List<TestCase> tests = new ArrayList<>();
        JsonNode list = root.path("tests");
        if (list.isArray()) {
            Map<Path, Boolean> checked = new HashMap<>();
            Path defaultPolicy = problemAt(shape, "$.policy") ? null : policy(file, root, "$", problems);
            if (defaultPolicy != null) {
                checkPolicy(defaultPolicy, "$", checked, problems);
            }
            Set<String> names = new HashSet<>();
            for (int i = 0; i < list.size(); i++) {
                String path = "$.tests[" + i + "]";
                // every test's name, whatever else is wrong with it: every problem of the file is printed at once
                JsonNode name = list.get(i).path("name");
                if (name.isTextual() && !names.add(name.asText())) {
                    problems.add(Problem.at(path + ".name", "another test of this file is named '" + name.asText() + "'"));
                }
                TestCase test = problemAt(shape, path) ? null
                        : test(file, list.get(i), path, targets, defaultPolicy, names, checked, problems);
                if (test != null) {
                    tests.add(test);
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new SuiteException(file, problems.stream().map(problem -> problem.locatedBy(document.locations())).toList());
        }
        return tests;
    }

    /** Whether a problem lies at {@code path} or inside it. */
    private static boolean problemAt(List<Problem> problems, String path) {
        return problems.stream().map(Problem::path).anyMatch(at -> at.equals(path) || at.startsWith(path + ".")
                || at.startsWith(path + "["));
    }

    private static LocatedDocument parse(Path file) {
        try {
            if (Files.size(file) > MAX_FILE_BYTES) {
                throw new SuiteException(file, List.of(Problem.at("$", "the file is larger than "
                        + MAX_FILE_BYTES / (1024 * 1024) + " MiB")));
            }
            byte[] content = Files.readAllBytes(file);
            return file.getFileName().toString().endsWith(".json") ? Documents.parseJson(content) : Documents.parseYaml(content);
        } catch (IOException e) {
            throw new SuiteException(file, List.of(Problem.at("$", "the file cannot be read")));
        } catch (SuiteException e) {
            throw e;
        } catch (DocumentException e) {
            throw new SuiteException(file, e.problems().isEmpty() ? List.of(Problem.at("$", e.getMessage())) : e.problems());
        }
    }

    /** A test that has the suite schema's shape; what a schema cannot say is checked here. */
    private static TestCase test(Path file, JsonNode test, String path, Set<String> targets, Path defaultPolicy,
                                 Set<String> names, Map<Path, Boolean> checked, List<Problem> problems) {
        int before = problems.size();
        String name = test.get("name").asText();
        JsonNode target = test.path("target");
        if (!target.isMissingNode() && !targets.contains(target.asText())) {
            problems.add(Problem.at(path + ".target", "unknown target " + Expectations.shown(target) + "; targets: "
                    + String.join(", ", targets)));
        }
        Path policy = policy(file, test, path, problems);
        if (policy != null) {
            checkPolicy(policy, path, checked, problems);
        }
        if (problems.size() > before) {
            return null;
        }
        return new TestCase(file, name, target.asText(DEFAULT_TARGET), test.get("request"), test.get("expect"),
                policy != null ? policy : defaultPolicy);
    }

    /**
     * The policy file {@code node.policy} names, relative to the suite file; null when not given. It must lie in the
     * suite's folder tree: the folder above the suite file's folder, so that policies can be kept beside the suites'
     * folder (where a folder of suites does not read them as suites). Checked after resolving symlinks: a suite from
     * elsewhere (a pull request) must not get {@code arbiter test} to read any file the user can read.
     */
    private static Path policy(Path file, JsonNode node, String path, List<Problem> problems) {
        JsonNode policy = node.path("policy");
        if (policy.isMissingNode()) {
            return null;
        }
        String named = policy.asText();
        Path suiteFolder = file.toAbsolutePath().normalize().getParent();
        Path tree = suiteTree(file);
        Path resolved;
        try {
            if (Path.of(named).isAbsolute() || Path.of(named).getRoot() != null) {
                problems.add(Problem.at(path + ".policy", "an absolute path: name the policy file relative to the suite"
                        + " file, within " + tree));
                return null;
            }
            resolved = suiteFolder.resolve(named).normalize();
        } catch (java.nio.file.InvalidPathException e) {
            problems.add(Problem.at(path + ".policy", "not a valid file path"));
            return null;
        }
        if (!resolved.startsWith(tree)) {
            problems.add(outside(path, tree));
            return null;
        }
        if (!Files.isRegularFile(resolved)) {
            problems.add(Problem.at(path + ".policy", "no policy file " + resolved));
            return null;
        }
        try {
            if (!resolved.toRealPath().startsWith(tree.toRealPath())) {
                problems.add(outside(path, tree));
                return null;
            }
        } catch (IOException e) {
            problems.add(Problem.at(path + ".policy", "the policy file " + resolved + " cannot be read"));
            return null;
        }
        return resolved;
    }

    /** The folder tree a suite's files must lie in: the folder above the suite file's folder. */
    static Path suiteTree(Path file) {
        Path folder = file.toAbsolutePath().normalize().getParent();
        return folder.getParent() != null ? folder.getParent() : folder;
    }

    private static Problem outside(String path, Path tree) {
        return Problem.at(path + ".policy", "the policy file lies outside the suite's folder tree " + tree
                + " (through .. or a symlink): keep policy files in the suite's folder or beside it");
    }

    /**
     * Whether {@code file} reads as a policy, each file checked once per load. The policy's own problems are not
     * shown: they quote the file, and a suite must not get another file's content printed.
     */
    private static void checkPolicy(Path file, String path, Map<Path, Boolean> checked, List<Problem> problems) {
        boolean readable = checked.computeIfAbsent(file, TestSuites::readsAsPolicy);
        if (!readable) {
            problems.add(Problem.at(path + ".policy", unreadablePolicy(file)));
        }
    }

    /** What a suite says of a policy file it names that cannot be read as a policy. */
    static String unreadablePolicy(Path file) {
        return "the file " + file + " could not be read as a policy: arbiter lint " + file + " shows why";
    }

    private static boolean readsAsPolicy(Path file) {
        try {
            SnapshotLoader.loadPolicy(file);
            return true;
        } catch (DocumentException | java.io.UncheckedIOException e) {
            return false;
        }
    }
}
