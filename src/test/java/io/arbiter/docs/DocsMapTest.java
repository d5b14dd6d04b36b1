package io.arbiter.docs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The docs written for each reader: a short README, links that resolve, nothing a reader does not have. */
class DocsMapTest {

    private static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s]+)(#[^)]*)?\\)");
    private static final Pattern PRIVATE_REFERENCE = Pattern.compile("(?i)\\bseed \\d{3}\\b|\\bissues? \\(?\\d+|\\.\\./shared/contract");

    private static List<Path> userDocs() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(Path.of("README.md"), Path.of("CONTRIBUTING.md")));
        try (Stream<Path> files = Files.list(Path.of("docs"))) {
            files.filter(file -> file.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        return docs;
    }

    @Test
    void theReadmeIsShort() throws IOException {
        long lines = Files.readAllLines(Path.of("README.md")).size();
        assertTrue(lines <= 150, "README.md has " + lines + " lines; the rest belongs in docs/ for its reader");
    }

    @Test
    void ciRunsTheReadmesTestCommand() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        Matcher block = Pattern.compile("Run the tests[^`]*```sh\\n(.*?)\\n```", Pattern.DOTALL).matcher(readme);
        assertTrue(block.find(), "the README shows how to run the tests");
        String command = block.group(1).strip();
        assertTrue(Files.readAllLines(Path.of(".ci/run")).contains(command), ".ci/run does not run `" + command + "`");
    }

    @Test
    void everyRelativeLinkResolves() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path doc : userDocs()) {
            Matcher link = LINK.matcher(Files.readString(doc));
            while (link.find()) {
                String target = link.group(1);
                if (target.contains("://") || target.startsWith("mailto:")) {
                    continue;
                }
                Path resolved = doc.toAbsolutePath().getParent().resolve(target).normalize();
                if (!Files.exists(resolved)) {
                    broken.add(doc + ": " + target);
                }
            }
        }
        assertEquals(List.of(), broken);
    }

    @Test
    void userDocsNameNothingTheReaderDoesNotHave() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path doc : userDocs()) {
            List<String> lines = Files.readAllLines(doc);
            for (int i = 0; i < lines.size(); i++) {
                if (PRIVATE_REFERENCE.matcher(lines.get(i)).find()) {
                    found.add(doc + ":" + (i + 1) + ": " + lines.get(i).strip());
                }
            }
        }
        assertEquals(List.of(), found, "seed and issue numbers, and the shared contract, are not the reader's");
    }

    @Test
    void analystNotesInTheTablesNameNoJavaClass() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> tables = Files.walk(Path.of("decision-tables"))) {
            for (Path table : tables.filter(file -> file.toString().endsWith(".csv")).sorted().toList()) {
                for (String line : Files.readAllLines(table)) {
                    if (line.startsWith("Notes,") && Pattern.compile("\\b[A-Z][a-z]+[A-Z][A-Za-z]*\\b(Facts|Decider|Type)\\b|\\w+Facts\\b|io\\.arbiter|\\.java\\b").matcher(line).find()) {
                        found.add(table + ": " + line);
                    }
                }
            }
        }
        assertEquals(List.of(), found);
    }
}
