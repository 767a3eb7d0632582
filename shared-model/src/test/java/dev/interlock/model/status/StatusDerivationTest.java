package dev.interlock.model.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.calendar.Calendar;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.trigger.TriggerType;
import dev.interlock.model.workflow.AttemptLedger;
import dev.interlock.store.RunLogKey;
import dev.interlock.store.StatusReader;
import dev.interlock.store.memory.InMemoryProvider;
import dev.interlock.testing.Documents;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The one derivation of a day's status, on the in-memory Provider and a fixed clock: each state and its why. */
class StatusDerivationTest {

    private static final Instant NOW = Instant.parse("2026-03-10T09:00:00Z");
    private static final LocalDate DAY = LocalDate.of(2026, 3, 10);
    private final InMemoryProvider store = new InMemoryProvider(Clock.fixed(NOW, ZoneOffset.UTC));
    private final StatusReader reader = new StatusReader(store, Clock.fixed(NOW, ZoneOffset.UTC));

    private void register(String yaml) {
        store.pipelines().put(Documents.read(yaml, PipelineConfig.class));
    }

    private ScheduleStatus daily(String pipeline, LocalDate date) {
        return reader.status(pipeline, date).orElseThrow().schedules().get(0);
    }

    private static String pipeline(String name, String extra) {
        return """
                name: %s
                archetype: batch-ingestion
                traits:
                  upstream-dependency: {evaluator: "builtin:upstream-run-log", config: {upstreamPipeline: bronze}}
                trigger: {type: http, url: "http://127.0.0.1:9/run"}
                %s
                """.formatted(name, extra);
    }

    /** The run log of (pipeline, DAY, daily) in {@code status}, as another writer left it. */
    private static RunLog log(String pipeline, RunLogStatus status, String runId, Instant at) {
        return new RunLog(pipeline, DAY, "daily", status, 0, runId, "e", null, null, List.of(), false, at, null, at);
    }

    /** silver's first attempt, failed 20 s ago with {@code category}, as logResult writes it. */
    private static RunLog failed(String message, FailureCategory category) {
        return AttemptLedger.afterFailure(
                Optional.empty(), "silver", DAY, "daily", "r1", "e", message, category, NOW.minusSeconds(20));
    }

    @Test
    void beforeTheWindowOpensItWaitsForItAndSaysWhen() {
        register(pipeline("late", "schedules: [{name: daily, after: \"22:00\", timezone: Europe/Berlin}]"));

        PipelineDayStatus status = reader.status("late", null).orElseThrow();

        assertThat(status.zone()).isEqualTo("Europe/Berlin");
        ScheduleStatus s = status.schedules().get(0);
        assertThat(s.state()).isEqualTo(DayState.WAITING_FOR_WINDOW);
        assertThat(s.nextAction())
                .isEqualTo(new ScheduleStatus.NextAction("window opens", Instant.parse("2026-03-10T21:00:00Z")));
        assertThat(s.reason()).contains("the window opens at 2026-03-10 22:00 +01:00");
    }

    @Test
    void anExcludedDateSaysWhichRuleExcludesIt() {
        store.calendars().put(new Calendar("holidays", null, List.of(), List.of("2026-03-10")));
        register(pipeline("off", "exclusions: {calendar: holidays}"));

        ScheduleStatus s = daily("off", DAY);

        assertThat(s.state()).isEqualTo(DayState.EXCLUDED);
        assertThat(s.reason()).contains("calendar holidays");
        assertThat(s.nextAction()).isNull();
    }

    @Test
    void anOpenDayNobodyEvaluatedWaitsForItsUpstreamWithTheUpstreamsOwnState() {
        register(pipeline("bronze", "").replace("upstreamPipeline: bronze", "upstreamPipeline: raw"));
        register(pipeline("silver", ""));
        store.runLogs()
                .update(
                        new RunLogKey("bronze", DAY, "daily"),
                        c -> log("bronze", RunLogStatus.RUNNING, "r", NOW.minusSeconds(30)));

        ScheduleStatus s = daily("silver", DAY);

        assertThat(s.state()).isEqualTo(DayState.NOT_READY);
        assertThat(s.reason()).isEqualTo("waiting for upstream bronze (RUNNING)");
        assertThat(s.upstreams())
                .containsExactly(new ScheduleStatus.Upstream("bronze", "daily", DayState.RUNNING, "job running"));
        assertThat(s.nextAction().what()).isEqualTo("evaluation when bronze completes");
    }

