package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.LocalDate;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * In a real Chromium: the overview is a console for a fleet — failures pinned on top, the rest by
 * urgency, filtered by state, team, owner, tier and label and searched by name, without losing what a person types
 * when the page refreshes itself. In its own class (own runtime): the overview shows every pipeline registered.
 */
class FleetConsoleBrowserTest extends BrowserEndToEnd {

    private String pipeline(String name, String team, int tier, String domain, String readiness) {
        return """
                name: %1$s
                archetype: batch-ingestion
                owner: %3$s-lead@example.com
                team: %3$s
                tier: %4$d
                labels: {domain: %5$s}
                traits:
                  source-freshness: {evaluator: "builtin:%6$s"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%2$s/jobs/%1$s"}
                retry: {maxAttempts: 1}
                evaluationIntervalSeconds: 3600
                schedules: [{name: daily, after: "%7$s", deadline: "23:30"}]
                """.formatted(
                name, jobs.endpoint(), team, tier, domain, readiness, name.equals("fc-idle") ? "23:00" : "00:00");
    }

    /** The pipelines of the overview's rows, top to bottom. */
    private List<String> rows() {
        return waits.steady(() -> browser.findElements(By.cssSelector("#overview-body tr[data-pipeline]")).stream()
                .map(r -> r.getAttribute("data-pipeline"))
                .toList());
    }

    private void await(String what, BooleanSupplier condition) {
        waits.until(what, condition);
    }

    private <T> T steady(Supplier<T> read) {
        return waits.steady(read);
    }

    @Test
    void failuresArePinnedTheRestOrderedByUrgencyAndTheFleetFilteredAndSearched() {
        LocalDate day = today();
        putPipeline(pipeline("fc-done", "orders", 1, "orders", "always-pass"));
        putPipeline(pipeline("fc-broken", "orders", 1, "orders", "always-pass"));
        putPipeline(pipeline("fc-waiting", "marketing", 2, "web", "always-fail"));
        putPipeline(pipeline("fc-idle", "marketing", 3, "web", "always-pass")); // its window opens at 23:00
        jobs.failNext("fc-broken", 1, 500);
        assertThat(awaitDone(evaluate("fc-done", day))).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(awaitDone(evaluate("fc-broken", day))).isEqualTo(ExecutionStatus.FAILED);
        evaluate("fc-waiting", day);
        awaitNotReady("fc-waiting");
        assumeTrue(browser != null, "no browser: " + BrowserWaits.CHROMIUM);

        open("#/");
        await("the failed pipeline pinned on top", () -> {
            List<String> rows = rows();
            return !rows.isEmpty() && rows.getFirst().equals("fc-broken");
        });
        List<String> order = rows();
        assertThat(order).containsExactly("fc-broken", "fc-waiting", "fc-idle", "fc-done");
        assertThat(steady(() -> browser.findElement(By.cssSelector("#overview-body tr.group"))
                        .getText()))
                .isEqualTo("NEEDS ATTENTION (1)");
        assertThat(steady(() -> browser.findElement(By.cssSelector("tr[data-pipeline='fc-broken']"))
                        .getAttribute("class")))
                .contains("pinned");

        // Filters narrow the fleet; each says how many of how many are shown.
        new Select(browser.findElement(By.id("filter-team"))).selectByValue("marketing");
        assertThat(rows()).containsExactly("fc-waiting", "fc-idle");
        new Select(browser.findElement(By.id("filter-tier"))).selectByValue("3");
        assertThat(rows()).containsExactly("fc-idle");
        assertThat(steady(() -> browser.findElement(By.id("shown")).getText())).isEqualTo("1 of 4 pipelines");
        new Select(browser.findElement(By.id("filter-tier"))).selectByValue("");
        new Select(browser.findElement(By.id("filter-team"))).selectByValue("");
        new Select(browser.findElement(By.id("filter-label"))).selectByValue("domain=orders");
        assertThat(rows()).containsExactly("fc-broken", "fc-done");
        new Select(browser.findElement(By.id("filter-label"))).selectByValue("");
        new Select(browser.findElement(By.id("filter-owner"))).selectByValue("orders-lead@example.com");
        assertThat(rows()).containsExactly("fc-broken", "fc-done");
        new Select(browser.findElement(By.id("filter-owner"))).selectByValue("");
        new Select(browser.findElement(By.id("filter-state"))).selectByValue("NOT_READY");
        assertThat(rows()).containsExactly("fc-waiting");
        new Select(browser.findElement(By.id("filter-state"))).selectByValue("");

        // A search typed in survives the page's own refresh (only the rows are redrawn).
        WebElement search = browser.findElement(By.id("filter-q"));
        search.sendKeys("idl");
        assertThat(rows()).containsExactly("fc-idle");
        String before = browser.findElement(By.id("refreshed")).getText();
        await(
                "the page refreshed itself",
                () -> !browser.findElement(By.id("refreshed")).getText().equals(before));
        assertThat(browser.findElement(By.id("filter-q")).getAttribute("value")).isEqualTo("idl");
        assertThat(rows()).containsExactly("fc-idle");

        // The day's timeline marks its deadline.
        open("#/p/fc-done");
        await(
                "fc-done's timeline with its deadline",
                () -> !browser.findElements(By.cssSelector("#gantt .deadline[data-deadline='daily']"))
                        .isEmpty());
        assertThat(steady(() -> browser.findElement(By.cssSelector("#gantt .deadline[data-deadline='daily'] text"))
                        .getText()))
                .startsWith("⚑ daily ");
    }
}
