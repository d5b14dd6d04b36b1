package io.arbiter.http;

import io.arbiter.testing.HeadlessChromium;
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
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The decision explorer end to end: Debian's headless Chromium, driven through its chromedriver, against a server on a
 * free port, clicking through every view and checking what it shows. Skipped where the browser is not installed.
 * Each view's screenshot is written to target/explorer-screenshots/ (the README's are copied from there).
 */
class ExplorerBrowserIT {

    private static final String TOKEN = "explorer-s3cret";
    private static final String POSTGRES = "cap.interface.database.postgresql.install";
    private static final Path SCREENSHOTS = Path.of("target", "explorer-screenshots");

    private static ArbiterServer server;
    private static WebDriver driver;
    private static HeadlessChromium browser;
    private static WebDriverWait wait;
    private static String base;

    @BeforeAll
    static void start() throws Exception {
        HeadlessChromium.assumeInstalled();
        server = TestServers.embedded(TOKEN);
        base = "http://127.0.0.1:" + server.port();
        browser = HeadlessChromium.start(1280);
        driver = browser.driver();
        wait = new WebDriverWait(driver, Duration.ofSeconds(60));
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
    }

    @BeforeEach
    void freshTab() {
        driver.get(base + "/ui/");
        ((JavascriptExecutor) driver).executeScript("sessionStorage.clear()");
    }

    @Test
    void theCatalogShowsEveryInterfaceDecidedUnderTheLivePolicyAndOpensOne() throws IOException {
        int interfaces = new HttpTestClient(server.port()).get("/v1/catalog").json().get("interfaces").size();
        waitForText(By.cssSelector("main .status"), interfaces + " of " + interfaces + " decided");

        assertEquals(interfaces, driver.findElements(By.cssSelector("#catalog tbody tr")).size());
        WebElement postgres = driver.findElement(By.cssSelector("#catalog tr[data-interface='" + POSTGRES + "']"));
        assertEquals("SELECTED", postgres.findElement(By.cssSelector(".outcome")).getText());
        assertEquals("cap.implementation.bitnami.postgresql.install:0.1.0", postgres.findElement(By.cssSelector(".selected")).getText());
        assertTrue(postgres.findElement(By.cssSelector(".rule")).getText().startsWith("cap.*"), postgres.getText());
        screenshot("catalog");

        postgres.findElement(By.tagName("a")).click();
        waitForText(By.id("outcome"), "SELECTED");
        assertTrue(driver.getCurrentUrl().contains("#/decision?path=" + POSTGRES), driver.getCurrentUrl());
        assertEquals(POSTGRES, driver.findElement(By.id("interface-path")).getAttribute("value"));
    }