    @Test
    void aPastDayNobodyEvaluatedWasSkipped() {
        register(pipeline("silver", ""));

        assertThat(daily("silver", DAY.minusDays(3)).state()).isEqualTo(DayState.SKIPPED);
    }

    @Test
    void aFailedAttemptInBackoffSaysWhenTheRetryStarts() {
        register(pipeline("silver", "retry: {maxAttempts: 3, backoffSeconds: 120}"));
        store.runLogs()
                .update(new RunLogKey("silver", DAY, "daily"), c -> failed("HTTP 503", FailureCategory.TRANSIENT));

        ScheduleStatus s = daily("silver", DAY);

        assertThat(s.state()).isEqualTo(DayState.FAILED);
        assertThat(s.reason()).startsWith("attempt 1 of 3 failed").contains("HTTP 503 (TRANSIENT)");
        assertThat(s.attempts()).isEqualTo(new ScheduleStatus.Attempts(1, 3));
        assertThat(s.nextAction()).isEqualTo(new ScheduleStatus.NextAction("retry", NOW.plusSeconds(100)));
    }

    @Test
    void aMissedValidationDeadlineIsNoAttemptAndTheNextMarkerRunsTheDay() {
        register(pipeline("silver", "retry: {maxAttempts: 1}"));
        store.runLogs()
                .update(
                        new RunLogKey("silver", DAY, "daily"),
                        c -> failed("validation deadline passed", FailureCategory.VALIDATION_EXHAUSTED));

        ScheduleStatus s = daily("silver", DAY);

        assertThat(s.state()).isEqualTo(DayState.FAILED);
        assertThat(s.reason()).contains("no attempt used").contains("a retry may start now");
        assertThat(s.attempts()).isEqualTo(new ScheduleStatus.Attempts(0, 1));
        assertThat(s.nextAction().what()).isEqualTo("retry on the next marker");
    }

    @Test
    void aPermanentFailureSaysNoRetryFollows() {
        register(pipeline("silver", ""));
        store.runLogs()
                .update(new RunLogKey("silver", DAY, "daily"), c -> failed("HTTP 400", FailureCategory.PERMANENT));

        ScheduleStatus s = daily("silver", DAY);

        assertThat(s.reason()).contains("no retry: non-retryable failure (PERMANENT)");
        assertThat(s.nextAction().at()).isNull();
    }

    @Test
    void aRunningJobNamesItsJobAndTheNextPoll() {
        register(pipeline("silver", "pollIntervalSeconds: 30"));
        Instant started = NOW.minusSeconds(75);
        store.runs()
                .create(new RunState(
                        "r1",
                        "silver",
                        "daily",
                        DAY,
                        RunStatus.RUNNING,
                        3,
                        TriggerType.STEP_FUNCTION,
                        "e",
                        Map.of("sfn_execution_arn", "arn:aws:states:eu-west-1:123456789012:execution:etl:run-1"),
                        null,
                        null,
                        started,
                        started));
        store.runLogs()
                .update(new RunLogKey("silver", DAY, "daily"), c -> log("silver", RunLogStatus.RUNNING, "r1", started));
        store.locks().acquire(new LockKey("silver", "daily", DAY), "e", Duration.ofHours(5));

        ScheduleStatus s = daily("silver", DAY);

        assertThat(s.state()).isEqualTo(DayState.RUNNING);
        assertThat(s.nextAction()).isEqualTo(new ScheduleStatus.NextAction("next poll", started.plusSeconds(90)));
        assertThat(s.job().id()).isEqualTo("arn:aws:states:eu-west-1:123456789012:execution:etl:run-1");
        assertThat(s.job().link()).startsWith("https://eu-west-1.console.aws.amazon.com/states/home?region=eu-west-1#");
        assertThat(s.lockHolder()).isEqualTo("e");
    }

