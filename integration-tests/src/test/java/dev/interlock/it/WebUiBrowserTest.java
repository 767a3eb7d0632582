package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;

/**
 * The web UI in a real headless Chromium (Debian's {@code chromium} through its {@code chromedriver}), against the
 * local runtime running a silver → gold cascade and a pipeline held back by a trait: what an on-call engineer sees
 * at {@code /ui/}, and what {@code interlock status} and {@code interlock why} print about the same days. Screenshots
 * go to {@code target/ui-screenshots/} for a person to look at. Without a browser the browser part is skipped
 * locally but the class fails when {@code CI=true}: CI must never pass it without having run it.
 */
class WebUiBrowserTest extends BrowserEndToEnd {

    private static final Path CHROMIUM = BrowserWaits.CHROMIUM;
    private static final Path CHROMEDRIVER = BrowserWaits.CHROMEDRIVER;
    private static final Path SCREENSHOTS = Path.of("target", "ui-screenshots");

    private LocalDate day;

    private static final String SILVER = """
            name: ui-silver
            archetype: batch-ingestion
            traits:
              source-freshness: {evaluator: "builtin:always-pass"}
              upstream-dependency: {evaluator: "builtin:always-pass"}
              resource-availability: {evaluator: "builtin:always-pass"}
            trigger: {type: http, url: "%s/jobs/ui-silver"}
            """;
    private static final String GOLD = """
            name: ui-gold
            archetype: batch-ingestion
            traits:
              upstream-dependency: {evaluator: "builtin:upstream-run-log", config: {upstreamPipeline: ui-silver}}
              source-freshness: {evaluator: "builtin:always-pass"}
              resource-availability: {evaluator: "builtin:always-pass"}
            trigger: {type: airflow, url: "%s", dagId: ui_gold}
            pollIntervalSeconds: 30
            """;
    /** Held back by a row count that stays too low; re-evaluated every (scaled) hour. */
    private static final String BLOCKED = """
            name: ui-blocked
            archetype: batch-ingestion
            traits:
              source-freshness: {evaluator: "builtin:always-pass"}
              upstream-dependency: {evaluator: "builtin:always-pass"}
              resource-availability: {evaluator: "builtin:sensor-threshold", config: {sensor: ui-stock, field: count, op: gte, value: 1000}}
            trigger: {type: http, url: "%s/jobs/ui-blocked"}
            evaluationIntervalSeconds: 3600
            """;

    @Override
    void browserOpened() throws IOException {
        Files.createDirectories(SCREENSHOTS);
    }

