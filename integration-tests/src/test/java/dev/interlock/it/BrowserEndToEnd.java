package dev.interlock.it;

import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.openqa.selenium.WebDriver;

/**
 * An end-to-end test that also drives the web UI in a real Chromium: one browser per class, opened after the runtime
 * and closed before it stops. {@code browser} is null where there is none ({@link BrowserWaits#headlessChromium}:
 * the browser part is skipped locally, and fails under {@code CI=true}).
 */
abstract class BrowserEndToEnd extends EndToEnd {

    /** How long a wait for the page lasts unless a class says otherwise ({@link #uiWait}). */
    static final Duration UI_WAIT = Duration.ofSeconds(60);

    WebDriver browser;
    BrowserWaits waits;

    /** How long a wait for the page lasts; a class whose pages are heavy waits longer. */
    Duration uiWait() {
        return UI_WAIT;
    }

    /** What a class does with the browser once it is open (its zone, a folder for screenshots); nothing by default. */
    void browserOpened() throws IOException {}

    @BeforeAll
    void openBrowser() throws IOException {
        browser = BrowserWaits.headlessChromium();
        if (browser != null) {
            waits = new BrowserWaits(browser, uiWait());
            browserOpened();
        }
    }

    @AfterAll
    void closeBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }
}
