package dev.interlock.it;

import java.io.IOException;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.openqa.selenium.By;
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

    /**
     * Opens a view of the UI ({@code #/…}) and waits until the page has rendered it. Going from one view to another is
     * a hash change, not a load: until the new view's reads come back the page still shows the one before, whose rows
     * a read would take for the new view's. The UI stamps the hash it last rendered on {@code #view}
     * ({@code data-shown}).
     */
    void open(String hash) {
        browser.get(rt.apiEndpoint() + "/ui/" + hash);
        awaitPage(
                "the page's render of " + hash,
                () -> hash.equals(browser.findElement(By.id("view")).getAttribute("data-shown")));
    }

    /** Waits for what the page shows ({@link BrowserWaits#until}); a class may add what to keep when it fails. */
    void awaitPage(String what, BooleanSupplier condition) {
        waits.until(what, condition);
    }

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