    @Test
    void theUiShowsTheCascadeCompletingTheBlockedPipelineAndTheTimeline() throws Exception {
        day = today();
        putPipeline(SILVER.formatted(jobs.endpoint()));
        putPipeline(GOLD.formatted(jobs.endpoint()));
        putPipeline(BLOCKED.formatted(jobs.endpoint()));
        sensor("ui-stock", "{\"count\":120}");

        // The overview is open before anything ran: it must refresh itself to show the cascade completing.
        if (browser != null) {
            open("#/?date=" + day);
            await(() -> rowState("ui-silver") != null, "the overview lists ui-silver");
        }
        evaluate("ui-silver", day);
        evaluate("ui-blocked", day);
        await(
                "ui-gold COMPLETED and ui-blocked NOT READY by the status API",
                () -> List.of(lineState("ui-silver"), lineState("ui-gold"), lineState("ui-blocked")),
                states -> states.equals(List.of("COMPLETED", "COMPLETED", "NOT_READY")));
        theCliExplainsTheDays();

        assumeTrue(
                browser != null,
                "no " + CHROMIUM + " / " + CHROMEDRIVER + ": apt-get install -y chromium chromium-driver");
        await(
                () -> "COMPLETED".equals(rowState("ui-silver")) && "COMPLETED".equals(rowState("ui-gold")),
                "the overview shows ui-silver and ui-gold COMPLETED");
        await(() -> "NOT_READY".equals(rowState("ui-blocked")), "the overview shows ui-blocked NOT READY");
        assertThat(steady(() -> browser.findElements(By.cssSelector("#cascade [data-edge='ui-silver->ui-gold']"))
                        .size()))
                .isEqualTo(1);
        assertThat(steady(() -> browser.findElement(By.cssSelector("#cascade [data-node='ui-gold']"))
                        .getAttribute("data-state")))
                .isEqualTo("COMPLETED");
        screenshot("overview");

        open("#/p/ui-blocked?date=" + day);
        await(
                () -> !browser.findElements(
                                By.cssSelector(
                                        ".schedule[data-state='NOT_READY'] .blocking-trait[data-trait='resource-availability']"))
                        .isEmpty(),
                "ui-blocked shows its blocking trait");
        assertThat(steady(
                        () -> browser.findElement(By.cssSelector(".blocking-trait[data-trait='resource-availability']"))
                                .getText()))
                .contains("FAIL")
                .contains("120");
        By next = By.cssSelector(".schedule[data-schedule='daily'] .next-action");
        assertThat(steady(() -> browser.findElement(next).getText())).startsWith("re-evaluation at");
        // The day moves on its own (its next round starts, EVALUATING has no re-evaluation time): the page and the API
        // are compared as of the same answer, waiting for the page's render of what the API says now.
        await(
                () -> {
                    String shown = browser.findElement(next).getAttribute("data-at");
                    return !shown.isEmpty()
                            && shown.equals(expect(200, "GET", "/pipelines/ui-blocked/status?date=" + day, null, null)
                                    .at("/schedules/0/nextAction/at")
                                    .asText());
                },
                "ui-blocked's next re-evaluation time as the status API answers it");
        screenshot("not-ready");

        open("#/p/ui-gold?date=" + day);
        await(
                () -> !browser.findElements(By.cssSelector("#gantt rect.bar[data-phase='JOB_RUN']"))
                        .isEmpty(),
                "ui-gold's timeline draws its job run");
        JsonNode timeline = expect(200, "GET", "/pipelines/ui-gold/timeline?date=" + day, null, null);
        Map<String, Integer> expected = new TreeMap<>();
        timeline.path("phases").forEach(p -> expected.merge(p.path("phase").asText(), 1, Integer::sum));
        assertThat(expected).containsKeys("EVALUATION", "TRIGGER", "JOB_RUN");
        Map<String, Integer> drawn = steady(() -> {
            Map<String, Integer> bars = new TreeMap<>();
            for (WebElement bar : browser.findElements(By.cssSelector("#gantt rect.bar"))) {
                bars.merge(bar.getAttribute("data-phase"), 1, Integer::sum);
            }
            return bars;
        });
        assertThat(drawn).as("one bar per phase of the timeline").isEqualTo(expected);
        assertThat(steady(() -> browser.findElements(By.cssSelector("#runs tr[data-run] .path span")).stream()
                        .map(WebElement::getText)
                        .toList()))
                .anyMatch(t -> t.startsWith("RUNNING"))
                .anyMatch(t -> t.startsWith("COMPLETED"));
        assertThat(steady(() -> browser.findElements(By.cssSelector("#traits tr[data-trait='upstream-dependency']"))
                        .size()))
                .isPositive();
        assertThat(browser.findElements(By.cssSelector("#error"))).isEmpty();
        screenshot("timeline");
    }

