package io.arbiter.suite;

import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test results as JUnit XML, the format CI servers read: one {@code testsuite} per suite file, one {@code testcase}
 * per test, a {@code failure} holding the diff of a failed one. The JDK's StAX writer escapes markup; characters
 * XML 1.0 cannot hold at all (control characters a YAML string may carry) become U+FFFD.
 */
public final class JUnitReport {

    private JUnitReport() {
    }

    public static void write(List<TestResult> results, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (OutputStream out = Files.newOutputStream(file)) {
            write(results, out);
        }
    }

    public static void write(List<TestResult> results, OutputStream out) throws IOException {
        Map<Path, List<TestResult>> byFile = new LinkedHashMap<>();
        results.forEach(result -> byFile.computeIfAbsent(result.test().file(), f -> new java.util.ArrayList<>()).add(result));
        try {
            XMLStreamWriter xml = XMLOutputFactory.newFactory().createXMLStreamWriter(out, StandardCharsets.UTF_8.name());
            xml.writeStartDocument(StandardCharsets.UTF_8.name(), "1.0");
            xml.writeCharacters("\n");
            xml.writeStartElement("testsuites");
            xml.writeAttribute("tests", String.valueOf(results.size()));
            xml.writeAttribute("failures", String.valueOf(results.stream().filter(r -> !r.passed()).count()));
            for (Map.Entry<Path, List<TestResult>> suite : byFile.entrySet()) {
                xml.writeCharacters("\n  ");
                xml.writeStartElement("testsuite");
                xml.writeAttribute("name", clean(suite.getKey().toString()));
                xml.writeAttribute("tests", String.valueOf(suite.getValue().size()));
                xml.writeAttribute("failures", String.valueOf(suite.getValue().stream().filter(r -> !r.passed()).count()));
                xml.writeAttribute("errors", "0");
                xml.writeAttribute("skipped", "0");
                for (TestResult result : suite.getValue()) {
                    xml.writeCharacters("\n    ");
                    xml.writeStartElement("testcase");
                    xml.writeAttribute("name", clean(result.test().name()));
                    xml.writeAttribute("classname", clean(suite.getKey().toString()));
                    if (!result.passed()) {
                        xml.writeCharacters("\n      ");
                        xml.writeStartElement("failure");
                        xml.writeAttribute("message", clean(result.mismatches().size() == 1 ? result.mismatches().get(0)
                                : result.mismatches().size() + " differences from what was expected"));
                        xml.writeAttribute("type", "mismatch");
                        xml.writeCharacters(clean(String.join("\n", result.mismatches())));
                        xml.writeEndElement();
                        xml.writeCharacters("\n    ");
                    }
                    xml.writeEndElement();
                }
                xml.writeCharacters("\n  ");
                xml.writeEndElement();
            }
            xml.writeCharacters("\n");
            xml.writeEndElement();
            xml.writeCharacters("\n");
            xml.writeEndDocument();
            xml.flush();
            xml.close();
        } catch (XMLStreamException e) {
            throw new IOException("cannot write the JUnit report: " + e.getMessage(), e);
        }
    }

    /** {@code text} with every character XML 1.0 cannot carry replaced by U+FFFD. */
    static String clean(String text) {
        StringBuilder cleaned = new StringBuilder(text.length());
        text.codePoints().forEach(c -> cleaned.appendCodePoint(allowed(c) ? c : 0xFFFD));
        return cleaned.toString();
    }

    private static boolean allowed(int c) {
        return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD)
                || (c >= 0x10000 && c <= 0x10FFFF);
    }
}