    @Test
    void aDecisionIsExplainedAndTheActionPolicyEditorReDecidesAsYouType() throws IOException {
        driver.get(base + "/ui/#/decision?path=" + POSTGRES);
        waitForText(By.id("outcome"), "SELECTED");

        assertEquals("cap.implementation.bitnami.postgresql.install:0.1.0", driver.findElement(By.id("selected")).getText());
        WebElement chosen = driver.findElement(By.cssSelector(".item.winner"));
        // the fixture catalog: four Implementations, three of which need an injected credential
        assertTrue(chosen.getText().contains("Matched (1 of 4): cap.implementation.bitnami.postgresql.install:0.1.0"), chosen.getText());
        List<WebElement> rejected = chosen.findElements(By.cssSelector(".rejected-list li"));
        assertEquals(3, rejected.size(), chosen.getText());
        assertEquals("cap.implementation.aws.rds.postgresql.install:0.1.0: requirement cap.type.aws.auth.credentials:0.1.0 "
                + "(alias aws-credentials) needs an injected TypeInstance", rejected.get(0).getText());
        assertTrue(driver.findElement(By.id("required-typeinstances")).getText().contains("helm-storage"));
        assertTrue(driver.findElement(By.id("backends-table")).getText().contains("DEFAULT_INJECT"));

        // the timeline: phases in firing order, each firing naming its file and line, or its table and row
        List<String> phases = driver.findElements(By.cssSelector(".timeline > .phase")).stream()
                .map(phase -> phase.getAttribute("data-phase")).toList();
        assertTrue(phases.indexOf("rule-key") >= 0 && phases.indexOf("rule-key") < phases.indexOf("matching"), phases.toString());
        WebElement catchAll = firing("Catch-all cap.*");
        assertTrue(catchAll.getText().contains("decision-tables/implementation/rule-key-precedence.drl.csv row 12"), catchAll.getText());
        WebElement matching = firing("Implementation matches a oneOf item when no reason rejects the trial");
        assertTrue(matching.getText().matches("(?s).*rules/implementation/20-matching\\.drl:\\d+.*"), matching.getText());
        screenshot("decision");

        // the editor: an action policy that denies this Interface re-decides without a click
        WebElement editor = driver.findElement(By.id("action-policy"));
        editor.sendKeys("interface:\n  rules:\n    - interface: {path: " + POSTGRES + "}\n      oneOf: []");
        waitForText(By.id("outcome"), "DENIED");
        assertTrue(driver.findElement(By.id("rule-key")).getText().startsWith(POSTGRES), driver.findElement(By.id("rule-key")).getText());

        // an invalid one: the contract's error body, located in the editor's own lines
        editor.clear();
        editor.sendKeys("interface:\n  rules:\n    - interface: {path: 42}\n      oneOf: []");
        WebElement error = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#decision-result .error")));
        assertTrue(error.getText().contains("INVALID_POLICY") || error.getText().contains("INVALID_REQUEST"), error.getText());
        assertTrue(error.getText().contains("$.actionPolicy.interface.rules[0].interface.path"), error.getText());
        assertTrue(error.getText().contains("editor line 3"), error.getText());
    }

    @Test
    void theDependencyGraphHighlightsPendingTemplatesWithTheirBlockersAndCyclesInRed() throws IOException {
        click(By.linkText("Dependencies"));
        click(By.id("dependencies-example"));
        wait.until(driver -> !driver.findElement(By.id("dependencies-request")).getAttribute("value").isBlank());
        click(By.id("dependencies-decide"));
        WebElement template = wait.until(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("#graph g[data-node='T:policies.app/0']")));
        assertTrue(template.getAttribute("class").contains("PENDING"), template.getAttribute("class"));
        assertNotNull(driver.findElement(By.cssSelector("#graph path.unmet[data-from='T:policies.app/0'][data-to='X:Policy policies.setup']")));
        assertTrue(driver.findElement(By.id("pending-list")).getText().contains("policies.app / app-config waits on Policy policies.setup"),
                driver.findElement(By.id("pending-list")).getText());
        assertEquals("No dependency cycle.", driver.findElement(By.id("cycle-list")).getText());
        screenshot("dependencies");