    /** Issue item 7: the day page of a dry run shows what it would have done; nothing was alerted or run. */
    @Test
    void theUiShowsWhatADryRunWouldHaveDoneInsteadOfAlerting() {
        LocalDate date = today();
        sensor("ui-dry-stock", "{\"count\":120}");
        putPipeline(DryRunShadowEndToEndTest.heldBackDryRun(this, "ui-dry", "ui-dry-stock", date));
        awaitDone(evaluate("ui-dry", date));
        assertThat(alerts("ui-dry")).isEmpty();
        assumeTrue(browser != null, "no browser: " + CHROMIUM);

        open("#/p/ui-dry?date=" + date);
        String record = ".schedule[data-schedule='daily'][data-state='DRY_RUN'] .dry-run-record[data-kind='%s']";
        await(
                () -> !browser.findElements(By.cssSelector(record.formatted("DRY_RUN_WOULD_BE_EXHAUSTED")))
                        .isEmpty(),
                "the dry run's would-be-exhausted record on the day page");
        assertThat(steady(() -> browser.findElements(By.cssSelector(record.formatted("DRY_RUN_SLA_MISSED")))
                        .size()))
                .isPositive();
        assertThat(steady(() -> browser.findElement(By.cssSelector(".schedule[data-schedule='daily'] .reason"))
                        .getText()))
                .startsWith("dry run: would have failed VALIDATION_EXHAUSTED");
        screenshot("dry-run");
    }

    /**
     * SLA first: a day past its deadline and not done is flagged MISSED with its margin on the overview row
     * and on its page, which also names the downstream day it holds back.
     */
    @Test
    void theUiFlagsADayThatMissedItsDeadlineAndTheDownstreamDayItDelays() {
        LocalDate date = today();
        putPipeline("""
                name: ui-late
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-fail"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/ui-late"}
                schedules: [{name: daily, deadline: "05:00"}]
                """.formatted(jobs.endpoint()));
        putPipeline("""
                name: ui-late-down
                archetype: batch-ingestion
                traits:
                  upstream-dependency: {evaluator: "builtin:upstream-run-log", config: {upstreamPipeline: ui-late}}
                  source-freshness: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/ui-late-down"}
                """.formatted(jobs.endpoint()));
        assumeTrue(browser != null, "no browser: " + CHROMIUM);
        // Registered after today's 05:00 deadline: run by hand, the day is held to it (the watchdog would not alert
        // a deadline that passed before registration, and nor does the flag of a day nothing started).
        evaluate("ui-late", date);

        open("#/?date=" + date);
        String flag = "#overview tr[data-pipeline='ui-late'] .sla";
        await(() -> !browser.findElements(By.cssSelector(flag)).isEmpty(), "ui-late's row with its SLA flag");
        assertThat(steady(() -> browser.findElement(By.cssSelector(flag)).getAttribute("data-sla")))
                .isEqualTo("MISSED");
        assertThat(steady(() -> browser.findElement(By.cssSelector(flag)).getText()))
                .matches("MISSED -\\d+h\\d\\dm");

        open("#/p/ui-late?date=" + date);
        String schedule = ".schedule[data-schedule='daily'] ";
        await(
                () -> !browser.findElements(By.cssSelector(schedule + "[data-delayed='ui-late-down']"))
                        .isEmpty(),
                "ui-late's day page with its flag and the downstream day it delays");
        assertThat(steady(() -> browser.findElement(By.cssSelector(schedule + "h3 .sla"))
                        .getAttribute("data-sla")))
                .isEqualTo("MISSED");
        assertThat(steady(() -> browser.findElement(By.cssSelector(schedule + "[data-delayed='ui-late-down']"))
                        .getText()))
                .isEqualTo("ui-late-down on " + date);
        screenshot("sla-missed");

        // A deadline that passes after registration: the watchdog's SLA_MISSED alert is in the page's alert section.
        java.time.LocalTime now = java.time.LocalTime.ofInstant(rt.clock().instant(), java.time.ZoneOffset.UTC);
        java.time.LocalTime deadline = now.plusMinutes(3).withSecond(0).withNano(0);
        assumeTrue(
                deadline.isAfter(now) && deadline.isBefore(java.time.LocalTime.of(23, 0)), "not across midnight UTC");
        putPipeline(
                """
                name: ui-late-alert
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-fail"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/ui-late-alert"}
                schedules: [{name: daily, deadline: "%s"}]
                """.formatted(jobs.endpoint(), deadline.format(java.time.format.DateTimeFormatter.ofPattern("HH:mm"))));
        java.time.Instant due =
                date.atTime(deadline).toInstant(java.time.ZoneOffset.UTC).plusSeconds(60);
        EndToEnd.await("ui-late-alert's deadline passed", () -> rt.clock().instant(), due::isBefore);
        invokeWatchdog();
        open("#/p/ui-late-alert?date=" + date);
        await(
                () -> !browser.findElements(By.cssSelector("#alerts tr[data-kind='ALERT_SENT']"))
                        .isEmpty(),
                "the SLA_MISSED alert in ui-late-alert's alert section");
        assertThat(steady(() -> browser.findElement(By.cssSelector("#alerts tr[data-kind='ALERT_SENT']"))
                        .getText()))
                .contains("SLA_MISSED");
        screenshot("sla-missed-alert");
    }

