package io.arbiter.document;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Untrusted documents: malformed text, alias bombs, deep nesting and several documents are refused with a location. */
class DocumentsTest {

    private static DocumentException refusedYaml(String text) {
        return assertThrows(DocumentException.class, () -> Documents.parseYaml(text.getBytes(StandardCharsets.UTF_8)));
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

        assertTrue(e.getMessage().toLowerCase().contains("nesting") || e.getMessage().toLowerCase().contains("depth"), e.getMessage());
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