        String cycle = """
                {"policies": [
                  {"name": "a", "namespace": "policies", "dependencies": [{"apiVersion": "policy.open-cluster-management.io/v1",
                    "kind": "Policy", "name": "b", "compliance": "Compliant"}], "policyTemplates": [{"name": "a-config", "kind": "ConfigurationPolicy"}]},
                  {"name": "b", "namespace": "policies", "dependencies": [{"apiVersion": "policy.open-cluster-management.io/v1",
                    "kind": "Policy", "name": "a", "compliance": "Compliant"}], "policyTemplates": [{"name": "b-config", "kind": "ConfigurationPolicy"}]}]}
                """;
        setValue(By.id("dependencies-request"), cycle);
        click(By.id("dependencies-decide"));
        waitForText(By.id("cycle-list"), "policies.a → policies.b → policies.a");
        List<WebElement> red = driver.findElements(By.cssSelector("#graph path.edge.cycle"));
        assertEquals(List.of("T:policies.a/0>P:policies.b", "T:policies.b/0>P:policies.a"),
                red.stream().map(e -> e.getAttribute("data-from") + ">" + e.getAttribute("data-to")).sorted().toList());
        assertTrue(driver.findElement(By.cssSelector("#graph g[data-node='P:policies.a']")).getAttribute("class").contains("cycle"));
        screenshot("dependencies-cycle");
    }

    @Test
    void theRolloutGridShowsEachClusterByGroupWithWhatRollsOutNow() throws IOException {
        click(By.linkText("Rollout"));
        click(By.id("rollout-example"));
        wait.until(driver -> !driver.findElement(By.id("rollout-request")).getAttribute("value").isBlank());
        click(By.id("rollout-decide"));
        waitForText(By.id("aggregated"), "Progressing");

        List<WebElement> rows = driver.findElements(By.cssSelector("#grid tbody tr"));
        assertEquals(2, rows.size());
        assertTrue(rows.get(0).getText().startsWith("canary #0"), rows.get(0).getText());
        WebElement c5 = driver.findElement(By.cssSelector("#grid td[data-cluster='c5']"));
        assertTrue(c5.getAttribute("class").contains("Progressing") && c5.getAttribute("class").contains("now"), c5.getAttribute("class"));
        WebElement c4 = driver.findElement(By.cssSelector("#grid td[data-cluster='c4']"));
        assertTrue(c4.getAttribute("class").contains("TimeOut"), c4.getAttribute("class"));
        WebElement c6 = driver.findElement(By.cssSelector("#grid td[data-cluster='c6']"));
        assertFalse(c6.getAttribute("class").contains("now"), c6.getAttribute("class"));
        assertTrue(driver.findElement(By.id("to-rollout")).getText().contains("c5"));
        assertTrue(driver.findElement(By.id("timed-out")).getText().contains("c4"));
        assertTrue(driver.findElement(By.id("removed")).getText().contains("c9"));
        assertEquals("not breached", driver.findElement(By.id("breach")).getText());
        assertEquals("in 570 s (at 2026-01-01T00:19:30.000Z)", driver.findElement(By.id("recheck")).getText());
        screenshot("rollout");

        // a refused request: the contract's error with its location
        setValue(By.id("rollout-request"), "{\"clusters\": [{\"name\": \"c1\", \"status\": \"Weird\"}]}");
        click(By.id("rollout-decide"));
        WebElement error = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#rollout-result .error")));
        assertTrue(error.getText().contains("400 INVALID_REQUEST"), error.getText());
        assertTrue(error.getText().contains("$.clusters[0].status"), error.getText());
    }

    @Test
    void aDecisionIsLookedUpByIdAndAnUnknownIdIsShownAsTheServiceAnswered() throws IOException {
        driver.get(base + "/ui/#/decision?path=" + POSTGRES);
        WebElement id = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("decision-id")));
        String decisionId = id.getText();
        id.click();
        waitForText(By.cssSelector("#record"), decisionId);
        assertTrue(driver.findElement(By.id("record")).getText().contains("/v1/decisions/implementation")
                || driver.findElement(By.id("record")).getText().contains("implementation"), driver.findElement(By.id("record")).getText());
        waitForText(By.id("outcome"), "SELECTED");
        screenshot("lookup");

        WebElement input = driver.findElement(By.id("decision-id-input"));
        input.clear();
        input.sendKeys("no-such-decision", Keys.ENTER);
        WebElement error = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#lookup-result .error")));
        assertTrue(error.getText().contains("404 NOT_FOUND"), error.getText());
        assertTrue(error.getText().contains("no-such-decision"), error.getText());
    }

    @Test
    void theAdminTokenIsAskedOnlyForAnAdminActionAndKeptForTheTabOnly() throws IOException {
        click(By.linkText("Live policy"));
        wait.until(driver -> !driver.findElement(By.id("policy-text")).getAttribute("value").isBlank());
        click(By.id("validate-policy"));
        waitForText(By.id("policy-result"), "Valid.");
        assertFalse(driver.findElement(By.id("token-dialog")).isDisplayed(), "validating needs no token");

        WebElement text = driver.findElement(By.id("policy-text"));
        String live = text.getAttribute("value");
        setValue(By.id("policy-text"), "interface:\n  rules:\n    - interface: {path: 42}\n");
        click(By.id("validate-policy"));
        waitForText(By.id("policy-problems"), "$.interface.rules[0].interface.path");
        assertTrue(driver.findElement(By.id("policy-problems")).getText().contains("3:"), driver.findElement(By.id("policy-problems")).getText());

        setValue(By.id("policy-text"), live);
        click(By.id("replace-policy"));
        WebElement token = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("token-input")));
        assertEquals(token, driver.switchTo().activeElement(), "the token field has the focus");
        screenshot("policy-token");
        token.sendKeys("wrong", Keys.ENTER);
        // a refused token is forgotten and asked for again
        wait.until(driver -> driver.findElement(By.id("token-dialog")).isDisplayed()
                && driver.findElement(By.id("token-input")).getAttribute("value").isEmpty());
        // issue 45: and says why, and what to enter instead
        String refused = driver.findElement(By.id("token-error")).getText();
        assertTrue(refused.startsWith("The server refused that token") && refused.contains("ARBITER_ADMIN_TOKEN"), refused);
        driver.findElement(By.id("token-input")).sendKeys(TOKEN, Keys.ENTER);
        waitForText(By.id("policy-replaced"), "Replaced: the live policy is now revision");
        assertEquals(TOKEN, ((JavascriptExecutor) driver).executeScript("return sessionStorage.getItem('arbiter.adminToken')"));
        assertNull(((JavascriptExecutor) driver).executeScript("return localStorage.getItem('arbiter.adminToken')"));
        assertTrue(driver.findElement(By.id("token-state")).isDisplayed());

        click(By.id("forget-token"));
        assertNull(((JavascriptExecutor) driver).executeScript("return sessionStorage.getItem('arbiter.adminToken')"));
        assertFalse(driver.findElement(By.id("token-state")).isDisplayed());
    }

    @Test
    void theTimelineNamesCompactFirings() {
        // issue 26's shape: firings without name and package
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(60));
        Object shown = ((JavascriptExecutor) driver).executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                import('/ui/timeline.js').then(async (timeline) => {
                  const parts = await timeline.firingsSection({
                    firedRules: [{rule: 'io.arbiter.rules.implementation.Catch-all cap.*', order: 1, facts: ['rule-key cap.*']}]});
                  const main = document.getElementById('view');
                  main.replaceChildren(...parts);
                  done(main.innerText);
                }).catch((error) => done('failed: ' + error));
                """);
        String text = String.valueOf(shown);
        assertTrue(text.contains("#1 Catch-all cap.* decision-tables/implementation/rule-key-precedence.drl.csv row 12"), text);
        assertTrue(text.contains("facts: rule-key cap.*"), text);
    }

    @Test
    void theViewsAreReachedWithTheKeyboard() {
        // Tab from the top of the page: the skip link, then the navigation's links, each a real link
        WebElement body = driver.findElement(By.tagName("body"));
        body.sendKeys(Keys.TAB);
        assertEquals("Skip to content", driver.switchTo().activeElement().getText());
        for (int i = 0; i < 4; i++) {
            driver.switchTo().activeElement().sendKeys(Keys.TAB);
        }
        assertEquals("Rollout", driver.switchTo().activeElement().getText());
        driver.switchTo().activeElement().sendKeys(Keys.ENTER);
        waitForText(By.tagName("h1"), "Rollout");
        assertEquals("view", driver.switchTo().activeElement().getAttribute("id"), "the new view has the focus");
        assertEquals("page", driver.findElement(By.linkText("Rollout")).getAttribute("aria-current"));
        // every form control of the view has a label
        for (WebElement control : driver.findElements(By.cssSelector("main textarea, main input"))) {
            assertFalse(driver.findElements(By.cssSelector("label[for='" + control.getAttribute("id") + "']")).isEmpty(),
                    "a label for " + control.getAttribute("id"));
        }
    }

    private static WebElement firing(String name) {
        return driver.findElements(By.cssSelector(".firing")).stream()
                .filter(firing -> firing.findElement(By.cssSelector(".rule-name")).getText().equals(name))
                .findFirst().orElseThrow(() -> new AssertionError("no firing of '" + name + "'"));
    }

    private static void click(By by) {
        wait.until(ExpectedConditions.elementToBeClickable(by)).click();
    }

    private static void waitForText(By by, String text) {
        wait.until(ExpectedConditions.textToBePresentInElementLocated(by, text));
    }

    /** Sets a long text at once (typing it would take seconds) and tells the page, as typing would. */
    private static void setValue(By by, String value) {
        WebElement element = driver.findElement(by);
        ((JavascriptExecutor) driver).executeScript(
                "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}))", element, value);
    }

    /** The whole page (up to 2,400 pixels high), as the README shows it. */
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