    /**
     * A day watched for late data shows MONITORING with the watch's end and next round, and a window
     * that opened before its pipeline was registered shows forward-only instead of NOT_READY, on the overview and the
     * day page.
     */
    @Test
    void theUiShowsAMonitoredDayWithItsEndAndAForwardOnlyDay() {
        LocalDate date = today();
        String pipeline = """
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/%s"}
                %s
                """;
        putPipeline(pipeline.formatted(
                "ui-watched", jobs.endpoint(), "ui-watched", "monitoring: {enabled: true, duration: 3h}"));
        putPipeline(pipeline.formatted(
                "ui-late", jobs.endpoint(), "ui-late", "schedules: [{name: daily, after: \"00:01\"}]"));
        evaluate("ui-watched", date);
        assumeTrue(browser != null, "no browser: " + CHROMIUM);

        open("#/?date=" + date);
        await(() -> "MONITORING".equals(rowState("ui-watched")), "ui-watched MONITORING on the overview");
        await(() -> "BEFORE_REGISTRATION".equals(rowState("ui-late")), "ui-late forward-only on the overview");
        assertThat(steady(() -> browser.findElement(By.cssSelector("#overview tr[data-pipeline='ui-late']"))
                        .getText()))
                .contains("BEFORE REGISTRATION")
                .contains("forward-only");

        open("#/p/ui-watched?date=" + date);
        String card = ".schedule[data-schedule='daily'][data-state='MONITORING']";
        await(
                () -> !browser.findElements(By.cssSelector(card + " .monitoring"))
                        .isEmpty(),
                "the monitored day's end on the day page");
        String endsAt = steady(
                () -> browser.findElement(By.cssSelector(card + " .monitoring")).getAttribute("data-ends-at"));
        JsonNode monitoring = expect(200, "GET", "/pipelines/ui-watched/status?date=" + date, null, null)
                .path("schedules")
                .get(0)
                .path("monitoring");
        assertThat(endsAt).isEqualTo(monitoring.path("endsAt").asText()).isNotBlank();
        assertThat(steady(() -> browser.findElement(By.cssSelector(card + " .monitoring"))
                        .getText()))
                .startsWith("watching for late data until")
                .contains("next round");
        assertThat(steady(() -> browser.findElement(By.cssSelector(card + " .next-action"))
                        .getText()))
                .startsWith("next monitoring round");
        // The timeline draws the watch as a bar of its own, still going.
        await(
                () -> !browser.findElements(By.cssSelector("rect.bar.ongoing[data-phase='MONITORING']"))
                        .isEmpty(),
                "the ongoing monitoring bar on the timeline");
        screenshot("monitoring");

        open("#/p/ui-late?date=" + date);
        await(
                () -> !browser.findElements(By.cssSelector(
                                ".schedule[data-schedule='daily'][data-state='BEFORE_REGISTRATION'] .reason"))
                        .isEmpty(),
                "the forward-only day page");
        assertThat(steady(() -> browser.findElement(By.cssSelector(".schedule[data-schedule='daily'] .reason"))
                        .getText()))
                .startsWith("forward-only")
                .contains("catchUp");
        screenshot("forward-only");
    }

