package dev.interlock.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.FluentWait;

/**
 * Waits and reads for the browser tests that survive the page's own refresh. The web UI replaces its rows on every
 * refresh: an element found before a render and read after it is stale, and while a view redraws a row can be gone for
 * a moment. Neither says anything about what is being waited for, so a poll that meets either is made again. A wait
 * that gives up says how long it waited, how many polls it made and what the last one met (the exception, or that it
 * answered no); a poll that fails for any other reason ends the wait at once and is reported as that, not as a
 * timeout.
 */
final class BrowserWaits {
    static final Path CHROMIUM = Path.of(System.getProperty("interlock.chromium", "/usr/bin/chromium"));
    static final Path CHROMEDRIVER = Path.of(System.getProperty("interlock.chromedriver", "/usr/bin/chromedriver"));

    /**
     * A headless Chromium through its chromedriver, or null when there is none (then the browser part of a test is
     * skipped locally); with {@code CI=true} a missing browser fails instead: CI must never pass a browser test unrun.
     */
    static WebDriver headlessChromium() throws IOException {
        boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        if (!present && "true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new AssertionError("CI=true but no browser: " + CHROMIUM + " and " + CHROMEDRIVER + " must exist "
                    + "(.ci/run installs Debian's chromium and chromium-driver); the web UI test must not pass unrun");
        }
        if (!present) {
            return null;
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        // The machine has no network: these keep Chromium from reaching out (and failing loudly) at every start.
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--window-size=1300,1500",
                "--user-data-dir=" + Files.createTempDirectory("interlock-ui-chromium"));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        return new ChromeDriver(service, options);
    }

    /** What a re-render can do to a read: the element went stale, or is (for a moment) not there. */
    private static final List<Class<? extends RuntimeException>> RE_RENDERED =
            List.of(StaleElementReferenceException.class, NoSuchElementException.class);

    private static final Duration POLL = Duration.ofMillis(50);

    private final WebDriver browser;
    private final Duration timeout;

    BrowserWaits(WebDriver browser, Duration timeout) {
        this.browser = browser;
        this.timeout = timeout;
    }

    /** Waits until {@code condition} holds; a poll that meets a re-render is made again. */
    void until(String what, BooleanSupplier condition) {
        poll(what, () -> condition.getAsBoolean() ? Optional.of(Boolean.TRUE) : Optional.empty());
    }

    /**
     * Reads what the page shows once a read gets through without meeting a re-render; the answer may be null. A read
     * that meets one is made again on the re-rendered page, within the timeout.
     */
    <T> T steady(Supplier<T> read) {
        return poll("a steady read", () -> Optional.of(new Box<>(read.get()))).value();
    }

    private record Box<T>(T value) {}

    private <T> T poll(String what, Supplier<Optional<T>> attempt) {
        long start = System.nanoTime();
        AtomicInteger polls = new AtomicInteger();
        AtomicReference<RuntimeException> lastMet = new AtomicReference<>();
        try {
            return new FluentWait<>(browser)
                    .withTimeout(timeout)
                    .pollingEvery(POLL)
                    .ignoreAll(RE_RENDERED)
                    .until(d -> {
                        polls.incrementAndGet();
                        try {
                            Optional<T> answer = attempt.get();
                            lastMet.set(null);
                            return answer.orElse(null);
                        } catch (RuntimeException e) {
                            lastMet.set(e);
                            throw e;
                        }
                    });
        } catch (TimeoutException e) {
            RuntimeException last = lastMet.get();
            throw new AssertionError(
                    what + " not seen within " + timeout + " (" + polls + " polls); the last poll "
                            + (last == null ? "answered no" : "met " + firstLine(last)),
                    last == null ? e : last);
        } catch (RuntimeException e) {
            throw new AssertionError(
                    what + ": the page could not be read (after " + Duration.ofNanos(System.nanoTime() - start) + ", "
                            + polls + " polls): " + firstLine(e),
                    e);
        }
    }

    /** The exception's class and the first line of its message (Selenium appends pages of driver details). */
    private static String firstLine(RuntimeException e) {
        String message = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
        return e.getClass().getSimpleName() + ": " + message;
    }
}