    @Test
    void aDayThatProceededDegradedSaysWhatItWentWithoutFromItsRunOrElseItsRunLog() {
        register(pipeline("silver", ""));
        Instant started = NOW.minusSeconds(75);
        RunState running = new RunState(
                        "r1",
                        "silver",
                        "daily",
                        DAY,
                        RunStatus.RUNNING,
                        3,
                        TriggerType.HTTP,
                        "e",
                        Map.of(),
                        null,
                        null,
                        started,
                        started)
                .proceedingWithout(List.of("upstream-dependency"), started);
        store.runs().create(running);

        assertThat(daily("silver", DAY).proceededWithout()).containsExactly("upstream-dependency");

        store.runLogs()
                .update(
                        new RunLogKey("silver", DAY, "daily"),
                        c -> AttemptLedger.afterCompletion(
                                c, "silver", DAY, "daily", "r1", "e", List.of("upstream-dependency"), NOW));
        store.runs().compareAndSwap(running.version(), running.moveTo(RunStatus.COMPLETED, NOW));
        ScheduleStatus done = daily("silver", DAY);
        assertThat(done.state()).isEqualTo(DayState.COMPLETED);
        assertThat(done.proceededWithout()).containsExactly("upstream-dependency");

        // A day whose run is not at hand (only its run log): the run log says it.
        register(pipeline("gold", ""));
        store.runLogs()
                .update(
                        new RunLogKey("gold", DAY, "daily"),
                        c -> AttemptLedger.afterCompletion(
                                c, "gold", DAY, "daily", "g1", "e", List.of("schema-contract"), NOW));
        assertThat(daily("gold", DAY).proceededWithout()).containsExactly("schema-contract");
    }

    @Test
    void aReadyDryRunSaysNothingWasStarted() {
        register(pipeline("silver", "dryRun: true"));
        store.runLogs()
                .update(
                        new RunLogKey("silver", DAY, "daily"),
                        c -> log("silver", RunLogStatus.PENDING, "r1", NOW.minusSeconds(60)));
        store.events()
                .append(new Event(
                        EventKind.DRY_RUN_WOULD_TRIGGER,
                        "silver",
                        "daily",
                        DAY,
                        "r1",
                        null,
                        "READY",
                        "would trigger",
                        Map.of(),
                        NOW.minusSeconds(30)));

        ScheduleStatus s = daily("silver", DAY);

        assertThat(s.state()).isEqualTo(DayState.DRY_RUN);
        assertThat(s.reason()).contains("dry run");
    }

    @Test
    void aDryRunDayNotReadyYetSaysItIsADryRun() {
        register(pipeline("silver", "dryRun: true"));

        ScheduleStatus s = daily("silver", DAY);

        assertThat(s.state()).isEqualTo(DayState.NOT_READY);
        assertThat(s.reason()).endsWith("(dry run: no job is started, no alert is sent)");
    }

    @Test
    void blockingTraitsOutliveTheirExpiredResultsThroughTheLatestEvaluationEvents() {
        register(pipeline("silver", ""));
        store.runLogs()
                .update(
                        new RunLogKey("silver", DAY, "daily"),
                        c -> log("silver", RunLogStatus.PENDING, "r1", NOW.minusSeconds(600)));
        store.events()
                .append(new Event(
                        EventKind.TRAIT_EVALUATED,
                        "silver",
                        "daily",
                        DAY,
                        null,
                        "upstream-dependency",
                        "FAIL",
                        "bronze has not completed",
                        Map.of("upstreamStatus", "RUNNING"),
                        NOW.minusSeconds(500)));
        store.events()
                .append(new Event(
                        EventKind.READINESS_CHECKED,
                        "silver",
                        "daily",
                        DAY,
                        "r1",
                        null,
                        "NOT_READY",
                        "blocking: upstream-dependency",
                        Map.of("blocking", List.of("upstream-dependency")),
                        NOW.minusSeconds(499)));

        ScheduleStatus s = daily("silver", DAY);

        assertThat(s.state()).isEqualTo(DayState.NOT_READY);
        assertThat(s.blocking()).singleElement().satisfies(b -> {
            assertThat(b.traitType()).isEqualTo("upstream-dependency");
            assertThat(b.value()).containsEntry("upstreamStatus", "RUNNING");
        });
        assertThat(s.nextAction().what()).startsWith("re-evaluation on the next marker");
    }

    /** silver's run r1, COMPLETED at {@code at}, as logCompleted writes it. */
    private static RunLog completed(Instant at) {
        return new RunLog(
                "silver",
                DAY,
                "daily",
                RunLogStatus.COMPLETED,
                0,
                "r1",
                "e",
                null,
                null,
                List.of(),
                false,
                at.minusSeconds(300),
                at,
                at);
    }