    /**
     * Readiness rules: a day held back by a short at-least pool shows the pooled traits that could make up
     * the count as blocking, and a failing optional trait as a warning, never a blocker.
     */
    @Test
    void theUiShowsAShortPoolAsBlockingAndAFailingOptionalTraitAsAWarning() {
        LocalDate date = today();
        putPipeline("""
                name: ui-pool
                archetype: batch-ingestion
                readinessRule: {type: at-least, count: 2, traits: [source-freshness, upstream-dependency]}
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-fail"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                  data-quality-sample: {evaluator: "builtin:always-fail", required: false}
                trigger: {type: http, url: "%s/jobs/ui-pool"}
                evaluationIntervalSeconds: 3600
                """.formatted(jobs.endpoint()));
        evaluate("ui-pool", date);
        assumeTrue(browser != null, "no browser: " + CHROMIUM);

        open("#/p/ui-pool?date=" + date);
        String schedule = ".schedule[data-schedule='daily'][data-state='NOT_READY'] ";
        await(
                () -> !browser.findElements(By.cssSelector(schedule + ".warning-trait"))
                        .isEmpty(),
                "ui-pool's day page with its blocking pool and its warning");
        assertThat(steady(() -> browser.findElements(By.cssSelector(schedule + ".blocking-trait")).stream()
                        .map(e -> e.getAttribute("data-trait"))
                        .toList()))
                .containsExactly("upstream-dependency");
        assertThat(steady(() -> browser.findElements(By.cssSelector(schedule + ".warning-trait")).stream()
                        .map(e -> e.getAttribute("data-trait") + " " + e.getText())
                        .toList()))
                .singleElement()
                .asString()
                .startsWith("data-quality-sample data-quality-sample FAIL");
        assertThat(steady(() -> browser.findElement(By.cssSelector(".schedule[data-schedule='daily'] .reason"))
                        .getText()))
                .endsWith("; needs at least 2 of [source-freshness, upstream-dependency]");
        screenshot("readiness-rule");
    }

    @Test
    void theUiShowsEachWindowOfACronScheduleAsItsOwnDay() {
        LocalDate date = today();
        putPipeline("""
                name: ui-hourly
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/ui-hourly"}
                schedules: [{name: hourly, cron: "0 * * * *", timezone: UTC, deadline: "+40m"}]
                """.formatted(jobs.endpoint()));
        evaluate("ui-hourly", date, "hourly.0600");
        await(
                () -> "COMPLETED".equals(runLogStatus("ui-hourly", date, "hourly.0600")),
                "ui-hourly's 06:00 window COMPLETED");
        assumeTrue(browser != null, "no browser: " + CHROMIUM);

        open("#/p/ui-hourly?date=" + date);
        await(
                () -> !browser.findElements(
                                By.cssSelector(".schedule[data-schedule='hourly.0600'][data-state='COMPLETED']"))
                        .isEmpty(),
                "ui-hourly's day page with its 06:00 window COMPLETED");
        assertThat(steady(() -> browser.findElements(By.cssSelector(".schedule")).stream()
                        .map(e -> e.getAttribute("data-schedule"))
                        .toList()))
                .hasSize(24)
                .startsWith("hourly.0000")
                .contains("hourly.0600", "hourly.0700")
                .endsWith("hourly.2300");
        screenshot("cron-windows");
    }

