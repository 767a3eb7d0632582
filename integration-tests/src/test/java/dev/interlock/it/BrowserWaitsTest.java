package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * The browser tests' waits against a page that re-renders the way the web UI does (it replaces its rows on every
 * refresh, and for a moment a row can be gone): a read that meets a re-render is made again, never a failure, and a
 * wait that gives up says what its last poll met instead of claiming a timeout it did not reach.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BrowserWaitsTest {

    /** A one-row table; {@code rerender(gap)} removes the row and draws a new one {@code gap} ms later. */
    private static final String PAGE = """
            <table id="t"><tbody></tbody></table>
            <script>
            let n = 0;
            const body = () => document.querySelector('#t tbody');
            function row() {
              const tr = document.createElement('tr');
              tr.setAttribute('data-pipeline', 'p');
              tr.textContent = 'render ' + (++n);
              return tr;
            }
            function rerender(gap) { body().replaceChildren(); setTimeout(() => body().replaceChildren(row()), gap); }
            function loop(every, gap) { setInterval(() => rerender(gap), every); }
            rerender(0);
            </script>
            """;

    private static final By ROW = By.cssSelector("#t tr[data-pipeline='p']");

    private WebDriver browser;

    @BeforeAll
    void openBrowser() throws IOException {
        browser = BrowserWaits.headlessChromium();
    }

    @AfterAll
    void closeBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @BeforeEach
    void openThePage() {
        assumeTrue(browser != null, "no browser: " + BrowserWaits.CHROMIUM);
        browser.get("data:text/html;charset=utf-8,"
                + URLEncoder.encode(PAGE, StandardCharsets.UTF_8).replace("+", "%20"));
        new BrowserWaits(browser, Duration.ofSeconds(10)).until("the first render", () -> text().equals("render 1"));
    }

    @Test
    void aReadThatMeetsARerenderWhichBrieflyRemovedTheRowIsMadeAgainOnTheNewRow() {
        AtomicInteger reads = new AtomicInteger();
        String read = new BrowserWaits(browser, Duration.ofSeconds(10)).steady(() -> {
            WebElement row = browser.findElement(ROW);
            if (reads.getAndIncrement() == 0) {
                // The page re-renders between finding the row and reading it, and the row is gone for 300 ms.
                js("rerender(300)");
            }
            return row.getText();
        });
        assertThat(read).isEqualTo("render 2");
        assertThat(reads).as("the stale read was made again").hasValueGreaterThanOrEqualTo(2);
    }

    @Test
    void aWaitRidesOutAPageThatReRendersAllTheTime() {
        // A render every 30 ms, each leaving the table empty for 5 ms: many reads meet one, some get through.
        js("loop(30, 5)");
        new BrowserWaits(browser, Duration.ofSeconds(30))
                .until("forty renders", () -> Integer.parseInt(text().substring("render ".length())) >= 40);
    }

    @Test
    void aWaitThatGivesUpNamesTheExceptionItsLastPollMet() {
        assertThatThrownBy(() -> new BrowserWaits(browser, Duration.ofSeconds(1))
                        .until("a row read between renders", () -> {
                            WebElement row = browser.findElement(ROW);
                            js("rerender(0)");
                            return row.getText().equals("never");
                        }))
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("a row read between renders not seen within PT1S")
                .hasMessageContaining("StaleElementReferenceException");
    }

    @Test
    void aPollThatFailsForAnotherReasonIsNotReportedAsATimeout() {
        long start = System.nanoTime();
        assertThatThrownBy(() -> new BrowserWaits(browser, Duration.ofSeconds(60))
                        .until("a script that throws", () -> js("throw new Error('the page broke')") != null))
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("a script that throws: the page could not be read")
                .hasMessageContaining("the page broke")
                .hasMessageNotContaining("not seen within");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
    }

    private String text() {
        return browser.findElement(ROW).getText();
    }

    private Object js(String script) {
        return ((JavascriptExecutor) browser).executeScript(script);
    }
}