    private static Event monitoringEvent(EventKind kind, String status, Map<String, Object> details, Instant at) {
        return new Event(kind, "silver", "daily", DAY, "r1", null, status, kind.wireName(), details, at);
    }

    @Test
    void aMonitoredDayIsMonitoringWithItsEndAndNextRoundThenCompletedOnceTheWindowEnds() {
        register(pipeline("silver", "monitoring: {enabled: true, duration: 1h}"));
        Instant completedAt = NOW.minusSeconds(600);
        store.runLogs().update(new RunLogKey("silver", DAY, "daily"), c -> completed(completedAt));
        store.events()
                .append(monitoringEvent(
                        EventKind.MONITORING_WAITING,
                        "WAITING",
                        Map.of(
                                "monitoringStartedAt", "2026-03-10T08:50:00.000Z",
                                "monitoringEndsAt", "2026-03-10T09:50:00.000Z",
                                "nextRoundAt", "2026-03-10T09:04:00.000Z",
                                "intervalSeconds", 300),
                        NOW.minusSeconds(60)));

        ScheduleStatus s = daily("silver", DAY);

        assertThat(s.state()).isEqualTo(DayState.MONITORING);
        assertThat(s.reason()).contains("watching for late data until 2026-03-10 09:50 +00:00");
        assertThat(s.monitoring())
                .isEqualTo(new ScheduleStatus.Monitoring(
                        "r1",
                        completedAt,
                        Instant.parse("2026-03-10T09:50:00Z"),
                        Instant.parse("2026-03-10T09:04:00Z")));
        assertThat(s.nextAction())
                .isEqualTo(
                        new ScheduleStatus.NextAction("next monitoring round", Instant.parse("2026-03-10T09:04:00Z")));
        assertThat(s.deadline()).isNull();

        // Past the window's end (the loop's last check may not have run yet) the day is COMPLETED.
        Instant later = Instant.parse("2026-03-10T09:51:00Z");
        ScheduleStatus after = new StatusReader(store, Clock.fixed(later, ZoneOffset.UTC))
                .status("silver", DAY)
                .orElseThrow()
                .schedules()
                .get(0);
        assertThat(after.state()).isEqualTo(DayState.COMPLETED);
        assertThat(after.reason()).contains("monitored for late data until 2026-03-10 09:50 +00:00");
        assertThat(after.monitoring()).isNull();
        assertThat(after.nextAction()).isNull();
    }

    @Test
    void monitoringThatEndedOrFoundDriftShowsCompletedAndSaysWhat() {
        register(pipeline("silver", "monitoring: {enabled: true, duration: 1h}"));
        store.runLogs().update(new RunLogKey("silver", DAY, "daily"), c -> completed(NOW.minusSeconds(600)));
        store.events()
                .append(monitoringEvent(
                        EventKind.MONITORING_WAITING,
                        "STARTED",
                        Map.of("monitoringEndsAt", "2026-03-10T09:50:00.000Z"),
                        NOW.minusSeconds(120)));
        store.events()
                .append(new Event(
                        EventKind.MONITORING_DRIFT_DETECTED,
                        "silver",
                        "daily",
                        DAY,
                        "r1",
                        null,
                        "DRIFT",
                        "drift in upstream-dependency",
                        Map.of(),
                        NOW.minusSeconds(30)));

        ScheduleStatus s = daily("silver", DAY);

        assertThat(s.state()).isEqualTo(DayState.COMPLETED);
        assertThat(s.reason()).contains("late data found at 2026-03-10 08:59:30 +00:00: drift in upstream-dependency");
        assertThat(s.monitoring()).isNull();
    }

