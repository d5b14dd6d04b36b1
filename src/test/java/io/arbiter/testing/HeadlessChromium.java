package io.arbiter.testing;

import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A real headless Chromium for the browser tests, driven through Debian's chromium-driver: the network is closed (no
 * background connections, no component updates) and each browser has a fresh profile, deleted when it quits.
 */
public final class HeadlessChromium implements AutoCloseable {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private final Path profile;
    private final ChromeDriver driver;

    private HeadlessChromium(Path profile, ChromeDriver driver) {
        this.profile = profile;
        this.driver = driver;
    }

    /** Skips the calling test class when Chromium and its driver are not installed. */
    public static void assumeInstalled() {
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "the decision explorer's browser tests need Debian's chromium and chromium-driver "
                        + "(apt-get install -y chromium chromium-driver; .ci/run installs them): skipped");
    }

    /** A browser with a window of {@code width} × 1100 pixels. */
    public static HeadlessChromium start(int width) throws IOException {
        Path profile = Files.createTempDirectory("arbiter-chromium-");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=" + width + ",1100", "--user-data-dir=" + profile);
        // An explicit driver and browser: Selenium Manager has nothing to look up or download.
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        return new HeadlessChromium(profile, new ChromeDriver(service, options));
    }

    public ChromeDriver driver() {
        return driver;
    }

    @Override
    public void close() throws IOException {
        driver.quit();
        TestFiles.deleteTree(profile);
    }
}
