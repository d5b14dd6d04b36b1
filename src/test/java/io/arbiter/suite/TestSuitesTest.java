package io.arbiter.suite;

import io.arbiter.document.Problem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Loading suites: files and folders, defaults, and every malformed suite refused with its problems located. */
class TestSuitesTest {

    @TempDir
    Path temp;

    private Path write(String name, String content) throws IOException {
        Path file = temp.resolve(name);
        Files.createDirectories(file.getParent());
        return Files.writeString(file, content);
    }

    private SuiteException refused(Path... paths) {
        return assertThrows(SuiteException.class, () -> TestSuites.load(List.of(paths)));
    }

    private static String problems(SuiteException e) {
        return String.join("\n", e.lines());
    }

    @Test
    void aTestGetsTheDefaultTargetAndTheSuitesPolicyUnlessItNamesItsOwn() throws IOException {
        write("policies/global.yaml", "{}\n");
        write("policies/other.yaml", "{}\n");
        Path suite = write("suite.yaml", """
                policy: policies/global.yaml
                tests:
                  - name: first
                    request: {interface: {path: cap.interface.a}}
                    expect: {outcome: SELECTED}
                  - name: second
                    target: backend
                    policy: policies/other.yaml
                    request: {typeRefs: []}
                    expect: {backends: []}
                """);

        List<TestCase> tests = TestSuites.load(List.of(suite));

        assertEquals(2, tests.size());
        assertEquals("implementation", tests.get(0).target());
        assertEquals(temp.resolve("policies/global.yaml").toAbsolutePath(), tests.get(0).policy());
        assertEquals("backend", tests.get(1).target());
        assertEquals(temp.resolve("policies/other.yaml").toAbsolutePath(), tests.get(1).policy());
        assertEquals("SELECTED", tests.get(0).expect().path("outcome").asText());
        assertEquals(suite, tests.get(0).file());
    }

    @Test
    void aFolderIsSearchedRecursivelyForYamlAndJsonInPathOrder() throws IOException {
        String one = "tests: [{name: t, request: {}, expect: {}}]\n";
        write("b/z.yml", one);
        write("a.json", "{\"tests\": [{\"name\": \"t\", \"request\": {}, \"expect\": {}}]}");
        write("b/a.yaml", one);
        write("notes.txt", "not a suite");

        List<Path> files = TestSuites.load(List.of(temp)).stream().map(TestCase::file).toList();

        assertEquals(List.of(temp.resolve("a.json"), temp.resolve("b/a.yaml"), temp.resolve("b/z.yml")), files);
        assertEquals(3, TestSuites.load(List.of(temp, temp.resolve("a.json"))).size(), "a file named twice runs once");
    }

    @Test
    void everyProblemOfAMalformedSuiteIsLocated() throws IOException {
        Path suite = write("bad.yaml", """
                tests:
                  - name: ok
                    request: {}
                    expect: {}
                  - name: ok
                    request: {}
                    expect: {}
                  - request: []
                    expect: {firedRules: Rule}
                    colour: red
                  - name: t4
                    target: nowhere
                    request: {}
                    expect: {}
                    policy: missing.yaml
                  - name: t5
                    request: {}
                    expect: 3
                  - just a string
                """);

        SuiteException e = refused(suite);

        String all = problems(e);
        assertEquals(suite, e.file());
        assertTrue(all.contains(suite + ":5:5: $.tests[1].name: another test of this file is named 'ok'"), all);
        assertTrue(all.contains(suite + ":8:5: $.tests[2].name: required field 'name' is missing"), all);
        assertTrue(all.contains(suite + ":8:5: $.tests[2].request: array found, object expected"), all);
        assertTrue(all.contains(suite + ":9:14: $.tests[2].expect.firedRules: string found, array expected"), all);
        assertTrue(all.contains(suite + ":10:5: $.tests[2].colour: unknown field 'colour'"), all);
        assertTrue(all.contains(suite + ":12:5: $.tests[3].target: unknown target \"nowhere\"; targets: "), all);
        assertTrue(all.contains(suite + ":15:5: $.tests[3].policy: no policy file"), all);
        assertTrue(all.contains(suite + ":18:5: $.tests[4].expect: integer found, object expected"), all);
        assertTrue(all.contains(suite + ":19:5: $.tests[5]: string found, object expected"), all);
        assertEquals(9, e.problems().size(), all);
    }

    /** Issue 45: a repeated name shows with the schema's errors, not only once they are fixed. */
    @Test
    void aRepeatedNameIsReportedBesideTheSchemaErrorsOfTheSameTest() throws IOException {
        Path suite = write("dup.yaml", """
                tests:
                  - name: same
                    request: {}
                    expect: {}
                  - name: same
                    request: []
                    expect: {}
                """);

        String all = problems(refused(suite));
        assertTrue(all.contains(suite + ":5:5: $.tests[1].name: another test of this file is named 'same'"), all);
        assertTrue(all.contains("$.tests[1].request: array found, object expected"), all);
    }

