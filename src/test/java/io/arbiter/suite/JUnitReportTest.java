package io.arbiter.suite;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.document.Documents;
import io.arbiter.runtime.Evaluation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The JUnit XML, parsed back: one testsuite per file, a failure with the diff, markup and control characters escaped. */
class JUnitReportTest {

    @TempDir
    Path temp;

    private static TestResult result(String file, String name, String... mismatches) {
        ObjectNode decision = Documents.jsonMapper().createObjectNode().put("outcome", "SELECTED");
        TestCase test = new TestCase(Path.of(file), name, "implementation", decision, decision, null);
        return new TestResult(test, new Evaluation("implementation", decision, List.of()), List.of(mismatches));
    }

    @Test
    void theReportParsesBackWithOneSuitePerFileAndTheDiffOfEachFailure() throws Exception {
        List<TestResult> results = List.of(
                result("a.yaml", "passes <&> \"quoted\""),
                result("a.yaml", "fails\u0001", "$.outcome: expected \"NO_RULE\", actual \"SELECTED\"", "$.x: expected 1, actual absent"),
                result("b.yaml", "alone"));
        Path file = temp.resolve("reports/junit.xml");

        JUnitReport.write(results, file);

        Document xml = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
        Element root = xml.getDocumentElement();
        assertEquals("testsuites", root.getTagName());
        assertEquals("3", root.getAttribute("tests"));
        assertEquals("1", root.getAttribute("failures"));
        NodeList suites = root.getElementsByTagName("testsuite");
        assertEquals(2, suites.getLength());
        Element a = (Element) suites.item(0);
        assertEquals("a.yaml", a.getAttribute("name"));
        assertEquals("2", a.getAttribute("tests"));
        assertEquals("1", a.getAttribute("failures"));
        NodeList cases = a.getElementsByTagName("testcase");
        assertEquals("passes <&> \"quoted\"", ((Element) cases.item(0)).getAttribute("name"));
        assertEquals(0, ((Element) cases.item(0)).getElementsByTagName("failure").getLength());
        assertEquals("fails\uFFFD", ((Element) cases.item(1)).getAttribute("name"));
        Element failure = (Element) ((Element) cases.item(1)).getElementsByTagName("failure").item(0);
        assertEquals("$.outcome: expected \"NO_RULE\", actual \"SELECTED\"\n$.x: expected 1, actual absent", failure.getTextContent());
        assertEquals("2 differences from what was expected", failure.getAttribute("message"));
        assertEquals("0", ((Element) suites.item(1)).getAttribute("failures"));
    }
}