    @Test
    void theUiShowsWhoseAPipelineIsAndThatItsTeamsAlertsAreMuted() {
        putPipeline("""
                name: ui-owned
                archetype: batch-ingestion
                owner: ana@example.com
                team: ui-platform
                labels: {domain: orders}
                runbook: https://wiki.example.com/runbooks/ui-owned
                traits:
                  source-freshness: {evaluator: "builtin:always-fail"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/ui-owned"}
                """.formatted(jobs.endpoint()));
        expect(
                200,
                "PUT",
                "/mutes/teams/ui-platform",
                "application/json",
                "{\"for\":\"2h\",\"reason\":\"warehouse maintenance\"}");
        assumeTrue(browser != null, "no browser: " + CHROMIUM);

        open("#/");
        await(
                () -> !browser.findElements(By.cssSelector("#overview tr[data-pipeline='ui-owned'] .mute-badge"))
                        .isEmpty(),
                "ui-owned's overview row marked muted");
        assertThat(steady(() -> browser.findElement(By.cssSelector("#overview tr[data-pipeline='ui-owned'] .team"))
                        .getText()))
                .isEqualTo("ui-platform");

        open("#/p/ui-owned");
        await(() -> !browser.findElements(By.id("mute")).isEmpty(), "ui-owned's mute banner");
        assertThat(steady(() -> browser.findElement(By.id("mute")).getText()))
                .contains("Alerts muted", "team ui-platform", "warehouse maintenance");
        assertThat(steady(() -> browser.findElement(By.id("ownership")).getText()))
                .contains("ana@example.com", "ui-platform", "domain: orders", "runbook");
        assertThat(steady(() ->
                        browser.findElement(By.cssSelector("#ownership a")).getAttribute("href")))
                .isEqualTo("https://wiki.example.com/runbooks/ui-owned");
        screenshot("ownership-and-mute");
        expect(200, "DELETE", "/mutes/teams/ui-platform", null, null);
    }

    @Test
    void theUiShowsHowManyHoursOfARollupAreInAndWhichAreMissing() {
        LocalDate date = today();
        putPipeline("""
                name: ui-roll-up
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/ui-roll-up"}
                schedules: [{name: hourly, cron: "0 * * * *", timezone: UTC}]
                """.formatted(jobs.endpoint()));
        putPipeline("""
                name: ui-rollup
                archetype: batch-ingestion
                traits:
                  upstream-dependency: {evaluator: "builtin:upstream-run-log", config: {upstreamPipeline: ui-roll-up, rollup: true}}
                  source-freshness: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/ui-rollup"}
                """.formatted(jobs.endpoint()));
        evaluate("ui-roll-up", date, "hourly.0000");
        evaluate("ui-roll-up", date, "hourly.0100");
        await(
                () -> expect(200, "GET", "/pipelines/ui-rollup/status?date=" + date, null, null)
                        .path("schedules")
                        .path(0)
                        .path("blocking")
                        .toString()
                        .contains("2 of 24 in"),
                "ui-rollup counting two hours in");
        assumeTrue(browser != null, "no browser: " + CHROMIUM);

        open("#/p/ui-rollup?date=" + date);
        await(
                () -> !browser.findElements(
                                By.cssSelector(
                                        ".blocking-trait[data-trait='upstream-dependency'] .rollup[data-in='2'][data-periods='24']"))
                        .isEmpty(),
                "ui-rollup's blocking trait with its rollup progress");
        assertThat(steady(() -> browser.findElement(
                                By.cssSelector(".blocking-trait[data-trait='upstream-dependency'] .rollup"))
                        .getText()))
                .contains("2/24 in")
                .contains("missing hourly.0200, hourly.0300, hourly.0400, hourly.0500 and 18 more");
        screenshot("rollup-progress");
    }

