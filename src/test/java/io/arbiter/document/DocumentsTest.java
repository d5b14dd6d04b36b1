package io.arbiter.document;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Untrusted documents: malformed text, alias bombs, deep nesting and several documents are refused with a location. */
class DocumentsTest {

    private static DocumentException refusedYaml(String text) {
        return assertThrows(DocumentException.class, () -> Documents.parseYaml(text.getBytes(StandardCharsets.UTF_8)));
    }

    private static DocumentException refusedJson(String text) {
        return assertThrows(DocumentException.class, () -> Documents.parseJson(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** Raw bytes written as ISO-8859-1 text, so that {@code "\u00c0"} is the byte 0xC0. */
    private static byte[] bytes(String latin1) {
        return latin1.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** The one problem of a refusal: its path, line and column, and no library wording in it or the message. */
    private static Problem located(DocumentException e, String path, int line, int column) {
        assertEquals(1, e.problems().size(), e.problems().toString());
        Problem problem = e.problems().get(0);
        assertEquals(path, problem.path(), problem.toString());
        assertEquals(line, problem.line(), problem.toString());
        assertEquals(column, problem.column(), problem.toString());
        for (String internal : new String[] {"Jackson", "StreamReadConstraints", "JSONPath", "org.yaml", "Exception",
                "null)", "65"}) {
            assertFalse(e.getMessage().contains(internal), e.getMessage());
        }
        return problem;
    }

    @Test
    void anAcceptedJsonDocumentIsLocatedWhenAProblemInItIsReported() {
        LocatedDocument document = Documents.parseJson(bytes("{\"a\": {\n  \"b\": [1,\n    {\"c\": true}]}}"));

        Problem problem = Problem.at("$.a.b[1].c", "wrong").locatedBy(document.locations());

        assertEquals(3, problem.line(), problem.toString());
        assertEquals(6, problem.column(), "where its key starts: " + problem);
        assertEquals(3, Problem.at("$.a.b[1].missing", "absent").locatedBy(document.locations()).line(),
                "the nearest ancestor that has a location");
    }

    @Test
    void anAcceptedYamlDocumentIsLocatedWhenAProblemInItIsReported() {
        LocatedDocument document = Documents.parseYaml(bytes("a:\n  b:\n    - 1\n    - c: true\n"));

        Problem problem = Problem.at("$.a.b[1].c", "wrong").locatedBy(document.locations());

        assertEquals(4, problem.line(), problem.toString());
        assertEquals(7, problem.column(), problem.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\": \"x\\ud800\"}", "{\"a\": \"\\udc00x\"}", "{\"a\": \"\\ud800\\u0041\"}",
            "{\"a\": \"\\ud800\\ud800\\udc00\"}"})
    void anUnpairedSurrogateEscapeInAStringIsRefusedAtItsPath(String json) {
        Problem problem = located(refusedJson(json), "$.a", 1, 7);

        assertTrue(problem.problem().contains("not valid Unicode"), problem.toString());
    }

    @Test
    void aPairedSurrogateEscapeIsAccepted() {
        LocatedDocument document = Documents.parseJson(bytes("{\"a\": \"\\ud83d\\ude00\"}"));

        assertEquals("\ud83d\ude00", document.tree().path("a").asText());
    }

    @Test
    void anUnpairedSurrogateEscapeInAKeyIsRefusedAtItsObject() {
        Problem problem = located(refusedJson("{\"outer\": {\n  \"\\ud800\": 1}}"), "$.outer", 2, 3);

        assertTrue(problem.problem().contains("key is not valid Unicode"), problem.toString());
    }

    @Test
    void anUnpairedSurrogateEscapeInYamlIsRefused() {
        located(refusedYaml("a: 1\nb: \"\\ud800\"\n"), "$.b", 2, 4);
        located(refusedYaml("a: 1\nb: \"\\U0000dc00\"\n"), "$.b", 2, 4);
    }

    @Test
    void cesuEncodedSurrogateBytesAreRefusedAtTheirPathLineAndColumn() {
        Problem problem = located(assertThrows(DocumentException.class,
                () -> Documents.parseJson(bytes("{\"a\": 1,\n \"b\": [\"x\u00ed\u00a0\u0080\"]}"))), "$.b[0]", 2, 10);

        assertTrue(problem.problem().contains("not valid UTF-8"), problem.toString());
    }

    @Test
    void cesuEncodedSurrogateBytesInAKeyAreRefused() {
        located(assertThrows(DocumentException.class, () -> Documents.parseJson(bytes("{\"\u00ed\u00a0\u0080\": 1}"))),
                "$", 1, 3);
    }

    @Test
    void overlongUtf8IsRefusedNotDecodedAsASlash() {
        Problem problem = located(assertThrows(DocumentException.class,
                () -> Documents.parseJson(bytes("{\"path\": \"cap.\u00c0\u00af\"}"))), "$.path", 1, 15);

        assertTrue(problem.problem().contains("0xC0"), problem.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"\u00e0\u0080\u00af", "\u00f5\u0080\u0080\u0080", "\u00f4\u0090\u0080\u0080", "\u00ff", "\u0080",
            "\u00e2\u0082", "\u0000"})
    void otherInvalidUtf8IsRefusedWithItsLocation(String invalid) {
        located(assertThrows(DocumentException.class, () -> Documents.parseJson(bytes("{\"a\": \"x" + invalid + "\"}"))),
                "$.a", 1, 9);
    }

    @Test
    void invalidUtf8InYamlIsReportedWhereItIsNotAtTheStart() {
        located(assertThrows(DocumentException.class,
                () -> Documents.parseYaml(bytes("a: 1\nlist:\n  - ok\n  - cap.\u00c0\u00af\n"))), "$.list[1]", 4, 9);
        located(assertThrows(DocumentException.class, () -> Documents.parseYaml(bytes("a: 1\nb: x\u00ff\n"))), "$.b", 2, 5);
    }

    @Test
    void aControlCharacterInYamlIsReportedWhereItIs() {
        Problem problem = located(refusedYaml("a: 1\nb: x\u0001y\n"), "$.b", 2, 5);

        assertTrue(problem.problem().contains("U+0001"), problem.toString());
    }

    @Test
    void nestingPastTheLimitNamesTheLimitThePathAndTheLine() {
        String deep = "{\"a\":\n" + "[".repeat(Documents.MAX_DEPTH) + "]".repeat(Documents.MAX_DEPTH) + "}";

        Problem problem = located(refusedJson(deep), "$.a" + "[0]".repeat(Documents.MAX_DEPTH - 1), 2, Documents.MAX_DEPTH);

        assertTrue(problem.problem().contains("limit of 64 levels"), problem.toString());
    }

    @Test
    void nestingUpToTheLimitIsAccepted() {
        String deep = "[".repeat(Documents.MAX_DEPTH) + "]".repeat(Documents.MAX_DEPTH);

        Documents.parseJson(deep.getBytes(StandardCharsets.UTF_8));
        Documents.parseYaml(deep.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void yamlNestingPastTheLimitIsOursToo() {
        String deep = "a: " + "[".repeat(100) + "]".repeat(100);

        Problem problem = located(refusedYaml(deep), "$.a" + "[0]".repeat(Documents.MAX_DEPTH - 1), 1, 67);

        assertTrue(problem.problem().contains("limit of 64 levels"), problem.toString());
    }

    @Test
    void aNumberPastTheDigitLimitIsLocatedAndNamesTheLimit() {
        Problem problem = located(refusedJson("{\"a\": 1,\n \"n\": " + "9".repeat(1001) + "}"), "$.n", 2, 7);

        assertTrue(problem.problem().contains("1000 digits"), problem.toString());
        assertTrue(Documents.parseJson(("[" + "9".repeat(1000) + "]").getBytes(StandardCharsets.UTF_8)).tree().get(0).isBigInteger());
    }

    @ParameterizedTest
    @ValueSource(strings = {"1e999999999", "1e-999999999", "1." + "1111111111" + "e1000", "-1E+1001"})
    void aNumberWhoseExponentMakesItHugeIsRefused(String number) {
        located(refusedJson("{\"n\": " + number + "}"), "$.n", 1, 7);
    }

    @Test
    void aNumberMuchLongerThanTheLimitIsRefusedAtItsPath() {
        Problem problem = located(refusedJson("{\"n\": [" + "9".repeat(20_000) + "]}"), "$.n[0]", 1, 20_008);

        assertTrue(problem.problem().contains("1000 digits"), problem.toString());
    }

    /** JSON allows an empty key; the schemas refuse it where keys are field names, free-form values keep it. */
    @Test
    void anEmptyKeyIsKept() {
        assertEquals(1, Documents.parseJson("{\"a\": {\n \"\": 1}}".getBytes(StandardCharsets.UTF_8)).tree().path("a").path("").asInt());
        assertEquals(1, Documents.parseYaml("a: {'': 1}\n".getBytes(StandardCharsets.UTF_8)).tree().path("a").path("").asInt());
    }

    @Test
    void aYamlAliasIsNamed() {
        DocumentException e = refusedYaml("a: &anchor 1\nb: *anchor\n");

        assertTrue(e.getMessage().contains("alias *anchor"), e.getMessage());
        located(e, "$.b", 2, 4);
    }

    @Test
    void yamlInfinityAndBinaryAreRefusedInOurWords() {
        assertTrue(located(refusedYaml("a: .inf\n"), "$.a", 1, 4).problem().contains("not finite"));
        assertTrue(located(refusedYaml("a: !!binary aGVsbG8=\n"), "$.a", 1, 4).problem().contains("binary"));
    }

    @Test
    void malformedJsonIsLocatedAtTheValueBeingRead() {
        located(refusedJson("{\"a\": {\"b\": 1}, \"c\": [1, fals]}"), "$.c[1]", 1, 31);
        located(refusedJson("{\"a\": tru}"), "$.a", 1, 11);
        located(refusedJson("{\"a\": \"x\u0001\"}"), "$.a", 1, 9);
        Problem end = located(refusedJson("{\"a\": [1, 2"), "$.a[2]", 1, 12);
        assertTrue(end.problem().contains("ends before"), end.toString());
    }

    @Test
    void malformedYamlIsInOurWords() {
        located(refusedYaml("a: 1\nb: [\n\t]\n"), "$.b[0]", 2, 5);
        located(refusedYaml("? [a, b]\n: c\n"), "$", 1, 4);
    }

    @Test
    void malformedJsonNamesLineAndColumn() {
        DocumentException e = assertThrows(DocumentException.class,
                () -> Documents.parseJson("{\n  \"a\": [1, 2,\n}".getBytes(StandardCharsets.UTF_8)));

        Problem problem = e.problems().get(0);
        assertEquals(3, problem.line());
        assertTrue(e.getMessage().startsWith("malformed JSON"), e.getMessage());
    }

    @Test
    void malformedYamlNamesLineAndColumn() {
        DocumentException e = refusedYaml("a: 1\nb: [unclosed\nc: 2\n");

        assertTrue(e.problems().get(0).line() != null, e.problems().toString());
        assertTrue(e.getMessage().startsWith("malformed YAML"), e.getMessage());
    }

    @Test
    void yamlAliasBombIsRefusedNotExpanded() {
        DocumentException e = refusedYaml("""
                a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
                b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
                c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
                d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
                e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
                f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
                """);

        assertTrue(e.getMessage().contains("alias"), e.getMessage());
        assertEquals("$.b[0]", e.problems().get(0).path());
        assertEquals(2, e.problems().get(0).line());
    }

    @Test
    void nestingDeeperThanTheLimitIsRefused() {
        String deep = "[".repeat(Documents.MAX_DEPTH + 10) + "]".repeat(Documents.MAX_DEPTH + 10);

        DocumentException e = assertThrows(DocumentException.class,
                () -> Documents.parseJson(deep.getBytes(StandardCharsets.UTF_8)));

        assertTrue(e.getMessage().contains("nesting"), e.getMessage());
    }

    @Test
    void moreThanOneYamlDocumentIsRefused() {
        DocumentException e = refusedYaml("a: 1\n---\nb: 2\n");

        assertTrue(e.getMessage().contains("exactly one document"), e.getMessage());
    }

    @Test
    void duplicateKeysAreRefused() {
        DocumentException e = refusedYaml("a: 1\na: 2\n");

        assertTrue(e.getMessage().contains("duplicate key"), e.getMessage());
        assertEquals(2, e.problems().get(0).line());
    }

    @Test
    void emptyBodyIsRefused() {
        DocumentException e = assertThrows(DocumentException.class, () -> Documents.parseJson(new byte[0]));

        assertTrue(e.getMessage().contains("empty"), e.getMessage());
    }

    @Test
    void locationsPointAtEveryPath() {
        LocatedDocument document = Documents.parseYaml("""
                interface:
                  rules:
                    - interface: {path: cap.*}
                      oneOf: []
                """.getBytes(StandardCharsets.UTF_8));

        assertEquals(3, document.locations().nearest("$.interface.rules[0].interface.path").line());
        assertEquals(4, document.locations().nearest("$.interface.rules[0].oneOf").line());
        assertEquals(4, document.locations().nearest("$.interface.rules[0].oneOf[7].deeper").line());
    }
}