    @Test
    void aPolicyOutsideTheSuitesFolderTreeIsRefusedUnread() throws IOException {
        Path secret = write("outside/secret.yaml", "interface: {rules: [{interface: {path: secret-content}}]}\n");
        write("tree/policies/inside.yaml", "{}\n");
        Files.createSymbolicLink(temp.resolve("tree/link.yaml"), secret);
        Path suite = write("tree/suites/suite.yaml", """
                tests:
                  - name: absolute
                    policy: %s
                    request: {}
                    expect: {}
                  - name: dot-dot
                    policy: ../../outside/secret.yaml
                    request: {}
                    expect: {}
                  - name: symlink
                    policy: ../link.yaml
                    request: {}
                    expect: {}
                  - name: beside the suites' folder
                    policy: ../policies/inside.yaml
                    request: {}
                    expect: {}
                """.formatted(secret.toAbsolutePath()));

        SuiteException e = refused(suite);

        String all = problems(e);
        assertTrue(all.contains(suite + ":3:5: $.tests[0].policy: an absolute path: name the policy file relative to the suite file"), all);
        assertTrue(all.contains(suite + ":7:5: $.tests[1].policy: the policy file lies outside the suite's folder tree "
                + temp.resolve("tree").toAbsolutePath()), all);
        assertTrue(all.contains(suite + ":11:5: $.tests[2].policy: the policy file lies outside the suite's folder tree"), all);
        assertEquals(3, e.problems().size(), all);
        assertTrue(!all.contains("secret-content"), all);
    }

    @Test
    void aFileThatIsNotAPolicyIsNamedNotQuoted() throws IOException {
        Path notAPolicy = write("credentials.yaml", "password: hunter2\n");
        Path suite = write("suite.yaml", """
                policy: credentials.yaml
                tests:
                  - name: t
                    request: {}
                    expect: {}
                """);

        String all = problems(refused(suite));

        assertEquals(suite + ":1:1: $.policy: the file " + notAPolicy.toAbsolutePath()
                + " could not be read as a policy: arbiter lint " + notAPolicy.toAbsolutePath() + " shows why", all);
    }

    @Test
    void aSuiteMustBeAnObjectWithANonEmptyTestsList() throws IOException {
        assertTrue(problems(refused(write("list.yaml", "- name: a\n"))).contains("$: array found, object expected"));
        assertTrue(problems(refused(write("none.yaml", "description: x\n"))).contains("$.tests: required field 'tests' is missing"));
        assertTrue(problems(refused(write("empty.yaml", "tests: []\n"))).contains("empty.yaml:1:1: $.tests: must have at least 1 items but found 0"),
                problems(refused(temp.resolve("empty.yaml"))));
        assertTrue(problems(refused(write("map.yaml", "tests: {a: 1}\n"))).contains("$.tests: object found, array expected"));
    }

    @Test
    void unreadableDocumentsAreRefusedWhereTheyGoWrong() throws IOException {
        Path invalidUtf8 = temp.resolve("utf8.yaml");
        Files.write(invalidUtf8, new byte[]{'t', 'e', 's', 't', 's', ':', ' ', '[', '"', (byte) 0xC3, (byte) 0x28, '"', ']', '\n'});
        SuiteException utf8 = refused(invalidUtf8);
        assertEquals(1, utf8.problems().get(0).line(), problems(utf8));

        Path deep = write("deep.json", "{\"tests\": " + "[".repeat(5_000) + "]".repeat(5_000) + "}");
        SuiteException tooDeep = refused(deep);
        assertTrue(tooDeep.problems().get(0).line() != null, problems(tooDeep));

        Path broken = write("broken.yaml", "tests:\n  - name: [unclosed\n");
        Problem problem = refused(broken).problems().get(0);
        assertTrue(problem.line() != null && problem.line() >= 2, problem.toString());
    }

    @Test
    void hostileValuesAreRefusedLocated() throws IOException {
        Path longNumber = write("number.json", "{\"tests\": [\n {\"name\": \"n\", \"request\": {},\n  \"expect\": {\"score\": 1e999999999}}]}");
        Problem number = refused(longNumber).problems().get(0);
        assertEquals(3, number.line(), number.toString());
        assertEquals("$.tests[0].expect.score", number.path(), number.toString());

        Path aliases = write("aliases.yaml", "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                + "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\ntests: [{name: t, request: {x: *c}, expect: {}}]\n");
        Path surrogate = write("surrogate.yaml", "tests:\n  - name: \"lone \\uD800\"\n    request: {}\n    expect: {}\n");
        Problem lone = refused(surrogate).problems().get(0);
        assertEquals("$.tests[0].name", lone.path(), lone.toString());
        assertTrue(lone.problem().contains("unpaired UTF-16 surrogate"), lone.toString());

        SuiteException bomb = refused(aliases);
        assertTrue(bomb.problems().get(0).line() != null, problems(bomb));
    }

    @Test
    void aFileOverTheLimitIsRefusedUnread() throws IOException {
        Path huge = temp.resolve("huge.yaml");
        try (var channel = java.nio.channels.FileChannel.open(huge, java.nio.file.StandardOpenOption.CREATE_NEW,
                java.nio.file.StandardOpenOption.WRITE)) {
            channel.write(java.nio.ByteBuffer.wrap(new byte[]{'#'}), TestSuites.MAX_FILE_BYTES); // sparse
        }
        assertTrue(problems(refused(huge)).contains("$: the file is larger than 16 MiB"), problems(refused(huge)));
    }

    @Test
    void missingPathsAndFoldersWithoutSuitesAreRefused() throws IOException {
        assertTrue(problems(refused(temp.resolve("nowhere"))).contains("no such file or folder"));
        Files.createDirectories(temp.resolve("empty"));
        assertTrue(problems(refused(temp.resolve("empty"))).contains("holds no *.yaml, *.yml or *.json file"));
    }
}
