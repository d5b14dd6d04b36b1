package io.arbiter.suite;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.document.DocumentException;
import io.arbiter.document.Documents;
import io.arbiter.document.LocatedDocument;
import io.arbiter.document.Problem;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.policytype.Target;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
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

    private static final Set<String> SUITE_KEYS = Set.of("tests", "policy", "description");
    private static final Set<String> TEST_KEYS = Set.of("name", "description", "target", "request", "expect", "policy");

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
        List<Problem> problems = new ArrayList<>();
        List<TestCase> tests = new ArrayList<>();
        JsonNode root = document.tree();
        if (!root.isObject()) {
            problems.add(Problem.at("$", "a suite is an object with a 'tests' list, not " + kind(root)));
        } else {
            unknownKeys(root, "$", SUITE_KEYS, problems);
            Path defaultPolicy = policy(file, root, "$", problems);
            JsonNode list = root.path("tests");
            if (!list.isArray() || list.isEmpty()) {
                problems.add(Problem.at("$.tests", list.isMissingNode() ? "a suite needs a 'tests' list"
                        : list.isArray() ? "the 'tests' list is empty" : "'tests' must be a list, not " + kind(list)));
            } else {
                Set<String> names = new HashSet<>();
                for (int i = 0; i < list.size(); i++) {
                    TestCase test = test(file, list.get(i), "$.tests[" + i + "]", targets, defaultPolicy, names, problems);
                    if (test != null) {
                        tests.add(test);
                    }
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new SuiteException(file, problems.stream().map(problem -> problem.locatedBy(document.locations())).toList());
        }
        return tests;
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

    private static TestCase test(Path file, JsonNode test, String path, Set<String> targets, Path defaultPolicy,
                                 Set<String> names, List<Problem> problems) {
        if (!test.isObject()) {
            problems.add(Problem.at(path, "a test is an object with name, request and expect, not " + kind(test)));
            return null;
        }
        int before = problems.size();
        unknownKeys(test, path, TEST_KEYS, problems);
        JsonNode name = test.path("name");
        if (!name.isTextual() || name.asText().isBlank()) {
            problems.add(Problem.at(path + ".name", name.isMissingNode() ? "a test needs a name" : "a name is a non-blank string"));
        } else if (!names.add(name.asText())) {
            problems.add(Problem.at(path + ".name", "another test of this file is named '" + name.asText() + "'"));
        }
        JsonNode target = test.path("target");
        if (!target.isMissingNode() && !(target.isTextual() && targets.contains(target.asText()))) {
            problems.add(Problem.at(path + ".target", "unknown target " + Expectations.shown(target) + "; targets: "
                    + String.join(", ", targets)));
        }
        JsonNode request = test.path("request");
        if (!request.isObject()) {
            problems.add(Problem.at(path + ".request", request.isMissingNode() ? "a test needs a request (an object)"
                    : "a request is an object, not " + kind(request)));
        }
        JsonNode expect = test.path("expect");
        if (!expect.isObject()) {
            problems.add(Problem.at(path + ".expect", expect.isMissingNode() ? "a test needs an expect object"
                    : "expect is an object (a part of the response), not " + kind(expect)));
        } else {
            ruleNames(expect, path + ".expect", Expectations.FIRED, problems);
            ruleNames(expect, path + ".expect", Expectations.NOT_FIRED, problems);
        }
        Path policy = policy(file, test, path, problems);
        if (problems.size() > before) {
            return null;
        }
        return new TestCase(file, name.asText(), target.asText(DEFAULT_TARGET), request, expect,
                policy != null ? policy : defaultPolicy);
    }

    private static void ruleNames(JsonNode expect, String path, String key, List<Problem> problems) {
        JsonNode rules = expect.path(key);
        if (rules.isMissingNode()) {
            return;
        }
        if (!rules.isArray()) {
            problems.add(Problem.at(path + "." + key, key + " is a list of rule names, not " + kind(rules)));
            return;
        }
        for (int i = 0; i < rules.size(); i++) {
            if (!rules.get(i).isTextual()) {
                problems.add(Problem.at(path + "." + key + "[" + i + "]", "a rule name is a string, not " + kind(rules.get(i))));
            }
        }
    }

    /** The policy file {@code node.policy} names, relative to the suite file; null when not given. */
    private static Path policy(Path file, JsonNode node, String path, List<Problem> problems) {
        JsonNode policy = node.path("policy");
        if (policy.isMissingNode()) {
            return null;
        }
        if (!policy.isTextual() || policy.asText().isBlank()) {
            problems.add(Problem.at(path + ".policy", "policy is the path of a policy file, relative to the suite, not " + kind(policy)));
            return null;
        }
        Path resolved;
        try {
            Path parent = file.toAbsolutePath().getParent();
            resolved = parent.resolve(policy.asText()).normalize();
        } catch (java.nio.file.InvalidPathException e) {
            problems.add(Problem.at(path + ".policy", "not a valid file path"));
            return null;
        }
        if (!Files.isRegularFile(resolved)) {
            problems.add(Problem.at(path + ".policy", "no policy file " + resolved));
            return null;
        }
        return resolved;
    }

    private static void unknownKeys(JsonNode node, String path, Set<String> known, List<Problem> problems) {
        for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
            String key = fields.next().getKey();
            if (!known.contains(key)) {
                problems.add(Problem.at(path + "." + key, "unknown key; expected one of " + known.stream().sorted().toList()));
            }
        }
    }

    private static String kind(JsonNode node) {
        if (node.isMissingNode() || node.isNull()) {
            return "null";
        }
        return node.isObject() ? "an object" : node.isArray() ? "a list" : node.isTextual() ? "a string"
                : node.isNumber() ? "a number" : node.isBoolean() ? "a boolean" : node.getNodeType().toString().toLowerCase();
    }
}
