package io.arbiter.http;

import io.arbiter.decision.Settings;
import io.arbiter.testing.HeadlessChromium;
import io.arbiter.testing.TestFiles;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The explorer's Decision tables view end to end (issue 48), in Debian's headless Chromium as {@link ExplorerBrowserIT}:
 * an analyst moves the backend-priority table's PATH row below the PATTERN rows with the keyboard, sees the decisions
 * it changes and the rows that fired before and after, applies it, and a new decision is decided by PATTERN; an
 * invalid value is marked on its cell with the allowed values, and Apply is disabled. The server serves copies of
 * the rule folders, so an applied table is written to its file.
 */
class TablesBrowserIT {

    private static final String TOKEN = "tables-s3cret";
    private static final Path SCREENSHOTS = Path.of("target", "explorer-screenshots");
    private static final String CREDENTIALS_0_2 = "{\"typeRefs\": [{\"path\": \"cap.type.aws.auth.credentials\", \"revision\": \"0.2.0\"}]}";
    private static final String TABLE = "#/tables?type=capact.backend&name=backend-priority";

    private static Path dir;
    private static ArbiterServer server;
    private static WebDriver driver;
    private static HeadlessChromium browser;
    private static WebDriverWait wait;
    private static String base;
    private static HttpTestClient client;

    @BeforeAll
    static void start() throws Exception {
        HeadlessChromium.assumeInstalled();
        dir = Files.createTempDirectory("arbiter-tables-it-");
        Path rules = TestFiles.copyTree(Path.of("rules"), dir.resolve("rules"));
        Path tables = TestFiles.copyTree(Path.of("decision-tables"), dir.resolve("decision-tables"));
        TestFiles.copyTree(Path.of("src/test/resources/rules"), rules);
        TestFiles.copyTree(Path.of("src/test/resources/decision-tables"), tables);
        // seed 001's backend rules: an exact path and a pattern both have a backend for the credentials
        Path policy = Files.writeString(dir.resolve("policy.yaml"), """
                typeInstance:
                  rules:
                    - typeRef: {path: cap.type.aws.auth.credentials, revision: 0.1.0}
                      backend: {id: 31bb8355-10d7-49ce-a739-4554d8a40b63}
                    - typeRef: {path: cap.type.aws.auth.credentials}
                      backend: {id: 00fd161c-01bd-47a6-9872-47490e11f996}
                    - typeRef: {path: cap.type.aws.*}
                      backend: {id: 31bb8355-10d7-49ce-a739-4554d8a40b63}
                """);
        server = TestServers.start(new ServerOptions("127.0.0.1", 0, Settings.embedded().withPolicyFile(policy)
                .withRules(rules, tables), TOKEN, TestServers.SHUTDOWN_GRACE));
        base = "http://127.0.0.1:" + server.port();
        client = new HttpTestClient(server.port());
        browser = HeadlessChromium.start(1400);
        driver = browser.driver();
        wait = new WebDriverWait(driver, Duration.ofSeconds(90));
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterAll
    static void stop() throws IOException {
        if (browser != null) {
            browser.close();
        }
        if (server != null) {
            server.stop();
        }
        if (dir != null) {
            TestFiles.deleteTree(dir);
        }
    }

    @BeforeEach
    void freshTab() {
        driver.get(base + "/ui/");
        ((JavascriptExecutor) driver).executeScript("sessionStorage.clear()");
    }

    @Test
    void anInvalidValueIsMarkedOnItsCellWithTheAllowedValuesAndApplyIsDisabled() {
        driver.get(base + "/ui/" + TABLE);
        By cell = By.cssSelector("input[aria-label='Exact path without revision: Candidate level']");
        wait.until(ExpectedConditions.elementToBeClickable(cell));
        waitForText(By.id("table-lint-state"), "No problems");
        assertEquals("allowed-2", driver.findElement(cell).getAttribute("list"), "the allowed values are offered in place");

        WebElement input = driver.findElement(cell);
        input.sendKeys(Keys.END, "S");

        wait.until(driver -> "true".equals(driver.findElement(cell).getAttribute("aria-invalid")));
        String problem = driver.findElement(By.id(driver.findElement(cell).getAttribute("aria-describedby"))).getText();
        assertTrue(problem.contains("PATHS") && problem.contains("PATTERN_REVISION"), problem);
        assertFalse(driver.findElement(By.id("table-apply")).isEnabled(), "Apply is disabled while a cell is invalid");
        // the service's lint agrees, at the same cell
        waitForText(By.id("table-problems"), ", column 3: 'PATHS' is not a MatchLevel");
        assertFalse(driver.findElement(By.id("table-apply")).isEnabled());
    }

    @Test
    void movingThePathRowBelowThePatternsShowsTheChangedDecisionsThenAppliesIt() throws IOException {
        // a recent decision that the PATH row decides
        assertEquals("PATH", client.postJson("/v1/decisions/backend", CREDENTIALS_0_2).json().path("backends").get(0)
                .path("matchedBy").asText());
        driver.get(base + "/ui/" + TABLE);
        By moveDown = By.cssSelector("button[aria-label='Move Exact path without revision down']");
        wait.until(ExpectedConditions.elementToBeClickable(moveDown));

        // with the keyboard: the focus follows the moved row
        driver.findElement(moveDown).sendKeys(Keys.ENTER);
        wait.until(driver -> driver.findElement(By.cssSelector("#table-grid tbody tr:nth-child(3) input")).getAttribute("value")
                .equals("Exact path without revision"));
        driver.switchTo().activeElement().sendKeys(Keys.ENTER);
        wait.until(driver -> driver.findElement(By.cssSelector("#table-grid tbody tr:nth-child(4) input")).getAttribute("value")
                .equals("Exact path without revision"));
        waitForText(By.id("table-lint-state"), "No problems");

        click(By.id("table-impact"));
        WebElement token = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("token-input")));
        token.sendKeys(TOKEN, Keys.ENTER);
        waitForText(By.id("table-impact-result"), "changed");
        String impact = driver.findElement(By.id("table-impact-changes")).getText();
        assertTrue(impact.contains("PATH") && impact.contains("PATTERN"), impact);
        assertTrue(impact.contains("Exact path without revision"), "the row that fired only before: " + impact);
        screenshot("tables-impact");

        click(By.id("table-apply"));
        waitForText(By.id("table-applied"), "Applied: the table is now revision");
        waitForText(By.id("table-fleet"), "serves the change");
        var decided = client.postJson("/v1/decisions/backend", CREDENTIALS_0_2);
        assertEquals("PATTERN", decided.json().path("backends").get(0).path("matchedBy").asText(), decided.body());
        screenshot("tables-applied");
    }

    private static void click(By by) {
        wait.until(ExpectedConditions.elementToBeClickable(by)).click();
    }

    private static void waitForText(By by, String text) {
        wait.until(ExpectedConditions.textToBePresentInElementLocated(by, text));
    }

    private static void screenshot(String name) throws IOException {
        Dimension window = driver.manage().window().getSize();
        long height = (Long) ((JavascriptExecutor) driver).executeScript("return document.documentElement.scrollHeight");
        driver.manage().window().setSize(new Dimension(window.getWidth(), (int) Math.min(2_400, Math.max(height + 140, window.getHeight()))));
        try {
            File shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
            Files.copy(shot.toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        } finally {
            driver.manage().window().setSize(window);
        }
    }
}