    @Test
    void aWindowThatOpenedBeforeRegistrationIsForwardOnlyInItsZoneAroundMidnight() {
        // Registered at 00:45 in Tokyo (15:45 UTC the day before): the 00:30 window of the Tokyo day had opened.
        Instant registeredAt = Instant.parse("2026-03-09T15:45:00Z");
        InMemoryProvider tokyo = new InMemoryProvider(Clock.fixed(registeredAt, ZoneOffset.UTC));
        String schedules = "schedules: [{name: daily, after: \"00:30\", timezone: Asia/Tokyo}]";
        tokyo.pipelines().put(Documents.read(pipeline("early", schedules), PipelineConfig.class));
        tokyo.pipelines().put(Documents.read(pipeline("caught", schedules + "\ncatchUp: true"), PipelineConfig.class));
        StatusReader at = new StatusReader(tokyo, Clock.fixed(registeredAt.plusSeconds(600), ZoneOffset.UTC));

        PipelineDayStatus today = at.status("early", null).orElseThrow();
        assertThat(today.date()).isEqualTo(DAY); // the Tokyo date, not the UTC one
        ScheduleStatus s = today.schedules().get(0);
        assertThat(s.state()).isEqualTo(DayState.BEFORE_REGISTRATION);
        assertThat(s.reason())
                .contains("forward-only")
                .contains("opened at 2026-03-10 00:30 +09:00")
                .contains("registered at 2026-03-10 00:45 +09:00")
                .contains("catchUp");
        assertThat(s.nextAction().at()).isNull();
        assertThat(s.deadline()).isNull();
        // The day before is before registration too (not merely skipped); the next day waits for its window.
        assertThat(at.status("early", DAY.minusDays(1))
                        .orElseThrow()
                        .schedules()
                        .get(0)
                        .state())
                .isEqualTo(DayState.BEFORE_REGISTRATION);
        assertThat(at.status("early", DAY.plusDays(1))
                        .orElseThrow()
                        .schedules()
                        .get(0)
                        .state())
                .isEqualTo(DayState.WAITING_FOR_WINDOW);
        // catchUp runs the registration day's windows (in Tokyo), not the day before.
        assertThat(at.status("caught", DAY).orElseThrow().schedules().get(0).state())
                .isEqualTo(DayState.NOT_READY);
        assertThat(at.status("caught", DAY.minusDays(1))
                        .orElseThrow()
                        .schedules()
                        .get(0)
                        .state())
                .isEqualTo(DayState.BEFORE_REGISTRATION);
        assertThat(DayState.BEFORE_REGISTRATION.urgency())
                .isLessThan(DayState.WAITING_FOR_WINDOW.urgency())
                .isGreaterThan(DayState.SKIPPED.urgency());
    }

    @Test
    void aDeadlinePassedBeforeRegistrationIsNotFlaggedMissedAsTheWatchdogDoesNotAlertIt() {
        // Open all day, due by 08:00 UTC; registered at 09:00 on DAY: that day's deadline had passed.
        Instant registeredAt = DAY.atTime(9, 0).toInstant(ZoneOffset.UTC);
        InMemoryProvider late = new InMemoryProvider(Clock.fixed(registeredAt, ZoneOffset.UTC));
        late.pipelines()
                .put(Documents.read(
                        pipeline("late", "schedules: [{name: daily, deadline: \"08:00\"}]"), PipelineConfig.class));

        ScheduleStatus registrationDay = new StatusReader(
                        late, Clock.fixed(registeredAt.plusSeconds(3600), ZoneOffset.UTC))
                .status("late", DAY)
                .orElseThrow()
                .schedules()
                .get(0);
        ScheduleStatus nextDay = new StatusReader(
                        late, Clock.fixed(registeredAt.plus(java.time.Duration.ofHours(25)), ZoneOffset.UTC))
                .status("late", DAY.plusDays(1))
                .orElseThrow()
                .schedules()
                .get(0);

        assertThat(registrationDay.sla()).isNull();
        assertThat(nextDay.sla()).isNotNull();
        assertThat(nextDay.sla().state()).isEqualTo(SlaState.MISSED);
    }

    @Test
    void aForwardOnlyDayEvaluatedByHandShowsWhatReallyHappens() {
        register(pipeline("silver", "schedules: [{name: daily, after: \"06:00\"}]"));
        assertThat(daily("silver", DAY).state()).isEqualTo(DayState.BEFORE_REGISTRATION);

        store.runLogs()
                .update(
                        new RunLogKey("silver", DAY, "daily"),
                        c -> log("silver", RunLogStatus.RUNNING, "r1", NOW.minusSeconds(30)));

        assertThat(daily("silver", DAY).state()).isEqualTo(DayState.RUNNING);
    }

    @Test
    void aScheduleOpenAllDayIsNotForwardOnlyItsDeadlineCountsWheneverItWasRegistered() {
        register(pipeline("silver", ""));

        assertThat(daily("silver", DAY).state()).isEqualTo(DayState.NOT_READY);
    }
}