    /**
     * Post-run checks: a day FAILED by VERIFICATION says on its page which check failed and why (the zero-row check,
     * its reason), beside the optional check that passed; the failure category is on the card.
     */
    @Test
    void theUiShowsWhichPostRunCheckFailedADayAndWhy() {
        LocalDate date = today();
        sensor("ui-verify-rows", "{\"rows\": 0}");
        putPipeline("""
                name: ui-verify
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/ui-verify"}
                postRun:
                  - name: rows-written
                    evaluator: "builtin:sensor-threshold"
                    config: {sensor: ui-verify-rows, field: rows, op: gt, value: 0}
                  - name: audit
                    evaluator: "builtin:always-pass"
                    required: false
                """.formatted(jobs.endpoint()));
        evaluate("ui-verify", date);
        await("ui-verify FAILED", () -> runLogStatus("ui-verify", date, "daily"), "FAILED"::equals);
        assumeTrue(browser != null, "no browser: " + CHROMIUM);

        open("#/p/ui-verify?date=" + date);
        String card = ".schedule[data-schedule='daily'][data-state='FAILED'] ";
        String failed = card + ".post-run-check[data-check='rows-written'][data-status='FAIL']";
        await(
                () -> !browser.findElements(By.cssSelector(failed)).isEmpty(),
                "ui-verify's day page with its failed post-run check");
        assertThat(steady(() -> browser.findElement(By.cssSelector(failed)).getText()))
                .contains("rows-written", "FAIL", "required")
                .contains("is 0, not gt 0");
        assertThat(steady(() -> browser.findElement(By.cssSelector(card + ".post-run-check[data-check='audit']"))
                        .getAttribute("data-status")))
                .isEqualTo("PASS");
        assertThat(steady(() ->
                        browser.findElement(By.cssSelector(card + ".post-run")).getAttribute("data-verdict")))
                .isEqualTo("FAILED");
        assertThat(steady(() ->
                        browser.findElement(By.cssSelector(card + ".reason")).getText()))
                .contains("post-run check rows-written failed")
                .contains("(VERIFICATION)");
        screenshot("post-run-failed");
    }

    /**
     * The metrics page: per pipeline the numbers {@code interlock metrics} gives (the local runtime's sums of the
     * functions' metric lines), so a pipeline that ran shows its evaluations and its trigger.
     */
    @Test
    void theMetricsPageShowsWhatAPipelineThatRanPublished() {
        LocalDate date = today();
        putPipeline("""
                name: ui-mx
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/ui-mx"}
                """.formatted(jobs.endpoint()));
        awaitDone(evaluate("ui-mx", date));
        await("ui-mx COMPLETED", () -> runLogStatus("ui-mx", date, "daily"), "COMPLETED"::equals);
        JsonNode cli = metricsOf("ui-mx");
        assertThat(cli.at("/metrics/Evaluations/sum").asDouble()).isPositive();
        assertThat(cli.at("/metrics/Triggers/sum").asDouble()).isPositive();
        assumeTrue(browser != null, "no browser: " + CHROMIUM);

        open("#/metrics");
        String row = "#metrics tr[data-pipeline='ui-mx'] ";
        await(
                () -> !browser.findElements(By.cssSelector(row + "[data-metric='Triggers']"))
                        .isEmpty(),
                "ui-mx's row on the metrics page");
        assertThat(steady(() -> browser.findElement(By.cssSelector(row + "[data-metric='Evaluations']"))
                        .getText()))
                .isEqualTo(whole(cli.at("/metrics/Evaluations/sum").asDouble()));
        assertThat(steady(() -> browser.findElement(By.cssSelector(row + "[data-metric='Triggers']"))
                        .getText()))
                .isEqualTo(whole(cli.at("/metrics/Triggers/sum").asDouble()));
        assertThat(steady(() -> browser.findElement(By.cssSelector(row + "[data-metric='RunsCompleted']"))
                        .getText()))
                .isEqualTo("1");
        assertThat(steady(() ->
                        browser.findElement(By.cssSelector("#metrics tr.fleet")).getText()))
                .as("the fleet's row: every pipeline's sums")
                .startsWith("fleet");
        assertThat(Double.parseDouble(
                        steady(() -> browser.findElement(By.cssSelector("#metrics tr.fleet [data-metric='Triggers']"))
                                .getText())))
                .isGreaterThanOrEqualTo(cli.at("/metrics/Triggers/sum").asDouble());
        screenshot("metrics");
    }

