package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.support.ui.Select;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * At its size, in a real Chromium: an overview of 1,000 pipelines renders, pins the failed one on top
 * and filters, and its filters offer what is registered after the page opened. It prints how long the first render and
 * a refresh took (as the page itself measured them: the API's reads and the drawing), and asserts only what is shown.
 * In its own class (own runtime): the overview shows every pipeline registered.
 */
class FleetAtScaleBrowserTest extends BrowserEndToEnd {

    private static final int FLEET = 1_000;
    private static final int REGISTERING_THREADS = 8;

    /** A thousand rows render slower than a handful. */
    @Override
    Duration uiWait() {
        return Duration.ofSeconds(90);
    }

    private String pipeline(String name, String team, int tier, String readiness, String schedules) {
        return """
                name: %1$s
                archetype: batch-ingestion
                owner: %3$s-lead@example.com
                team: %3$s
                tier: %4$d
                labels: {domain: %3$s}
                traits:
                  source-freshness: {evaluator: "builtin:%5$s"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%2$s/jobs/%1$s"}
                retry: {maxAttempts: 1}
                evaluationIntervalSeconds: 3600
                schedules: %6$s
                """.formatted(name, jobs.endpoint(), team, tier, readiness, schedules);
    }

    private static final String DAILY = "[{name: daily, after: \"23:00\", deadline: \"23:30\"}]";

    /**
     * The pipelines of the overview's rows, top to bottom, read in one script (a thousand element look-ups would take
     * longer than the page takes to redraw its rows).
     */
    private List<String> rows() {
        return waits.steady(() -> ((List<?>) ((JavascriptExecutor) browser)
                        .executeScript("return [...document.querySelectorAll('#overview-body tr[data-pipeline]')]"
                                + ".map(r => r.dataset.pipeline);"))
                .stream().map(String::valueOf).toList());
    }

    private String shown() {
        return waits.steady(() -> browser.findElement(By.id("shown")).getText());
    }

    private int renders() {
        String renders = browser.findElement(By.id("refreshed")).getAttribute("data-renders");
        return renders == null ? 0 : Integer.parseInt(renders);
    }

    private String renderMillis() {
        return browser.findElement(By.id("refreshed")).getAttribute("data-ms");
    }

    /** Registers the fleet through the public API, {@link #REGISTERING_THREADS} requests at a time. */
    private void register(List<String> documents) throws Exception {
        try (ExecutorService pool = Executors.newFixedThreadPool(REGISTERING_THREADS)) {
            List<Future<?>> puts = new ArrayList<>();
            for (String document : documents) {
                puts.add(pool.submit(() -> putPipeline(document)));
            }
            for (Future<?> put : puts) {
                put.get();
            }
        }
    }

    @Test
    void anOverviewOfAThousandPipelinesRendersPinsFiltersAndOffersLaterTeams() throws Exception {
        LocalDate day = today();
        long registering = System.nanoTime();
        List<String> fleet = new ArrayList<>();
        for (int i = 0; i < FLEET - 2; i++) {
            fleet.add(pipeline("scale-%04d".formatted(i), "team-" + (i % 10), 1 + i % 3, "always-pass", DAILY));
        }
        // An hourly day: 24 windows in one compact row.
        fleet.add(pipeline("scale-hourly", "team-0", 2, "always-pass", "[{name: hourly, cron: \"0 * * * *\"}]"));
        fleet.add(pipeline(
                "scale-broken", "team-1", 1, "always-pass", "[{name: daily, after: \"00:00\", deadline: \"23:30\"}]"));
        register(fleet);
        System.out.printf(
                "FleetAtScale: registered %d pipelines through the API in %d ms%n",
                FLEET, (System.nanoTime() - registering) / 1_000_000);
        jobs.failNext("scale-broken", 1, 500);
        assertThat(awaitDone(evaluate("scale-broken", day))).isEqualTo(ExecutionStatus.FAILED);
        assumeTrue(browser != null, "no browser: " + BrowserWaits.CHROMIUM);

        long opened = System.nanoTime();
        open("#/");
        waits.until("the whole fleet on the overview", () -> shown().equals(FLEET + " pipelines"));
        System.out.printf(
                "FleetAtScale: overview of %d pipelines, first render %s ms (page load to shown: %d ms)%n",
                FLEET, renderMillis(), (System.nanoTime() - opened) / 1_000_000);
        List<String> rows = rows();
        assertThat(rows).hasSize(FLEET).first().isEqualTo("scale-broken");
        assertThat(waits.steady(() -> browser.findElement(By.cssSelector("tr[data-pipeline='scale-broken']"))
                        .getAttribute("class")))
                .contains("pinned");
        assertThat(waits.steady(() -> browser.findElement(By.cssSelector("#overview-body tr.group"))
                        .getText()))
                .isEqualTo("NEEDS ATTENTION (1)");
        assertThat(waits.steady(() -> browser.findElement(By.cssSelector("tr[data-pipeline='scale-hourly'] .schedules"))
                        .getAttribute("data-schedules")))
                .as("an hourly day is one compact row: its headline window and a count")
                .isEqualTo("24");

        // The page refreshes itself: the time of a whole refresh of the fleet.
        int first = renders();
        waits.until("the page refreshed itself", () -> renders() > first);
        System.out.printf("FleetAtScale: overview of %d pipelines, refresh %s ms%n", FLEET, renderMillis());

        // A team registered after the page opened is offered once the page has refreshed itself.
        putPipeline(pipeline("scale-late", "team-late", 3, "always-pass", DAILY));
        waits.until(
                "the late team among the team filter's options",
                () -> !browser.findElements(By.cssSelector("#filter-team option[value='team-late']"))
                        .isEmpty());
        new Select(browser.findElement(By.id("filter-team"))).selectByValue("team-late");
        assertThat(rows()).containsExactly("scale-late");
        assertThat(shown()).isEqualTo("1 of " + (FLEET + 1) + " pipelines");

        // The filters still narrow a fleet this size: team-1 of tier 1, then a name searched.
        new Select(browser.findElement(By.id("filter-team"))).selectByValue("team-1");
        new Select(browser.findElement(By.id("filter-tier"))).selectByValue("1");
        List<String> teamOneTierOne = rows();
        assertThat(teamOneTierOne).first().isEqualTo("scale-broken");
        assertThat(teamOneTierOne)
                .hasSize(1
                        + (int) java.util.stream.IntStream.range(0, FLEET - 2)
                                .filter(i -> i % 10 == 1 && 1 + i % 3 == 1)
                                .count());
        browser.findElement(By.id("filter-q")).sendKeys("scale-0021");
        assertThat(rows()).containsExactly("scale-0021");
    }
}