    /** What {@code interlock metrics --pipeline <id> -o json} answers for the pipeline. */
    private JsonNode metricsOf(String pipeline) {
        JsonNode answer =
                dev.interlock.model.json.InterlockJson.tree(printed("metrics", "--pipeline", pipeline, "-o", "json"));
        return answer.path("pipelines").path(0);
    }

    private static String whole(double v) {
        return Long.toString((long) v);
    }

    /** The state {@code GET /status} gives a pipeline's day. */
    private String lineState(String pipeline) {
        for (JsonNode line : list("/status?date=" + day)) {
            if (line.path("pipelineId").asText().equals(pipeline)) {
                return line.path("state").asText();
            }
        }
        return null;
    }

    /** {@code interlock status} and {@code interlock why} print the same days as tables and in words. */
    private void theCliExplainsTheDays() {
        String endpoint = rt.apiEndpoint().toString();
        String table = printedAsGiven("status", "--date", day.toString(), "--endpoint", endpoint);
        assertThat(table.lines().filter(l -> l.startsWith("ui-gold ")).findFirst())
                .hasValueSatisfying(line -> assertThat(line).contains(day.toString(), "COMPLETED"));
        assertThat(table).containsPattern("(?m)^PIPELINE +DATE +STATE +SLA +NEXT +REASON$");
        String schedules = printedAsGiven("status", "ui-blocked", "--date", day.toString(), "--endpoint", endpoint);
        assertThat(schedules)
                .containsPattern("(?m)^daily +NOT_READY +\\S+( -?\\S+)? +0/3 +re-evaluation at ")
                .containsPattern("(?m)^resource-availability +FAIL +\\{.*\"actual\":120");
        String why = printedAsGiven("why", "ui-blocked", "--date", day.toString(), "--endpoint", endpoint);
        assertThat(why)
                .contains("ui-blocked (daily) on " + day + " is NOT_READY: waiting for resource-availability")
                .contains("- trait resource-availability is FAIL")
                .contains("Next: re-evaluation at ")
                .contains("holds the lock");
    }

    /** Runs the CLI in process, expects it to succeed and answers what it printed. */
    private String printedAsGiven(String... args) {
        Cli result = cli(args);
        assertThat(result.code())
                .as(String.join(" ", args) + " printed:\n" + result.out())
                .isZero();
        return result.out();
    }

    /** The state the overview row of a pipeline shows, or null when there is no row (yet). */
    private String rowState(String pipeline) {
        List<WebElement> rows = browser.findElements(By.cssSelector("#overview tr[data-pipeline='" + pipeline + "']"));
        return rows.isEmpty() ? null : rows.get(0).getAttribute("data-state");
    }

    /** Waits for what the page shows; see {@link BrowserWaits} for how a re-render is ridden out. */
    private void await(BooleanSupplier condition, String what) {
        awaitPage(what, condition);
    }

    /** {@inheritDoc} A failed wait leaves a screenshot and the page's error. */
    @Override
    void awaitPage(String what, BooleanSupplier condition) {
        try {
            waits.until(what, condition);
        } catch (AssertionError e) {
            screenshot("failed");
            List<String> errors = new ArrayList<>();
            try {
                browser.findElements(By.id("error")).forEach(el -> errors.add(el.getText()));
            } catch (RuntimeException pageMoved) {
                // The page re-rendered while its error was read: the wait's own failure is what to report.
            }
            throw new AssertionError(
                    e.getMessage() + (errors.isEmpty() ? "" : "; page error: " + errors), e.getCause());
        }
    }

    /** Reads what the page shows, made again on the new elements when the page's own refresh replaced them. */
    private <T> T steady(Supplier<T> read) {
        return waits.steady(read);
    }

    private void screenshot(String name) {
        File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        try {
            Files.copy(shot.toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new IllegalStateException("cannot keep the screenshot " + name, e);
        }
    }
}
