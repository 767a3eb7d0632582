package dev.interlock.store.contract;

import static dev.interlock.store.contract.StoreSamples.DATE;
import static dev.interlock.store.contract.StoreSamples.T0;
import static dev.interlock.store.contract.StoreSamples.archetype;
import static dev.interlock.store.contract.StoreSamples.event;
import static dev.interlock.store.contract.StoreSamples.failedOnceMore;
import static dev.interlock.store.contract.StoreSamples.marker;
import static dev.interlock.store.contract.StoreSamples.pipeline;
import static dev.interlock.store.contract.StoreSamples.rerun;
import static dev.interlock.store.contract.StoreSamples.run;
import static dev.interlock.store.contract.StoreSamples.runLog;
import static dev.interlock.store.contract.StoreSamples.trait;
import static dev.interlock.store.contract.StoreSamples.withEntry;
import static dev.interlock.store.contract.StoreSamples.withStatus;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.alert.Alert;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.archetype.TraitDefinition;
import dev.interlock.model.calendar.Calendar;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.pipeline.ExclusionConfig;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.ReadinessRule;
import dev.interlock.model.pipeline.ScheduleConfig;
import dev.interlock.model.rerun.LateArrival;
import dev.interlock.model.rerun.Rerun;
import dev.interlock.model.rerun.RerunStatus;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.sensor.SensorValue;
import dev.interlock.model.trait.TraitResult;
import dev.interlock.model.trait.TraitStatus;
import dev.interlock.model.watch.PipelineWatch;
import dev.interlock.store.AlertKey;
import dev.interlock.store.AlertQuery;
import dev.interlock.store.BackfillDriver;
import dev.interlock.store.DependantCheck;
import dev.interlock.store.DueEntry;
import dev.interlock.store.InvalidCursorException;
import dev.interlock.store.LockFence;
import dev.interlock.store.LockHolder;
import dev.interlock.store.LockLostException;
import dev.interlock.store.Page;
import dev.interlock.store.PageRequest;
import dev.interlock.store.PipelineStore;
import dev.interlock.store.Provider;
import dev.interlock.store.Reference;
import dev.interlock.store.Registration;
import dev.interlock.store.RerunAcceptance;
import dev.interlock.store.RunLogKey;
import dev.interlock.store.RunTransition;
import dev.interlock.store.SensorStore;
import dev.interlock.store.TransitionOutcome;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The behaviour every Provider must have (store/package-info.java). Subclasses supply a fresh, empty Provider per test that reads
 * time from the given clock; the same tests then prove the in-memory and the DynamoDB Provider interchangeable.
 */
public abstract class ProviderContract {

    /** Pages read in the 1 MB tests: big items, so the whole listing spans several DynamoDB Query pages. */
    protected static final int LARGE_ITEM_BYTES = 40_000;

    protected static final int LARGE_ITEM_COUNT = 32;

    protected ManualClock clock;
    protected Provider provider;

    /** A new, empty Provider whose notion of "now" is {@code clock}. */
    protected abstract Provider newProvider(Clock clock);

    @BeforeEach
    void freshProvider() {
        clock = new ManualClock(T0);
        provider = newProvider(clock);
    }

    // ---------------------------------------------------------------- alert history

    private static Alert sentAlert(String pipeline, AlertKind kind, Instant at) {
        return new Alert(
                AlertLevel.ERROR,
                kind,
                pipeline,
                "daily",
                LocalDate.ofInstant(at, java.time.ZoneOffset.UTC),
                kind.wireName() + " of " + pipeline,
                Map.of("deadline", "09:00"),
                at);
    }

    @Test
    void alertHistoryListsAcrossDaysNewestFirstWithFiltersAndPagesAndEachAlertIsAnEventOfItsDay() {
        Instant twoDaysAgo = T0.minus(Duration.ofDays(2));
        Alert oldest = sentAlert("gold", AlertKind.SLA_MISSED, twoDaysAgo);
        Alert yesterday = sentAlert("silver", AlertKind.EXECUTION_ERROR, T0.minus(Duration.ofDays(1)));
        Alert today = sentAlert("gold", AlertKind.EXECUTION_ERROR, T0.minusSeconds(60));
        Alert tooOld = sentAlert("gold", AlertKind.SLA_MISSED, T0.minus(Duration.ofDays(45)));
        for (Alert a : List.of(tooOld, oldest, yesterday, today)) {
            provider.alertHistory().record(a);
        }

        assertThat(Page.all(2, page -> provider.alertHistory().list(AlertQuery.ALL, page)))
                .as("newest first, across day partitions, the retention's end excluded")
                .containsExactly(today, yesterday, oldest);
        Page<Alert> first = provider.alertHistory().list(AlertQuery.ALL, PageRequest.first(1));
        assertThat(first.items()).containsExactly(today);
        Page<Alert> second = provider.alertHistory()
                .list(AlertQuery.ALL, PageRequest.first(1).after(first.nextCursor()));
        assertThat(second.items()).containsExactly(yesterday);
        Page<Alert> third = provider.alertHistory()
                .list(AlertQuery.ALL, PageRequest.first(1).after(second.nextCursor()));
        assertThat(third.items()).containsExactly(oldest);
        assertThat(third.nextCursor())
                .as("no cursor when nothing older follows")
                .isNull();

        assertThat(provider.alertHistory()
                        .list(new AlertQuery("gold", null, null), PageRequest.first(10))
                        .items())
                .containsExactly(today, oldest);
        assertThat(provider.alertHistory()
                        .list(new AlertQuery(null, AlertKind.EXECUTION_ERROR, null), PageRequest.first(10))
                        .items())
                .containsExactly(today, yesterday);
        assertThat(provider.alertHistory()
                        .list(new AlertQuery(null, null, yesterday.timestamp()), PageRequest.first(10))
                        .items())
                .containsExactly(today, yesterday);
        assertThat(provider.alertHistory()
                        .list(new AlertQuery("gold", AlertKind.SLA_MISSED, T0), PageRequest.first(10))
                        .items())
                .isEmpty();

        List<Event> goldEvents =
                provider.events().read("gold", PageRequest.first(10)).items();
        assertThat(goldEvents)
                .extracting(Event::kind, Event::status, Event::date)
                .contains(
                        org.assertj.core.groups.Tuple.tuple(EventKind.ALERT_SENT, "SLA_MISSED", oldest.date()),
                        org.assertj.core.groups.Tuple.tuple(EventKind.ALERT_SENT, "EXECUTION_ERROR", today.date()));
    }

    // ---------------------------------------------------------------- pipelines, archetypes, calendars

    @Test
    void pipelinePutGetDeleteRoundTrips() {
        PipelineConfig gold = pipeline("gold");
        assertThat(provider.pipelines().put(gold)).isTrue();
        assertThat(provider.pipelines().get("gold")).contains(gold);

        PipelineConfig changed = pipeline("gold", 99);
        assertThat(provider.pipelines().put(changed)).isFalse();
        assertThat(provider.pipelines().get("gold")).contains(changed);

        assertThat(provider.pipelines().delete("gold")).isTrue();
        assertThat(provider.pipelines().get("gold")).isEmpty();
        assertThat(provider.pipelines().delete("gold")).isFalse();
    }

    @Test
    void downstreamIndexFollowsRegisterUpdateAndDelete() {
        provider.pipelines().put(pipeline("gold", "silver", "bronze"));
        provider.pipelines().put(pipeline("platinum", "silver"));
        assertThat(provider.cascade().downstreamOf("silver")).containsExactly("gold", "platinum");
        assertThat(provider.cascade().downstreamOf("bronze")).containsExactly("gold");

        provider.pipelines().put(pipeline("gold", "bronze"));
        assertThat(provider.cascade().downstreamOf("silver")).containsExactly("platinum");
        assertThat(provider.cascade().downstreamOf("bronze")).containsExactly("gold");

        provider.pipelines().delete("gold");
        assertThat(provider.cascade().downstreamOf("bronze")).isEmpty();
        assertThat(provider.cascade().downstreamOf("silver")).containsExactly("platinum");
        assertThat(provider.cascade().downstreamOf("nobody-depends-on-me")).isEmpty();
    }

    @Test
    void pipelinesArePagedInNameOrderWithOpaqueCursors() {
        for (String name : List.of("e", "c", "a", "d", "b")) {
            provider.pipelines().put(pipeline("p-" + name));
        }
        Page<PipelineConfig> first = provider.pipelines().list(PageRequest.first(2));
        assertThat(first.items()).extracting(PipelineConfig::name).containsExactly("p-a", "p-b");
        assertThat(first.nextCursor()).isNotBlank();
        Page<PipelineConfig> second =
                provider.pipelines().list(PageRequest.first(2).after(first.nextCursor()));
        assertThat(second.items()).extracting(PipelineConfig::name).containsExactly("p-c", "p-d");
        Page<PipelineConfig> third =
                provider.pipelines().list(PageRequest.first(2).after(second.nextCursor()));
        assertThat(third.items()).extracting(PipelineConfig::name).containsExactly("p-e");
        assertThat(third.isLast()).isTrue();

        Page<PipelineConfig> exact = provider.pipelines().list(PageRequest.first(5));
        assertThat(exact.items()).hasSize(5);
        assertThat(exact.isLast())
                .as("no empty trailing page when the limit is met exactly")
                .isTrue();

        assertThatThrownBy(() -> provider.pipelines().list(PageRequest.first(2).after("not-a-cursor")))
                .isInstanceOf(InvalidCursorException.class);
    }

    @Test
    void pipelinesAreListedPastOneMegabyte() {
        for (int i = 0; i < LARGE_ITEM_COUNT; i++) {
            provider.pipelines().put(pipeline(String.format("big-%02d", i), LARGE_ITEM_BYTES));
        }
        Page<PipelineConfig> all = provider.pipelines().list(PageRequest.first(PageRequest.MAX_LIMIT));
        assertThat(all.items()).hasSize(LARGE_ITEM_COUNT);
        assertThat(all.items().get(LARGE_ITEM_COUNT - 1).name())
                .isEqualTo(String.format("big-%02d", LARGE_ITEM_COUNT - 1));
        assertThat(all.isLast()).isTrue();

        List<PipelineConfig> paged = Page.all(7, provider.pipelines()::list);
        assertThat(paged)
                .extracting(PipelineConfig::name)
                .containsExactlyElementsOf(
                        all.items().stream().map(PipelineConfig::name).toList());
    }

    @Test
    void getAllReturnsTheExistingPipelinesPastOneBatch() {
        // 102 ids: more than one BatchGetItem (100 keys) takes; a third of them exist.
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 102; i++) {
            String id = String.format("many-%03d", i);
            ids.add(id);
            if (i % 3 == 0) {
                provider.pipelines().put(pipeline(id));
            }
        }
        Map<String, PipelineConfig> found = provider.pipelines().getAll(ids);
        assertThat(found).hasSize(34);
        assertThat(found).containsKeys("many-000", "many-099").doesNotContainKeys("many-001", "many-101");
        assertThat(found.get("many-099")).isEqualTo(pipeline("many-099"));
        assertThat(provider.pipelines().getAll(List.of())).isEmpty();
    }

    @Test
    void archetypesAndCalendarsRoundTripAndListByName() {
        assertThat(provider.archetypes().put(archetype("streaming-enrichment"))).isTrue();
        assertThat(provider.archetypes().put(archetype("batch-ingestion"))).isTrue();
        assertThat(provider.archetypes().put(archetype("batch-ingestion"))).isFalse();
        assertThat(provider.archetypes().get("batch-ingestion")).contains(archetype("batch-ingestion"));
        assertThat(provider.archetypes().get("unknown")).isEmpty();
        assertThat(provider.archetypes().list(PageRequest.first(10)).items())
                .extracting(a -> a.name())
                .containsExactly("batch-ingestion", "streaming-enrichment");

        Calendar holidays = new Calendar("holidays", "bank holidays", List.of("saturday"), List.of("2026-12-25"));
        assertThat(provider.calendars().put(holidays)).isTrue();
        assertThat(provider.calendars().put(new Calendar("freeze", null, List.of(), List.of("2026-12-31"))))
                .isTrue();
        assertThat(provider.calendars().get("holidays")).contains(holidays);
        assertThat(provider.calendars().list(PageRequest.first(10)).items())
                .extracting(Calendar::name)
                .containsExactly("freeze", "holidays");
    }

    // ---------------------------------------------------------------- the users of archetypes, calendars and sensors

    /** {@code pipeline} naming archetype {@code archetype} and exclusion calendar {@code calendar} (null: none). */
    private static PipelineConfig using(PipelineConfig pipeline, String archetype, String calendar) {
        return new PipelineConfig(
                pipeline.name(),
                pipeline.description(),
                archetype,
                pipeline.tier(),
                pipeline.traits(),
                pipeline.trigger(),
                pipeline.retry(),
                pipeline.sla(),
                pipeline.schedules(),
                calendar == null ? null : new ExclusionConfig(calendar, List.of(), List.of()),
                pipeline.monitoring(),
                pipeline.dryRun(),
                pipeline.evaluationIntervalSeconds(),
                pipeline.pollIntervalSeconds(),
                pipeline.pollLimit(),
                pipeline.maxJobDurationSeconds(),
                false,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    private static Archetype described(String name, String description) {
        Archetype base = archetype(name);
        return new Archetype(name, description, base.requiredTraits(), base.optionalTraits(), base.readinessRule());
    }

    @Test
    void theUsersOfArchetypesCalendarsAndSensorsFollowRegisterUpdateAndDelete() {
        provider.calendars().put(new Calendar("holidays", null, List.of(), List.of("2099-12-25")));
        provider.pipelines().put(using(pipeline("gold"), "batch-ingestion", "holidays"));
        provider.pipelines().put(using(pipeline("silver"), "batch-ingestion", null));
        assertThat(provider.pipelines().dependants(Reference.archetype("batch-ingestion")))
                .containsExactly("gold", "silver");
        assertThat(provider.pipelines().dependants(Reference.calendar("holidays")))
                .containsExactly("gold");
        // StoreSamples' pipelines read a sensor named after themselves.
        assertThat(provider.pipelines().dependants(Reference.sensor("gold"))).containsExactly("gold");

        provider.pipelines().put(using(pipeline("gold"), "streaming-enrichment", null));
        assertThat(provider.pipelines().dependants(Reference.archetype("batch-ingestion")))
                .containsExactly("silver");
        assertThat(provider.pipelines().dependants(Reference.archetype("streaming-enrichment")))
                .containsExactly("gold");
        assertThat(provider.pipelines().dependants(Reference.calendar("holidays")))
                .isEmpty();

        provider.pipelines().delete("gold");
        assertThat(provider.pipelines().dependants(Reference.archetype("streaming-enrichment")))
                .isEmpty();
        assertThat(provider.pipelines().dependants(Reference.sensor("gold"))).isEmpty();
        assertThat(provider.pipelines().dependants(Reference.sensor("nobody-reads-me")))
                .isEmpty();
    }

    @Test
    void aRegistrationTheCheckRefusesWritesNothing() {
        provider.calendars().put(new Calendar("holidays", null, List.of(), List.of()));
        Registration refused = provider.pipelines()
                .register(
                        using(pipeline("gold", "silver"), "batch-ingestion", "holidays"),
                        (config, referenced) -> List.of(new ValidationError("$.exclusions.calendar", "no")));

        assertThat(refused)
                .isEqualTo(new Registration.Refused(List.of(new ValidationError("$.exclusions.calendar", "no"))));
        assertThat(provider.pipelines().get("gold")).isEmpty();
        assertThat(provider.cascade().downstreamOf("silver")).isEmpty();
        assertThat(provider.pipelines().dependants(Reference.calendar("holidays")))
                .isEmpty();
        assertThat(provider.pipelines().dependants(Reference.archetype("batch-ingestion")))
                .isEmpty();
    }

    @Test
    void theReferenceCheckSeesTheRegisteredArchetypeAndCalendar() {
        Calendar holidays = new Calendar("holidays", null, List.of("sunday"), List.of());
        provider.calendars().put(holidays);
        provider.archetypes().put(described("custom", "v1"));
        List<PipelineStore.Referenced> seen = new ArrayList<>();

        Registration written = provider.pipelines()
                .register(using(pipeline("gold"), "custom", "holidays"), (config, referenced) -> {
                    seen.add(referenced);
                    return List.of();
                });
        provider.pipelines().register(using(pipeline("silver"), "batch-ingestion", "missing"), (config, referenced) -> {
            seen.add(referenced);
            return List.of();
        });

        assertThat(written).isEqualTo(new Registration.Written(true));
        assertThat(seen)
                .containsExactly(
                        new PipelineStore.Referenced(described("custom", "v1"), holidays),
                        new PipelineStore.Referenced(null, null));
    }

    @Test
    void anArchetypeChangeIsCheckedAgainstEveryUserAndABlockedOneWritesNothing() {
        provider.archetypes().put(described("custom", "v1"));
        provider.archetypes().put(described("custom-sensors", "v1"));
        provider.pipelines().put(using(pipeline("gold"), "custom", null));
        provider.pipelines().put(using(pipeline("silver"), "custom", null));
        List<String> checked = new ArrayList<>();

        Registration blocked = provider.archetypes().register(described("custom", "v2"), user -> {
            checked.add(user.name());
            return user.name().equals("gold") ? List.of(new ValidationError("$.traits.x", "not declared")) : List.of();
        });

        assertThat(checked).containsExactly("gold", "silver");
        assertThat(blocked)
                .isEqualTo(new Registration.Blocked(List.of(new Registration.BrokenPipeline(
                        "gold", List.of(new ValidationError("$.traits.x", "not declared"))))));
        assertThat(provider.archetypes().get("custom")).contains(described("custom", "v1"));
        assertThat(provider.archetypes().register(described("custom", "v2"), user -> List.of()))
                .isEqualTo(new Registration.Written(false));
        assertThat(provider.archetypes().get("custom")).contains(described("custom", "v2"));
    }

    @Test
    void aPipelineRegisteredWhileItsArchetypeIsBeingChangedIsCheckedAgainstTheChange() {
        provider.archetypes().put(described("custom", "v1"));
        provider.pipelines().put(using(pipeline("gold"), "custom", null));
        AtomicInteger checks = new AtomicInteger();

        // While the change checks its users, a new user is registered (checked against v1, which it passes).
        Registration change = provider.archetypes().register(described("custom", "v2"), user -> {
            if (checks.incrementAndGet() == 1) {
                assertThat(provider.pipelines().put(using(pipeline("late"), "custom", null)))
                        .isTrue();
            }
            return user.name().equals("late") ? List.of(new ValidationError("$.traits", "breaks under v2")) : List.of();
        });

        assertThat(change).isInstanceOf(Registration.Blocked.class);
        assertThat(((Registration.Blocked) change).dependants())
                .extracting(Registration.BrokenPipeline::pipelineId)
                .containsExactly("late");
        assertThat(provider.archetypes().get("custom")).contains(described("custom", "v1"));
    }

    @Test
    void anArchetypeChangedWhileAPipelineIsCheckedMakesThePipelineCheckAgain() {
        provider.archetypes().put(described("custom", "v1"));
        List<String> checkedAgainst = new ArrayList<>();

        Registration registration = provider.pipelines()
                .register(using(pipeline("gold"), "custom", null), (config, referenced) -> {
                    checkedAgainst.add(referenced.archetype().description());
                    if (checkedAgainst.size() == 1) {
                        // Nobody uses the archetype yet, so this change is accepted while the pipeline's check is
                        // running.
                        assertThat(provider.archetypes().put(described("custom", "v2")))
                                .isFalse();
                    }
                    return referenced.archetype().description().equals("v2")
                            ? List.of(new ValidationError("$.archetype", "breaks under v2"))
                            : List.of();
                });

        assertThat(checkedAgainst).containsExactly("v1", "v2");
        assertThat(registration).isInstanceOf(Registration.Refused.class);
        assertThat(provider.pipelines().get("gold")).isEmpty();
        assertThat(provider.pipelines().dependants(Reference.archetype("custom")))
                .isEmpty();
    }

    @Test
    void aCalendarInUseIsDeletedOnlyWhenNoUsersCheckFails() {
        provider.calendars().put(new Calendar("freeze", null, List.of(), List.of("2099-12-31")));
        provider.pipelines().put(using(pipeline("gold"), "batch-ingestion", "freeze"));
        DependantCheck gone = user -> List.of(new ValidationError("$.exclusions.calendar", "would no longer exist"));

        assertThat(provider.calendars().delete("freeze", gone))
                .isEqualTo(new Registration.Blocked(List.of(new Registration.BrokenPipeline(
                        "gold", List.of(new ValidationError("$.exclusions.calendar", "would no longer exist"))))));
        assertThat(provider.calendars().get("freeze")).isPresent();

        provider.pipelines().put(using(pipeline("gold"), "batch-ingestion", null));
        assertThat(provider.calendars().delete("freeze", gone)).isEqualTo(new Registration.Deleted());
        assertThat(provider.calendars().get("freeze")).isEmpty();
        assertThat(provider.calendars().delete("freeze", gone)).isEqualTo(new Registration.NotFound());
        assertThat(provider.calendars().list(PageRequest.first(10)).items()).isEmpty();
        // A pipeline registered now is checked against no calendar.
        List<PipelineStore.Referenced> seen = new ArrayList<>();
        provider.pipelines().register(using(pipeline("late"), "batch-ingestion", "freeze"), (config, referenced) -> {
            seen.add(referenced);
            return List.of();
        });
        assertThat(seen).containsExactly(new PipelineStore.Referenced(null, null));
    }

    @Test
    void anArchetypesSensorsAreIndexedWithTheArchetype() {
        Archetype reading = new Archetype(
                "sensing",
                null,
                List.of(new TraitDefinition(
                        "landed",
                        null,
                        "builtin:sensor-freshness",
                        Map.of("sensor", "raw-orders", "maxAgeSeconds", 60),
                        0,
                        0)),
                List.of(),
                ReadinessRule.ALL_REQUIRED_PASS);
        provider.archetypes().put(reading);
        assertThat(provider.archetypes().readersOf("raw-orders")).containsExactly("sensing");

        provider.archetypes().put(described("sensing", "no sensors now"));
        assertThat(provider.archetypes().readersOf("raw-orders")).isEmpty();
    }

    @Test
    void aRegistrationTooLargeForOneTransactionIsRefusedNotFailed() {
        String[] upstreams = new String[99];
        for (int i = 0; i < upstreams.length; i++) {
            upstreams[i] = String.format("up-%02d", i);
        }
        Registration refused =
                provider.pipelines().register(pipeline("wide", upstreams), PipelineStore.ReferenceCheck.NONE);

        assertThat(refused).isInstanceOf(Registration.Refused.class);
        assertThat(((Registration.Refused) refused).problems())
                .extracting(ValidationError::path)
                .containsExactly("$.traits");
        assertThat(provider.pipelines().get("wide")).isEmpty();
    }

    // ---------------------------------------------------------------- traits and sensors

    @Test
    void traitResultsAreKeyedByDateScheduleAndTrait() {
        LocalDate yesterday = DATE.minusDays(1);
        provider.traits().put(trait("gold", DATE, "h07", "source-freshness", TraitStatus.PASS, T0, null));
        provider.traits().put(trait("gold", DATE, "h08", "source-freshness", TraitStatus.FAIL, T0, null));
        provider.traits().put(trait("gold", DATE, "h07", "row-count", TraitStatus.PASS, T0, null));
        provider.traits().put(trait("gold", yesterday, "h07", "source-freshness", TraitStatus.ERROR, T0, null));

        assertThat(provider.traits().get("gold", DATE, "h07", "source-freshness"))
                .map(TraitResult::status)
                .contains(TraitStatus.PASS);
        assertThat(provider.traits().get("gold", DATE, "h08", "source-freshness"))
                .map(TraitResult::status)
                .contains(TraitStatus.FAIL);
        assertThat(provider.traits().list("gold", DATE, "h07"))
                .extracting(TraitResult::traitType)
                .containsExactly("row-count", "source-freshness");
        assertThat(provider.traits()
                        .listByPipeline("gold", PageRequest.first(10))
                        .items())
                .extracting(t -> t.date() + "/" + t.scheduleId() + "/" + t.traitType())
                .containsExactly(
                        DATE + "/h08/source-freshness",
                        DATE + "/h07/source-freshness",
                        DATE + "/h07/row-count",
                        yesterday + "/h07/source-freshness");
        assertThat(provider.traits().ofDay("gold", DATE))
                .as("every schedule's results of the day, by schedule then trait; no other day's")
                .extracting(t -> t.scheduleId() + "/" + t.traitType())
                .containsExactly("h07/row-count", "h07/source-freshness", "h08/source-freshness");
        assertThat(provider.traits().ofDay("gold", DATE.plusDays(1))).isEmpty();
    }

    @Test
    void aRoundRecordsEveryTraitResultAndEventTogetherAndRepeatsHarmlessly() {
        provider.traits().put(trait("gold", DATE, "daily", "source-freshness", TraitStatus.FAIL, T0, null));
        List<TraitResult> round = new java.util.ArrayList<>();
        List<Event> roundEvents = new java.util.ArrayList<>();
        // More than one batch's worth (25 items): 14 results and 15 events, every event at the same millisecond.
        for (int i = 0; i < 14; i++) {
            String type = i == 0 ? "source-freshness" : String.format("trait-%02d", i);
            round.add(trait("gold", DATE, "daily", type, TraitStatus.PASS, T0, T0.plusSeconds(300)));
            roundEvents.add(new Event(
                    EventKind.TRAIT_EVALUATED, "gold", "daily", DATE, null, type, "PASS", null, Map.of(), T0));
        }
        roundEvents.add(new Event(
                EventKind.READINESS_CHECKED, "gold", "daily", DATE, "run-1", null, "READY", "ready", Map.of(), T0));

        provider.recordRound(round, roundEvents);
        provider.recordRound(round, roundEvents);

        assertThat(provider.traits().list("gold", DATE, "daily"))
                .hasSize(14)
                .allSatisfy(r -> assertThat(r.status()).isEqualTo(TraitStatus.PASS));
        assertThat(provider.events().read("gold", PageRequest.first(100)).items())
                .as("a repeated round adds its events again, never overwrites the first")
                .hasSize(30);
        clock.advance(Duration.ofSeconds(300));
        assertThat(provider.traits().list("gold", DATE, "daily"))
                .as("each result keeps its own expiry")
                .isEmpty();
    }

    @Test
    void expiredTraitResultsReadAsAbsent() {
        TraitResult result = trait("gold", DATE, "daily", "source-freshness", TraitStatus.PASS, T0, T0.plusSeconds(60));
        provider.traits().put(result);
        clock.advance(Duration.ofSeconds(59));
        assertThat(provider.traits().get("gold", DATE, "daily", "source-freshness"))
                .contains(result);
        assertThat(provider.traits().list("gold", DATE, "daily")).containsExactly(result);

        clock.advance(Duration.ofSeconds(1));
        assertThat(provider.traits().get("gold", DATE, "daily", "source-freshness"))
                .isEmpty();
        assertThat(provider.traits().list("gold", DATE, "daily")).isEmpty();
        assertThat(provider.traits()
                        .listByPipeline("gold", PageRequest.first(10))
                        .items())
                .isEmpty();
    }

    @Test
    void sensorValuesAreReplacedAndExpire() {
        provider.sensors().write(new SensorValue("orders", Map.of("count", 1000), T0));
        SensorValue latest = new SensorValue("orders", Map.of("count", 1500, "complete", true), T0.plusSeconds(5));
        SensorStore.SensorWrite written = provider.sensors().write(latest);
        assertThat(written.changed()).isTrue();
        assertThat(written.stored()).isEqualTo(latest.atRevision(2));
        assertThat(provider.sensors().get("orders")).contains(latest.atRevision(2));
        assertThat(provider.sensors().get("unknown")).isEmpty();

        provider.sensors().write(new SensorValue("clicks", Map.of("count", 1), T0), T0.plusSeconds(10));
        clock.advance(Duration.ofSeconds(10));
        assertThat(provider.sensors().get("clicks")).isEmpty();
        assertThat(provider.sensors().get("orders")).contains(latest.atRevision(2));
    }

    @Test
    void theSameFieldsAgainKeepTheRevisionAndOnlyMoveUpdatedAt() {
        SensorStore.SensorWrite first =
                provider.sensors().write(new SensorValue("orders", Map.of("count", 10, "complete", true), T0));
        SensorStore.SensorWrite again = provider.sensors()
                .write(new SensorValue("orders", Map.of("complete", true, "count", 10), T0.plusSeconds(60)));
        assertThat(first.changed()).isTrue();
        assertThat(first.stored().revision()).isEqualTo(1);
        assertThat(again.changed()).isFalse();
        assertThat(again.stored().revision()).isEqualTo(1);
        assertThat(provider.sensors().get("orders").orElseThrow().updatedAt()).isEqualTo(T0.plusSeconds(60));

        SensorStore.SensorWrite back =
                provider.sensors().write(new SensorValue("orders", Map.of("count", 11), T0.plusSeconds(61)));
        assertThat(back.changed()).isTrue();
        assertThat(back.stored().revision()).isEqualTo(2);
    }

    @Test
    void partitionsOfASensorAreSeparateValues() {
        SensorValue yesterday = new SensorValue("orders", "2026-02-28", Map.of("complete", true), T0, 0);
        SensorValue hour = new SensorValue("orders", "2026-03-01T06", Map.of("complete", false), T0, 0);
        provider.sensors().write(yesterday);
        provider.sensors().write(hour);
        provider.sensors().write(new SensorValue("orders", Map.of("count", 5), T0));

        assertThat(provider.sensors().get("orders", "2026-02-28")).contains(yesterday.atRevision(1));
        assertThat(provider.sensors().get("orders", "2026-03-01T06")).contains(hour.atRevision(1));
        assertThat(provider.sensors().get("orders", "2026-03-01")).isEmpty();
        assertThat(provider.sensors().get("orders").orElseThrow().fields()).isEqualTo(Map.of("count", 5));
        assertThat(provider.sensors().get("orders").orElseThrow().partition()).isNull();
    }

    @Test
    void revisionsKeepCountingPastAnExpiredValue() {
        provider.sensors().write(new SensorValue("clicks", Map.of("count", 1), T0), T0.plusSeconds(10));
        clock.advance(Duration.ofSeconds(10));
        SensorStore.SensorWrite after =
                provider.sensors().write(new SensorValue("clicks", Map.of("count", 1), T0.plusSeconds(10)));
        assertThat(after.changed()).isTrue();
        assertThat(after.stored().revision()).isEqualTo(2);
    }

    @Test
    void concurrentSensorWritersEachGetTheirOwnRevision() throws Exception {
        int writers = 10;
        List<Long> changedRevisions = new CopyOnWriteArrayList<>();
        runConcurrently(writers, w -> {
            SensorStore.SensorWrite written = provider.sensors().write(new SensorValue("hot", Map.of("writer", w), T0));
            if (written.changed()) {
                changedRevisions.add(written.stored().revision());
            }
            return null;
        });
        assertThat(changedRevisions).doesNotHaveDuplicates().hasSize(writers);
        assertThat(provider.sensors().get("hot").orElseThrow().revision()).isEqualTo(writers);
    }

    // ---------------------------------------------------------------- runs and compare-and-swap

    @Test
    void runIsCreatedOnceAndSwappedOnlyFromTheExpectedVersion() {
        RunState created = run("r1", "gold", T0);
        assertThat(provider.runs().create(created)).isTrue();
        assertThat(provider.runs().create(created.withMetadata(Map.of("second", "write"))))
                .isFalse();
        assertThat(provider.runs().get("r1")).contains(created);

        RunState triggering = created.moveTo(RunStatus.TRIGGERING, T0.plusSeconds(1));
        assertThat(provider.runs().compareAndSwap(1, triggering)).isTrue();
        assertThat(provider.runs().compareAndSwap(1, created.moveTo(RunStatus.CANCELLED, T0.plusSeconds(2))))
                .isFalse();
        assertThat(provider.runs().get("r1")).contains(triggering);

        assertThat(provider.runs().compareAndSwap(1, run("missing", "gold", T0).moveTo(RunStatus.TRIGGERING, T0)))
                .isFalse();
        assertThat(provider.runs().get("missing")).isEmpty();
        assertThatThrownBy(() -> provider.runs().compareAndSwap(5, triggering))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "{0} concurrent writers")
    @ValueSource(ints = {10, 50})
    void compareAndSwapHasExactlyOneWinnerPerVersionAndLosesNoUpdate(int writers) throws Exception {
        int swapsPerWriter = writers <= 10 ? 5 : 1;
        provider.runs().create(run("hot", "gold", T0));
        Map<Long, List<String>> winnersByVersion = new ConcurrentHashMap<>();
        AtomicInteger successes = new AtomicInteger();
        AtomicInteger conflicts = new AtomicInteger();

        runConcurrently(writers, w -> {
            for (int s = 0; s < swapsPerWriter; s++) {
                String entry = "w" + w + "-" + s;
                while (true) {
                    RunState current = provider.runs().get("hot").orElseThrow();
                    RunState next = withEntry(current, entry, T0);
                    if (provider.runs().compareAndSwap(current.version(), next)) {
                        winnersByVersion
                                .computeIfAbsent(next.version(), v -> new CopyOnWriteArrayList<>())
                                .add(entry);
                        successes.incrementAndGet();
                        break;
                    }
                    conflicts.incrementAndGet();
                }
            }
            return null;
        });

        RunState last = provider.runs().get("hot").orElseThrow();
        int expected = writers * swapsPerWriter;
        assertThat(successes.get()).isEqualTo(expected);
        assertThat(last.version()).isEqualTo(1L + expected);
        assertThat(winnersByVersion).hasSize(expected);
        assertThat(winnersByVersion.values())
                .allSatisfy(winners -> assertThat(winners).hasSize(1));
        assertThat(winnersByVersion.keySet())
                .containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(2, expected + 1)
                        .mapToObj(Long::valueOf)
                        .toList());
        // No lost update: every successful writer's entry survived all later swaps.
        assertThat(last.metadata()).hasSize(expected);
        winnersByVersion.forEach((version, winners) ->
                assertThat(last.metadata()).containsEntry(winners.getFirst(), Long.toString(version)));
    }

    @Test
    void runsAreListedByPipelineNewestFirst() {
        for (int i = 0; i < 5; i++) {
            provider.runs().create(run("g" + i, "gold", T0.plusSeconds(i)));
        }
        provider.runs().create(run("s0", "silver", T0));
        Page<RunState> first = provider.runs().listByPipeline("gold", PageRequest.first(3));
        assertThat(first.items()).extracting(RunState::runId).containsExactly("g4", "g3", "g2");
        Page<RunState> rest =
                provider.runs().listByPipeline("gold", PageRequest.first(3).after(first.nextCursor()));
        assertThat(rest.items()).extracting(RunState::runId).containsExactly("g1", "g0");
        assertThat(rest.isLast()).isTrue();
    }

    @Test
    void nonTerminalRunsInTheWindowAreListedForTheWatchdog() {
        RunState stuck = run("stuck", "gold", T0.minus(Duration.ofHours(6)));
        RunState done = run("done", "gold", T0.minus(Duration.ofHours(5)));
        RunState young = run("young", "gold", T0.minus(Duration.ofMinutes(10)));
        RunState ancient = run("ancient", "gold", T0.minus(Duration.ofDays(3)));
        for (RunState r : List.of(stuck, done, young, ancient)) {
            provider.runs().create(r);
        }
        RunState triggering = done.moveTo(RunStatus.TRIGGERING, T0);
        provider.runs().compareAndSwap(1, triggering);
        provider.runs().compareAndSwap(2, triggering.moveTo(RunStatus.COMPLETED, T0));

        List<RunState> found =
                provider.runs().listNonTerminal("gold", T0.minus(Duration.ofDays(1)), T0.minus(Duration.ofHours(4)));
        assertThat(found).extracting(RunState::runId).containsExactly("stuck");
    }

    @Test
    void runsCreatedInTheWindowAreListedEndedOrNotOldestFirst() {
        RunState older = run("older", "gold", T0.minus(Duration.ofHours(6)));
        RunState done = run("done", "gold", T0.minus(Duration.ofHours(5)));
        RunState young = run("young", "gold", T0.minus(Duration.ofMinutes(10)));
        RunState ancient = run("ancient", "gold", T0.minus(Duration.ofDays(3)));
        for (RunState r : List.of(older, done, young, ancient)) {
            provider.runs().create(r);
        }
        RunState triggering = done.moveTo(RunStatus.TRIGGERING, T0);
        provider.runs().compareAndSwap(1, triggering);
        provider.runs().compareAndSwap(2, triggering.moveTo(RunStatus.COMPLETED, T0));

        List<RunState> found =
                provider.runs().listCreated("gold", T0.minus(Duration.ofDays(1)), T0.minus(Duration.ofHours(4)));
        assertThat(found).extracting(RunState::runId).containsExactly("older", "done");
        assertThat(found.get(1).status()).isEqualTo(RunStatus.COMPLETED);
    }

    @Test
    void expiredRunsReadAsAbsentAndCannotBeSwapped() {
        provider.runs().create(run("old", "gold", T0));
        clock.advance(Duration.ofDays(31));
        assertThat(provider.runs().get("old")).isEmpty();
        assertThat(provider.runs().listByPipeline("gold", PageRequest.first(10)).items())
                .isEmpty();
        assertThat(provider.runs().compareAndSwap(1, run("old", "gold", T0).moveTo(RunStatus.TRIGGERING, T0)))
                .isFalse();
    }

    // ---------------------------------------------------------------- run logs

    @Test
    void runLogUpdatesPreserveAttemptNumberAndRetryHistory() {
        RunLogKey key = new RunLogKey("gold", DATE, "daily");
        RunLog pending = provider.runLogs()
                .update(
                        key,
                        current ->
                                current.orElse(runLog("gold", DATE, "daily", RunLogStatus.PENDING, 0, List.of(), T0)));
        RunLog failed = provider.runLogs()
                .update(key, current -> failedOnceMore(current.orElseThrow(), "r1", T0.plusSeconds(60)));
        assertThat(failed.attemptNumber()).isEqualTo(1);
        RunLog running = provider.runLogs()
                .update(
                        key,
                        current -> withStatus(current.orElseThrow(), RunLogStatus.RUNNING, "r2", T0.plusSeconds(120)));
        assertThat(running.attemptNumber()).isEqualTo(1);
        assertThat(running.retryHistory()).isEqualTo(failed.retryHistory());
        assertThat(provider.runLogs().get(key)).contains(running);
        RunLogKey otherSchedule = new RunLogKey("gold", DATE, "h01");
        RunLogKey otherDay = new RunLogKey("gold", DATE.minusDays(1), "daily");
        assertThat(provider.runLogs().getAll(List.of(key, otherSchedule, otherDay)))
                .as("many run logs at once: an absent one is left out")
                .containsExactly(Map.entry(key, running));
        assertThat(pending.status()).isEqualTo(RunLogStatus.PENDING);

        // A writer that would reset the ledger (the Go original's trigger) is refused and writes nothing.
        assertThatThrownBy(() -> provider.runLogs()
                        .update(key, current -> runLog("gold", DATE, "daily", RunLogStatus.RUNNING, 0, List.of(), T0)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("attemptNumber");
        assertThatThrownBy(() -> provider.runLogs()
                        .update(
                                key,
                                current -> withStatus(
                                        runLog("gold", DATE, "daily", RunLogStatus.RUNNING, 1, List.of(), T0),
                                        RunLogStatus.RUNNING,
                                        "r3",
                                        T0)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("retryHistory");
        assertThatThrownBy(() -> provider.runLogs()
                        .update(
                                key,
                                current -> runLog("silver", DATE, "daily", RunLogStatus.RUNNING, 5, List.of(), T0)))
                .isInstanceOf(IllegalStateException.class);
        assertThat(provider.runLogs().get(key)).contains(running);
    }

    @Test
    void concurrentRunLogUpdatesLoseNoAttempt() throws Exception {
        RunLogKey key = new RunLogKey("gold", DATE, "daily");
        provider.runLogs()
                .update(key, current -> runLog("gold", DATE, "daily", RunLogStatus.PENDING, 0, List.of(), T0));
        int writers = 10;
        runConcurrently(
                writers,
                w -> provider.runLogs().update(key, current -> failedOnceMore(current.orElseThrow(), "r" + w, T0)));

        RunLog last = provider.runLogs().get(key).orElseThrow();
        assertThat(last.attemptNumber()).isEqualTo(writers);
        assertThat(last.retryHistory())
                .extracting(a -> a.attempt())
                .containsExactlyElementsOf(
                        IntStream.rangeClosed(1, writers).boxed().toList());
        assertThat(last.retryHistory())
                .extracting(a -> a.runId())
                .doesNotHaveDuplicates()
                .hasSize(writers);
    }

    @Test
    void runLogsAreListedByPipelineNewestFirstAndByDateAcrossPipelines() {
        for (int d = 0; d < 3; d++) {
            LocalDate date = DATE.minusDays(d);
            provider.runLogs()
                    .update(
                            new RunLogKey("gold", date, "daily"),
                            c -> runLog("gold", date, "daily", RunLogStatus.COMPLETED, 1, List.of(), T0));
        }
        provider.runLogs()
                .update(
                        new RunLogKey("silver", DATE, "h01"),
                        c -> runLog("silver", DATE, "h01", RunLogStatus.RUNNING, 0, List.of(), T0));
        provider.runLogs()
                .update(
                        new RunLogKey("silver", DATE, "h00"),
                        c -> runLog("silver", DATE, "h00", RunLogStatus.FAILED, 1, List.of(), T0));

        Page<RunLog> gold = provider.runLogs().listByPipeline("gold", PageRequest.first(2));
        assertThat(gold.items()).extracting(RunLog::date).containsExactly(DATE, DATE.minusDays(1));
        assertThat(provider.runLogs()
                        .listByPipeline("gold", PageRequest.first(2).after(gold.nextCursor()))
                        .items())
                .extracting(RunLog::date)
                .containsExactly(DATE.minusDays(2));

        assertThat(Page.all(2, p -> provider.runLogs().listByDate(DATE, p)))
                .extracting(l -> l.pipelineId() + "/" + l.scheduleId())
                .containsExactly("gold/daily", "silver/h00", "silver/h01");
        assertThat(provider.runLogs()
                        .listByDate(DATE.plusDays(1), PageRequest.first(10))
                        .items())
                .isEmpty();
    }

    @Test
    void expiredRunLogsReadAsAbsentAndStartOver() {
        RunLogKey key = new RunLogKey("gold", DATE, "daily");
        provider.runLogs().update(key, c -> runLog("gold", DATE, "daily", RunLogStatus.FAILED, 2, List.of(), T0));
        clock.advance(Duration.ofDays(30));
        assertThat(provider.runLogs().get(key)).isEmpty();
        RunLog fresh = provider.runLogs()
                .update(
                        key,
                        current ->
                                current.orElse(runLog("gold", DATE, "daily", RunLogStatus.PENDING, 0, List.of(), T0)));
        assertThat(fresh.attemptNumber()).isZero();
        assertThat(provider.runLogs().get(key)).contains(fresh);
    }

    // ---------------------------------------------------------------- events

    @Test
    void eventsAreReadForwardFromACursor() {
        for (int i = 0; i < 25; i++) {
            provider.events().append(event("gold", T0.plusMillis(i * 10L), "e" + i));
        }
        provider.events().append(event("silver", T0, "other pipeline"));

        Page<Event> first = provider.events().read("gold", PageRequest.first(10));
        assertThat(first.items())
                .extracting(Event::message)
                .containsExactlyElementsOf(
                        IntStream.range(0, 10).mapToObj(i -> "e" + i).toList());
        Page<Event> second =
                provider.events().read("gold", PageRequest.first(10).after(first.nextCursor()));
        assertThat(second.items())
                .extracting(Event::message)
                .containsExactlyElementsOf(
                        IntStream.range(10, 20).mapToObj(i -> "e" + i).toList());
        Page<Event> third = provider.events().read("gold", PageRequest.first(10).after(second.nextCursor()));
        assertThat(third.items())
                .extracting(Event::message)
                .containsExactlyElementsOf(
                        IntStream.range(20, 25).mapToObj(i -> "e" + i).toList());
        assertThat(third.isLast()).isTrue();

        // A cursor stays valid while events are appended after it.
        provider.events().append(event("gold", T0.plusSeconds(60), "late"));
        assertThat(provider.events()
                        .read("gold", PageRequest.first(10).after(second.nextCursor()))
                        .items())
                .extracting(Event::message)
                .endsWith("e24", "late");
    }

    @Test
    void eventsOfOneMillisecondAreAllKept() {
        for (int i = 0; i < 5; i++) {
            provider.events().append(event("gold", T0, "same-ms-" + i));
        }
        List<Event> read = provider.events().read("gold", PageRequest.first(10)).items();
        assertThat(read)
                .extracting(Event::message)
                .containsExactlyInAnyOrder("same-ms-0", "same-ms-1", "same-ms-2", "same-ms-3", "same-ms-4");
        assertThat(provider.events().read("gold", PageRequest.first(10)).items())
                .isEqualTo(read);
    }

    @Test
    void latestEventsAreTheNewestInTimeOrder() {
        for (int i = 0; i < 8; i++) {
            provider.events().append(event("gold", T0.plusSeconds(i), "e" + i));
        }
        assertThat(provider.events().latest("gold", 3))
                .extracting(Event::message)
                .containsExactly("e5", "e6", "e7");
        assertThat(provider.events().latest("gold", 50)).hasSize(8);
        assertThat(provider.events().latest("nobody", 3)).isEmpty();
    }

    @Test
    void eventsAreReadPastOneMegabyte() {
        String big = "y".repeat(LARGE_ITEM_BYTES);
        for (int i = 0; i < LARGE_ITEM_COUNT; i++) {
            provider.events()
                    .append(new Event(
                            EventKind.RUN_STATE_CHANGED,
                            "gold",
                            "daily",
                            DATE,
                            "r" + i,
                            null,
                            null,
                            String.format("big-%02d", i),
                            Map.of("padding", big),
                            T0.plusMillis(i)));
        }
        Page<Event> all = provider.events().read("gold", PageRequest.first(PageRequest.MAX_LIMIT));
        assertThat(all.items())
                .extracting(Event::message)
                .containsExactlyElementsOf(IntStream.range(0, LARGE_ITEM_COUNT)
                        .mapToObj(i -> String.format("big-%02d", i))
                        .toList());
        assertThat(all.isLast()).isTrue();
        assertThat(provider.events().latest("gold", LARGE_ITEM_COUNT)).hasSize(LARGE_ITEM_COUNT);
    }

    @Test
    void expiredEventsReadAsAbsent() {
        provider.events().append(event("gold", T0, "old"));
        clock.advance(Duration.ofDays(31));
        provider.events().append(event("gold", clock.instant(), "new"));
        assertThat(provider.events().read("gold", PageRequest.first(10)).items())
                .extracting(Event::message)
                .containsExactly("new");
    }

    // ---------------------------------------------------------------- reruns and late arrivals

    /** Records {@code rerun} as accepted (counted), with its replay marker and its event. */
    private void record(Rerun rerun) {
        Marker marker = Marker.rerun(
                rerun.pipelineId(),
                rerun.scheduleId(),
                rerun.date(),
                MarkerSource.LATE_ARRIVAL,
                rerun.rerunId(),
                rerun.originalRunId(),
                rerun.requestedAt());
        assertThat(provider.acceptRerun(rerun, marker, rerunEvent(rerun, "PENDING"), 10)
                        .accepted())
                .isTrue();
    }

    private static Event rerunEvent(Rerun rerun, String status) {
        return new Event(
                EventKind.RERUN_STATUS_CHANGED,
                rerun.pipelineId(),
                rerun.scheduleId(),
                rerun.date(),
                null,
                null,
                status,
                "moved",
                Map.of("rerunId", rerun.rerunId()),
                rerun.updatedAt());
    }

    @Test
    void rerunsAreListedNewestRequestFirstAndCountedPerDateAndSchedule() {
        record(rerun("rr1", "gold", DATE, "daily", T0));
        record(rerun("rr2", "gold", DATE, "daily", T0.plusSeconds(1)));
        record(rerun("rr3", "gold", DATE, "h01", T0.plusSeconds(2)));
        record(rerun("rr4", "gold", DATE.minusDays(1), "daily", T0.plusSeconds(3)));
        record(rerun("rr5", "silver", DATE, "daily", T0.plusSeconds(4)));

        assertThat(provider.reruns().count("gold", DATE, "daily")).isEqualTo(2);
        assertThat(provider.reruns().count("gold", DATE, "h01")).isEqualTo(1);
        assertThat(provider.reruns().count("gold", DATE.plusDays(1), "daily")).isZero();

        Page<Rerun> first = provider.reruns().list(PageRequest.first(3));
        assertThat(first.items()).extracting(Rerun::rerunId).containsExactly("rr5", "rr4", "rr3");
        assertThat(provider.reruns()
                        .list(PageRequest.first(3).after(first.nextCursor()))
                        .items())
                .extracting(Rerun::rerunId)
                .containsExactly("rr2", "rr1");
        // A backfill of an older date requested later is newer: the pipeline's listing goes by request time too.
        Page<Rerun> gold = provider.reruns().listByPipeline("gold", PageRequest.first(2));
        assertThat(gold.items()).extracting(Rerun::rerunId).containsExactly("rr4", "rr3");
        assertThat(provider.reruns()
                        .listByPipeline("gold", PageRequest.first(2).after(gold.nextCursor()))
                        .items())
                .extracting(Rerun::rerunId)
                .containsExactly("rr2", "rr1");
        assertThat(Page.all(10, p -> provider.reruns().listByPipeline("silver", p)))
                .extracting(Rerun::rerunId)
                .containsExactly("rr5");

        clock.advance(Duration.ofDays(31));
        assertThat(provider.reruns().get("rr1")).isEmpty();
        assertThat(Page.all(10, p -> provider.reruns().listByPipeline("gold", p)))
                .isEmpty();
        assertThat(provider.reruns().count("gold", DATE, "daily")).isZero();
    }

    @Test
    void theRerunAnExecutionServesIsFoundByItsName() {
        record(rerun("rr1", "gold", DATE, "daily", T0));
        record(rerun("rr2", "gold", DATE, "daily", T0.plusSeconds(1)));

        assertThat(provider.reruns().forExecution("gold", DATE, "daily", "exec-rr2"))
                .map(Rerun::rerunId)
                .contains("rr2");
        assertThat(provider.reruns().forExecution("gold", DATE, "daily", "exec-other"))
                .isEmpty();
        assertThat(provider.reruns().forExecution("gold", DATE, "h01", "exec-rr2"))
                .isEmpty();
        assertThat(provider.reruns().forExecution("gold", DATE.minusDays(1), "daily", "exec-rr2"))
                .isEmpty();
        assertThat(provider.reruns().forExecution("silver", DATE, "daily", "exec-rr2"))
                .isEmpty();
    }

    @Test
    void aLiveRerunPassesToASuccessorExecutionInItsStatusButATerminalOneNeverMoves() {
        Rerun pending = rerun("rr1", "gold", DATE, "daily", T0);
        record(pending);
        Rerun passed = pending.handedOverTo("exec-successor", T0.plusSeconds(5));

        assertThat(provider.moveRerun(RerunStatus.PENDING, passed, rerunEvent(passed, "PENDING")))
                .isTrue();
        assertThat(provider.reruns().forExecution("gold", DATE, "daily", "exec-successor"))
                .contains(passed);
        assertThat(provider.reruns().forExecution("gold", DATE, "daily", "exec-rr1"))
                .isEmpty();
        Rerun completed = passed.movedTo(RerunStatus.STARTED, "", "run-1", T0.plusSeconds(6))
                .movedTo(RerunStatus.COMPLETED, "", null, T0.plusSeconds(7));
        assertThatThrownBy(() -> provider.moveRerun(
                        RerunStatus.COMPLETED,
                        completed.handedOverTo("exec-late", T0),
                        rerunEvent(completed, "COMPLETED")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRerunMovesOnlyFromTheStatusItIsInAndWritesItsEventWithTheMove() {
        Rerun pending = rerun("rr1", "gold", DATE, "daily", T0);
        record(pending);
        Rerun started = pending.movedTo(RerunStatus.STARTED, "", "run-9", T0.plusSeconds(5));

        assertThat(provider.moveRerun(RerunStatus.PENDING, started, rerunEvent(started, "STARTED")))
                .isTrue();
        // The same move again (a retried action, a re-delivered record) finds the rerun moved on: nothing written.
        assertThat(provider.moveRerun(RerunStatus.PENDING, started, rerunEvent(started, "STARTED")))
                .isFalse();
        Rerun completed = started.movedTo(RerunStatus.COMPLETED, "", null, T0.plusSeconds(9));
        assertThat(provider.moveRerun(RerunStatus.STARTED, completed, rerunEvent(completed, "COMPLETED")))
                .isTrue();
        assertThat(provider.moveRerun(
                        RerunStatus.STARTED,
                        started.movedTo(RerunStatus.FAILED, "late", null, T0),
                        rerunEvent(started, "FAILED")))
                .isFalse();

        assertThat(provider.reruns().get("rr1")).contains(completed);
        assertThat(completed.rerunRunId()).isEqualTo("run-9");
        assertThat(completed.endedAt()).isEqualTo(T0.plusSeconds(9));
        assertThat(Page.all(10, p -> provider.reruns().listByPipeline("gold", p)))
                .containsExactly(completed);
        assertThat(provider.reruns().forExecution("gold", DATE, "daily", "exec-rr1"))
                .contains(completed);
        assertThat(provider.events().latest("gold", 10))
                .extracting(Event::status)
                .containsExactly("PENDING", "STARTED", "COMPLETED");
        assertThat(provider.reruns().count("gold", DATE, "daily"))
                .as("a status change is not a new rerun")
                .isOne();
        assertThatThrownBy(() -> provider.moveRerun(
                        RerunStatus.COMPLETED,
                        completed.movedTo(RerunStatus.FAILED, "x", null, T0),
                        rerunEvent(completed, "FAILED")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(provider.moveRerun(
                        RerunStatus.PENDING,
                        rerun("nobody", "gold", DATE, "daily", T0).movedTo(RerunStatus.STARTED, "", null, T0),
                        rerunEvent(completed, "STARTED")))
                .as("no such rerun")
                .isFalse();
    }

    @Test
    void concurrentMovesOfOneRerunHaveOneWinner() throws Exception {
        Rerun pending = rerun("rr1", "gold", DATE, "daily", T0);
        record(pending);
        AtomicInteger moved = new AtomicInteger();

        runConcurrently(
                8,
                w -> provider.moveRerun(
                                RerunStatus.PENDING,
                                pending.movedTo(RerunStatus.SKIPPED, "writer " + w, null, T0.plusSeconds(w + 1)),
                                rerunEvent(
                                        pending.movedTo(RerunStatus.SKIPPED, "", null, T0.plusSeconds(w + 1)),
                                        "SKIPPED"))
                        ? moved.incrementAndGet()
                        : 0);

        assertThat(moved.get()).isOne();
        assertThat(provider.reruns().get("rr1").orElseThrow().status()).isEqualTo(RerunStatus.SKIPPED);
        assertThat(provider.events().latest("gold", 20))
                .extracting(Event::status)
                .containsExactly("PENDING", "SKIPPED");
    }

    @Test
    void aRefusedRerunIsRecordedOnceAndSpendsNoBudget() {
        Rerun refused =
                rerun("rr1", "gold", DATE, "daily", T0).movedTo(RerunStatus.SKIPPED, "rerun budget spent", null, T0);

        assertThat(provider.moveRerun(null, refused, rerunEvent(refused, "SKIPPED")))
                .isTrue();
        assertThat(provider.moveRerun(null, refused, rerunEvent(refused, "SKIPPED")))
                .isFalse();

        assertThat(provider.reruns().get("rr1")).contains(refused);
        assertThat(Page.all(10, p -> provider.reruns().listByPipeline("gold", p)))
                .containsExactly(refused);
        assertThat(provider.events().latest("gold", 10)).hasSize(1);
        assertThat(accept("rr2", 1).accepted())
                .as("the budget counts accepted reruns only")
                .isTrue();
    }

    // ---------------------------------------------------------------- acceptRerun

    private static Rerun manualRerun(String rerunId) {
        return Rerun.requested(
                rerunId,
                "gold",
                "daily",
                DATE,
                MarkerSource.MANUAL,
                null,
                "late files",
                null,
                replayMarker(rerunId).executionName(),
                T0,
                Map.of("requestedBy", "ops"));
    }

    private static Marker replayMarker(String rerunId) {
        return new Marker("gold", "daily", DATE, MarkerSource.RERUN, rerunId, true, rerunId, null, T0);
    }

    private static Event rerunRequested(String rerunId) {
        return new Event(
                EventKind.RERUN_REQUESTED,
                "gold",
                "daily",
                DATE,
                null,
                null,
                "PENDING",
                "late files",
                Map.of("rerunId", rerunId),
                T0);
    }

    private RerunAcceptance accept(String rerunId, int maxPerDay) {
        return provider.acceptRerun(manualRerun(rerunId), replayMarker(rerunId), rerunRequested(rerunId), maxPerDay);
    }

    @Test
    void anAcceptedRerunWritesTheRerunItsCopyItsMarkerAndItsEvent() {
        assertThat(accept("rr1", 3)).isEqualTo(new RerunAcceptance.Accepted());

        assertThat(provider.reruns().get("rr1")).contains(manualRerun("rr1"));
        assertThat(Page.all(10, p -> provider.reruns().listByPipeline("gold", p)))
                .containsExactly(manualRerun("rr1"));
        assertThat(provider.reruns().count("gold", DATE, "daily")).isEqualTo(1);
        assertThat(provider.cascade().markers("gold", DATE)).containsExactly(replayMarker("rr1"));
        assertThat(provider.events().latest("gold", 10)).containsExactly(rerunRequested("rr1"));
        // The budget counter is not a rerun: neither the global listing nor the pipeline's sees it.
        assertThat(Page.all(10, provider.reruns()::list)).containsExactly(manualRerun("rr1"));
        assertThat(provider.reruns().count("gold", DATE, "h01")).isZero();
        assertThat(accept("rr2", 3).accepted()).isTrue();
        assertThat(provider.reruns().count("gold", DATE, "daily")).isEqualTo(2);
    }

    @Test
    void aSpentBudgetRefusesTheRerunAndWritesNothing() {
        assertThat(accept("rr1", 2).accepted()).isTrue();
        assertThat(accept("rr2", 2).accepted()).isTrue();

        assertThat(accept("rr3", 2)).isEqualTo(new RerunAcceptance.BudgetSpent(2));

        assertThat(provider.reruns().get("rr3")).isEmpty();
        assertThat(provider.reruns().count("gold", DATE, "daily")).isEqualTo(2);
        assertThat(provider.cascade().markers("gold", DATE))
                .extracting(Marker::suffix)
                .containsExactly("rr1", "rr2");
        // Both events have the same timestamp; their random key suffixes order them.
        assertThat(provider.events().latest("gold", 10))
                .containsExactlyInAnyOrder(rerunRequested("rr1"), rerunRequested("rr2"));
        // The counter did not move: a larger budget lets exactly one more in.
        assertThat(accept("rr4", 3).accepted()).isTrue();
        assertThat(accept("rr5", 3)).isEqualTo(new RerunAcceptance.BudgetSpent(3));
        // Other schedules and dates have budgets of their own.
        Rerun otherDay = Rerun.requested(
                "rr6", "gold", "daily", DATE.minusDays(1), MarkerSource.MANUAL, null, "x", null, null, T0, Map.of());
        assertThat(provider.acceptRerun(
                                otherDay,
                                new Marker(
                                        "gold",
                                        "daily",
                                        DATE.minusDays(1),
                                        MarkerSource.RERUN,
                                        "rr6",
                                        true,
                                        "rr6",
                                        null,
                                        T0),
                                rerunRequested("rr6"),
                                3)
                        .accepted())
                .isTrue();
    }

    @Test
    void anExistingMarkerRefusesTheRerunAndWritesNothing() {
        Marker taken = new Marker("gold", "daily", DATE, MarkerSource.RERUN, "rr1", true, "someone-else", null, T0);
        assertThat(provider.cascade().writeMarker(taken)).isTrue();

        assertThat(accept("rr1", 1)).isEqualTo(new RerunAcceptance.MarkerExists());

        assertThat(provider.reruns().get("rr1")).isEmpty();
        assertThat(provider.reruns().count("gold", DATE, "daily")).isZero();
        assertThat(provider.cascade().markers("gold", DATE)).containsExactly(taken);
        assertThat(provider.events().latest("gold", 10)).isEmpty();
        // The counter did not move: the whole budget of one is still there.
        assertThat(accept("rr2", 1).accepted()).isTrue();
        assertThat(accept("rr3", 1)).isEqualTo(new RerunAcceptance.BudgetSpent(1));
    }

    @Test
    void anExistingRerunIdIsRefusedAsAProgrammingError() {
        assertThat(accept("rr1", 5).accepted()).isTrue();

        assertThatThrownBy(() ->
                        provider.acceptRerun(manualRerun("rr1"), replayMarker("rr1-again"), rerunRequested("rr1"), 5))
                .isInstanceOf(IllegalStateException.class);
        assertThat(provider.cascade().markers("gold", DATE)).containsExactly(replayMarker("rr1"));
        assertThat(provider.events().latest("gold", 10)).hasSize(1);
        assertThat(accept("rr2", 2).accepted())
                .as("the refused call spent no budget")
                .isTrue();
    }

    @Test
    void concurrentRerunRequestsNeverExceedTheBudget() throws Exception {
        int writers = 8;
        int budget = 3;
        List<RerunAcceptance> outcomes = new CopyOnWriteArrayList<>();

        runConcurrently(writers, w -> outcomes.add(accept("race-" + w, budget)));

        assertThat(outcomes).hasSize(writers);
        assertThat(outcomes).filteredOn(RerunAcceptance::accepted).hasSize(budget);
        assertThat(outcomes)
                .filteredOn(o -> !o.accepted())
                .allSatisfy(o -> assertThat(o).isEqualTo(new RerunAcceptance.BudgetSpent(budget)));
        assertThat(provider.reruns().count("gold", DATE, "daily")).isEqualTo(budget);
        assertThat(Page.all(20, provider.reruns()::list)).hasSize(budget);
        assertThat(provider.cascade().markers("gold", DATE)).hasSize(budget);
        assertThat(provider.events().latest("gold", 20)).hasSize(budget);
    }

    /** A backfill of gold's {@code days} days from DATE, none started, {@code concurrency} at a time. */
    private static dev.interlock.model.backfill.Backfill backfill(String id, int days, int concurrency) {
        List<dev.interlock.model.backfill.BackfillDay> planned = new ArrayList<>();
        for (int i = 0; i < days; i++) {
            planned.add(dev.interlock.model.backfill.BackfillDay.pending(DATE.plusDays(i), "daily", "never ran"));
        }
        return new dev.interlock.model.backfill.Backfill(
                id,
                "gold",
                DATE,
                DATE.plusDays(days - 1L),
                List.of("daily"),
                dev.interlock.model.backfill.BackfillMode.MISSING,
                concurrency,
                dev.interlock.model.backfill.BackfillOrder.OLDEST,
                false,
                "outage",
                "ops",
                T0,
                dev.interlock.model.backfill.BackfillStatus.RUNNING,
                null,
                null,
                T0,
                null,
                false,
                1,
                planned);
    }

    private static Event backfillEvent(String id) {
        return new Event(
                EventKind.BACKFILL_REQUESTED,
                "gold",
                null,
                null,
                null,
                null,
                "REQUESTED",
                "asked",
                Map.of("backfillId", id),
                T0);
    }

    @Test
    void aBackfillIsCreatedOnceAndEachVersionIsWrittenOnlyOverTheOneItWasMadeFrom() {
        var bf = backfill("bf1", 3, 1);
        assertThat(provider.backfills().create(bf, backfillEvent("bf1"))).isTrue();
        assertThat(provider.backfills().create(bf, backfillEvent("bf1")))
                .as("its id is taken")
                .isFalse();
        assertThat(provider.backfills().get("bf1")).contains(bf);
        assertThat(provider.backfills().list(null)).containsExactly(bf);
        assertThat(provider.backfills().list("silver")).isEmpty();
        assertThat(provider.backfills().active()).containsExactly(bf);
        assertThat(provider.events().latest("gold", 10)).hasSize(1);

        var cancelled = bf.cancelled("ana", "wrong range", T0.plusSeconds(5));
        assertThat(provider.backfills().replace(bf, cancelled, List.of())).isTrue();
        assertThat(provider.backfills().get("bf1").orElseThrow().version()).isEqualTo(2);
        assertThat(provider.backfills().replace(bf, bf.ended(T0), List.of()))
                .as("written over a version that moved")
                .isFalse();
        var read = provider.backfills().get("bf1").orElseThrow();
        assertThat(read.counts().skipped()).isEqualTo(3);
        var ended = read.ended(T0.plusSeconds(6));
        assertThat(provider.backfills().replace(read, ended, List.of(backfillEvent("bf1"))))
                .isTrue();
        assertThat(provider.backfills().active()).as("in view until alerted").hasSize(1);
        var endedRead = provider.backfills().get("bf1").orElseThrow();
        assertThat(provider.backfills().replace(endedRead, endedRead.alertSent(T0.plusSeconds(7)), List.of()))
                .isTrue();
        assertThat(provider.backfills().active()).isEmpty();
        assertThat(provider.backfills().get("bf1").orElseThrow().status())
                .isEqualTo(dev.interlock.model.backfill.BackfillStatus.CANCELLED);
    }

    @Test
    void concurrentAdvancesOfABackfillStartNoMoreDaysThanItsConcurrencyAndSpendNoRerunBudget() throws Exception {
        var bf = backfill("bf2", 6, 2);
        assertThat(provider.backfills().create(bf, backfillEvent("bf2"))).isTrue();

        runConcurrently(6, w -> new BackfillDriver(provider).advance("bf2", T0.plusSeconds(1)));

        var read = provider.backfills().get("bf2").orElseThrow();
        assertThat(read.counts().running()).isEqualTo(2);
        assertThat(read.counts().pending()).isEqualTo(4);
        assertThat(read.days().subList(0, 2))
                .allSatisfy(
                        d -> assertThat(d.status()).isEqualTo(dev.interlock.model.backfill.BackfillDayStatus.RUNNING));
        for (int i = 0; i < 2; i++) {
            var day = read.days().get(i);
            assertThat(provider.reruns().get(day.rerunId()))
                    .hasValueSatisfying(r -> assertThat(r.backfillId()).isEqualTo("bf2"));
            assertThat(provider.cascade().markers("gold", day.date()))
                    .singleElement()
                    .satisfies(m -> assertThat(m.source()).isEqualTo(MarkerSource.BACKFILL));
            assertThat(provider.reruns().count("gold", day.date(), "daily"))
                    .as("a backfill's day spends no rerun budget")
                    .isZero();
            assertThat(provider.reruns().forExecution("gold", day.date(), "daily", day.executionName()))
                    .as("the day's execution finds its rerun")
                    .isPresent();
        }
        Rerun operators = Rerun.requested(
                "op-1", "gold", "daily", DATE, MarkerSource.MANUAL, null, "check", null, "x", T0, Map.of());
        assertThat(provider.acceptRerun(
                                operators,
                                new Marker("gold", "daily", DATE, MarkerSource.RERUN, "op-1", true, "op-1", null, T0),
                                rerunRequested("op-1"),
                                1)
                        .accepted())
                .as("the whole budget of one is there after a backfill day")
                .isTrue();
    }

    @Test
    void aPipelineIsPausedOnceReadByIdListedAndResumedByDeletingItsPause() {
        dev.interlock.model.pause.Pause gold = new dev.interlock.model.pause.Pause("gold", "maintenance", "ops", T0);
        dev.interlock.model.pause.Pause silver =
                new dev.interlock.model.pause.Pause("silver", "backlog", "ana", T0.plusSeconds(60));

        assertThat(provider.pauses().put(gold)).isTrue();
        assertThat(provider.pauses().put(silver)).isTrue();
        assertThat(provider.pauses()
                        .put(new dev.interlock.model.pause.Pause("gold", "again", "bob", T0.plusSeconds(5))))
                .as("a paused pipeline is not paused twice")
                .isFalse();

        assertThat(provider.pauses().get("gold")).contains(gold);
        assertThat(provider.pauses().get("bronze")).isEmpty();
        assertThat(provider.pauses().list()).containsExactly(gold, silver);
        assertThat(provider.pauses().delete("gold")).contains(gold);
        assertThat(provider.pauses().delete("gold")).isEmpty();
        assertThat(provider.pauses().list()).containsExactly(silver);
    }

    @Test
    void aForcedDayIsReadByItsKeyOnlyReplacedByTheNextAndLapsesAtItsExpiry() {
        var gold = new dev.interlock.model.force.ForceReady(
                "gold", DATE, "daily", "late source", "ops", T0, T0.plusSeconds(3600));
        provider.forces().put(gold);

        assertThat(provider.forces().get("gold", DATE, "daily")).contains(gold);
        assertThat(provider.forces().get("gold", DATE.minusDays(1), "daily"))
                .as("another day")
                .isEmpty();
        assertThat(provider.forces().get("gold", DATE, "hourly"))
                .as("another schedule")
                .isEmpty();
        assertThat(provider.forces().get("silver", DATE, "daily"))
                .as("another pipeline")
                .isEmpty();
        var again = new dev.interlock.model.force.ForceReady(
                "gold", DATE, "daily", "checked again", "ana", T0.plusSeconds(5), T0.plusSeconds(7200));
        provider.forces().put(again);
        assertThat(provider.forces().get("gold", DATE, "daily")).contains(again);

        clock.advance(Duration.ofSeconds(7200));
        assertThat(provider.forces().get("gold", DATE, "daily")).as("lapsed").isEmpty();
    }

    @Test
    void aMuteIsReadByScopeAndTargetReplacedByTheNextAndListedUntilDeleted() {
        dev.interlock.model.alert.Mute team = new dev.interlock.model.alert.Mute(
                dev.interlock.model.alert.MuteScope.TEAM,
                "data-platform",
                T0,
                T0.plusSeconds(7200),
                "warehouse maintenance",
                "ops",
                T0);
        dev.interlock.model.alert.Mute gold = new dev.interlock.model.alert.Mute(
                dev.interlock.model.alert.MuteScope.PIPELINE,
                "gold",
                T0,
                T0.plusSeconds(600),
                "known outage",
                "ana",
                T0);
        provider.mutes().put(team);
        provider.mutes().put(gold);

        assertThat(provider.mutes().get(dev.interlock.model.alert.MuteScope.TEAM, "data-platform"))
                .contains(team);
        assertThat(provider.mutes().covering("gold", "data-platform")).containsExactly(gold, team);
        assertThat(provider.mutes().covering("gold", null)).containsExactly(gold);
        assertThat(provider.mutes().covering("silver", "marketing")).isEmpty();
        assertThat(provider.mutes().list()).containsExactly(gold, team);

        dev.interlock.model.alert.Mute longer = new dev.interlock.model.alert.Mute(
                dev.interlock.model.alert.MuteScope.PIPELINE, "gold", T0, T0.plusSeconds(3600), "longer", "ana", T0);
        provider.mutes().put(longer);
        assertThat(provider.mutes().covering("gold", null)).containsExactly(longer);

        assertThat(provider.mutes().delete(dev.interlock.model.alert.MuteScope.PIPELINE, "gold"))
                .contains(longer);
        assertThat(provider.mutes().delete(dev.interlock.model.alert.MuteScope.PIPELINE, "gold"))
                .isEmpty();
        assertThat(provider.mutes().list()).containsExactly(team);
    }

    @Test
    void lateArrivalsAreListedPerDateAndScheduleOldestFirst() {
        LateArrival first = new LateArrival(
                "gold", DATE, "daily", "row-count", "r1", TraitStatus.PASS, TraitStatus.PASS, 120.0, T0);
        LateArrival second = new LateArrival(
                "gold",
                DATE,
                "daily",
                "source-freshness",
                "r1",
                TraitStatus.PASS,
                TraitStatus.FAIL,
                0.0,
                T0.plusSeconds(30));
        provider.lateArrivals().put(second);
        provider.lateArrivals().put(first);
        provider.lateArrivals()
                .put(new LateArrival(
                        "gold", DATE, "h01", "row-count", "r2", TraitStatus.PASS, TraitStatus.PASS, 1.0, T0));
        assertThat(provider.lateArrivals().list("gold", DATE, "daily")).containsExactly(first, second);
        assertThat(provider.lateArrivals().list("gold", DATE.minusDays(1), "daily"))
                .isEmpty();
    }

    // ---------------------------------------------------------------- markers

    @Test
    void aMarkerWrittenTwiceIsWrittenOnce() {
        String suffix = TableKeys.cascadeMarkerSuffix("silver", "run-42");
        Marker marker = marker("gold", MarkerSource.CASCADE, suffix, DATE);
        assertThat(provider.cascade().writeMarker(marker)).isTrue();
        assertThat(provider.cascade().writeMarker(marker)).isFalse();
        assertThat(provider.cascade().markers("gold", DATE)).containsExactly(marker);
    }

    @Test
    void concurrentWritersOfOneMarkerHaveOneWinner() throws Exception {
        Marker marker = marker("gold", MarkerSource.SCHEDULE, TableKeys.scheduleMarkerSuffix(DATE, "daily"), DATE);
        AtomicInteger created = new AtomicInteger();
        runConcurrently(10, w -> provider.cascade().writeMarker(marker) ? created.incrementAndGet() : 0);
        assertThat(created.get()).isEqualTo(1);
        assertThat(provider.cascade().markers("gold", DATE)).containsExactly(marker);
    }

    @Test
    void markersAreListedPerExecutionDate() {
        Marker today = marker("gold", MarkerSource.SCHEDULE, TableKeys.scheduleMarkerSuffix(DATE, "daily"), DATE);
        Marker yesterday = marker(
                "gold",
                MarkerSource.SCHEDULE,
                TableKeys.scheduleMarkerSuffix(DATE.minusDays(1), "daily"),
                DATE.minusDays(1));
        Marker manual = marker("gold", MarkerSource.MANUAL, "2099-02-23T10:00:00.000Z#ab12", DATE);
        provider.cascade().writeMarker(today);
        provider.cascade().writeMarker(yesterday);
        provider.cascade().writeMarker(manual);
        assertThat(provider.cascade().markers("gold", DATE)).containsExactlyInAnyOrder(today, manual);
        assertThat(provider.cascade().markers("silver", DATE)).isEmpty();
    }

    // ---------------------------------------------------------------- alerts

    private static final Duration LEASE = Duration.ofMinutes(5);

    @Test
    void aSentAlertIsNotClaimedAgainUntilItsDedupItemExpires() {
        AlertKey key = new AlertKey(AlertKind.SLA_MISSED, "gold", DATE, "daily");
        assertThat(provider.alerts().claim(key, "exec-a", LEASE)).isTrue();
        provider.alerts().markSent(key, "exec-a");
        assertThat(provider.alerts().claim(key, "exec-a", LEASE))
                .as("sent: not even its own sender claims it again")
                .isFalse();
        assertThat(provider.alerts().claim(key, "exec-b", LEASE)).isFalse();
        clock.advance(LEASE.plusHours(1));
        assertThat(provider.alerts().claim(key, "exec-b", LEASE))
                .as("a sent alert has no lease to run out")
                .isFalse();
        assertThat(provider.alerts().claim(new AlertKey(AlertKind.SLA_MISSED, "gold", DATE, "h01"), "exec-b", LEASE))
                .isTrue();
        assertThat(provider.alerts().claim(new AlertKey(AlertKind.STUCK_RUN, "gold", DATE, "daily"), "exec-b", LEASE))
                .isTrue();

        clock.advance(Duration.ofDays(7));
        assertThat(provider.alerts().claim(key, "exec-c", LEASE))
                .as("the dedup item expired")
                .isTrue();
    }

    @Test
    void aClaimWhoseClaimantDiedBeforePublishingIsTakenAgainOnceItsLeaseIsOver() {
        AlertKey key = new AlertKey(AlertKind.RUN_FAILED, "gold", DATE, "daily");
        assertThat(provider.alerts().claim(key, "exec-a", LEASE)).isTrue();
        // exec-a dies here, between claiming and publishing.
        assertThat(provider.alerts().claim(key, "exec-b", LEASE))
                .as("exec-a may still be publishing")
                .isFalse();
        assertThat(provider.alerts().claim(key, "exec-a", LEASE))
                .as("a retried call of the claimant itself")
                .isTrue();
        clock.advance(LEASE.minusSeconds(1));
        assertThat(provider.alerts().claim(key, "exec-b", LEASE)).isFalse();
        clock.advance(Duration.ofSeconds(1));
        assertThat(provider.alerts().claim(key, "exec-b", LEASE))
                .as("the lease is over")
                .isTrue();
        assertThat(provider.alerts().claim(key, "exec-a", LEASE))
                .as("now exec-b's lease runs")
                .isFalse();
        provider.alerts().markSent(key, "exec-b");
        clock.advance(LEASE.multipliedBy(2));
        assertThat(provider.alerts().claim(key, "exec-a", LEASE)).isFalse();
    }

    @Test
    void aReleasedClaimIsFreeAtOnceButOnlyItsClaimantReleasesIt() {
        AlertKey key = new AlertKey(AlertKind.TRIGGER_FAILED, "gold", DATE, "daily");
        assertThat(provider.alerts().claim(key, "exec-a", LEASE)).isTrue();
        provider.alerts().release(key, "exec-b");
        assertThat(provider.alerts().claim(key, "exec-b", LEASE))
                .as("another claimant cannot free exec-a's claim")
                .isFalse();
        provider.alerts().release(key, "exec-a");
        assertThat(provider.alerts().claim(key, "exec-b", LEASE)).isTrue();
        provider.alerts().markSent(key, "exec-b");
        provider.alerts().release(key, "exec-b");
        assertThat(provider.alerts().claim(key, "exec-c", LEASE))
                .as("a sent alert is never given back")
                .isFalse();
    }

    // ---------------------------------------------------------------- locks

    private static final LockKey LOCK = new LockKey("gold", "daily", DATE);

    @Test
    void aLockIsExclusiveUnderConcurrency() throws Exception {
        List<String> winners = new CopyOnWriteArrayList<>();
        runConcurrently(
                20, w -> provider.locks().acquire(LOCK, "exec-" + w, Duration.ofHours(5)) && winners.add("exec-" + w));
        assertThat(winners).hasSize(1);
        assertThat(provider.locks().holder(LOCK)).map(LockHolder::owner).contains(winners.getFirst());
    }

    @Test
    void aLockExpiresAndCanThenBeTakenOver() {
        assertThat(provider.locks().acquire(LOCK, "exec-a", Duration.ofHours(5)))
                .isTrue();
        clock.advance(Duration.ofHours(5).minusSeconds(1));
        assertThat(provider.locks().acquire(LOCK, "exec-b", Duration.ofHours(5)))
                .isFalse();
        clock.advance(Duration.ofSeconds(1));
        assertThat(provider.locks().holder(LOCK)).isEmpty();
        assertThat(provider.locks().acquire(LOCK, "exec-b", Duration.ofHours(5)))
                .isTrue();
        assertThat(provider.locks().holder(LOCK)).map(LockHolder::owner).contains("exec-b");
        assertThat(provider.locks().release(LOCK, "exec-a"))
                .as("the expired owner cannot release the new holder's lock")
                .isFalse();
        assertThat(provider.locks().holder(LOCK)).map(LockHolder::owner).contains("exec-b");
    }

    @Test
    void theSameOwnerReacquiresAndExtendsItsLock() {
        assertThat(provider.locks().acquire(LOCK, "exec-a", Duration.ofHours(5)))
                .isTrue();
        clock.advance(Duration.ofHours(4));
        assertThat(provider.locks().acquire(LOCK, "exec-a", Duration.ofHours(5)))
                .isTrue();
        clock.advance(Duration.ofHours(4));
        assertThat(provider.locks().acquire(LOCK, "exec-b", Duration.ofHours(5)))
                .as("extended to 9 h")
                .isFalse();
        assertThat(provider.locks().holder(LOCK)).map(LockHolder::owner).contains("exec-a");
    }

    @Test
    void onlyTheOwnerReleasesALockAndLocksArePerScheduleAndDate() {
        LockKey otherSchedule = new LockKey("gold", "h01", DATE);
        LockKey otherDate = new LockKey("gold", "daily", DATE.minusDays(1));
        provider.locks().acquire(LOCK, "exec-a", Duration.ofHours(5));
        assertThat(provider.locks().release(LOCK, "exec-b")).isFalse();
        assertThat(provider.locks().holder(LOCK)).map(LockHolder::owner).contains("exec-a");
        assertThat(provider.locks().acquire(otherSchedule, "exec-b", Duration.ofHours(5)))
                .as("locks are per schedule")
                .isTrue();
        assertThat(provider.locks().acquire(otherDate, "exec-c", Duration.ofHours(5)))
                .as("locks are per date")
                .isTrue();
        assertThat(provider.locks().release(LOCK, "exec-a")).isTrue();
        assertThat(provider.locks().holder(LOCK)).isEmpty();
        assertThat(provider.locks().holder(otherDate)).map(LockHolder::owner).contains("exec-c");
        assertThat(provider.locks().holders(List.of(LOCK, otherSchedule, otherDate)))
                .as("the holders of many locks at once: a free one is absent")
                .containsOnlyKeys(otherSchedule, otherDate)
                .extractingByKey(otherDate)
                .extracting(LockHolder::owner)
                .isEqualTo("exec-c");
        assertThat(provider.locks().release(LOCK, "exec-a")).isFalse();
        assertThat(provider.locks().acquire(LOCK, "exec-b", Duration.ofHours(5)))
                .isTrue();
    }

    @Test
    void aHolderHandsItsLockToASuccessorWithItsReportedRoundAndNobodyElseCan() {
        assertThat(provider.locks().acquire(LOCK, "exec-a", Duration.ofHours(5)))
                .isTrue();
        Instant nextRound = T0.plusSeconds(360);
        Instant deadline = T0.plusSeconds(7200);
        provider.locks().recordEvaluating(LOCK, "exec-a", nextRound, deadline);
        clock.advance(Duration.ofMinutes(1));

        assertThat(provider.locks().handOver(LOCK, "exec-b", "exec-c", Duration.ofHours(5)))
                .as("not the holder")
                .isFalse();
        assertThat(provider.locks().handOver(LOCK, "exec-a", "exec-b", Duration.ofHours(5)))
                .isTrue();
        assertThat(provider.locks().handOver(LOCK, "exec-a", "exec-b", Duration.ofHours(5)))
                .as("a repeated call")
                .isTrue();
        LockHolder passed = provider.locks().holder(LOCK).orElseThrow();
        assertThat(passed.owner()).isEqualTo("exec-b");
        assertThat(passed.expiresAt()).isEqualTo(T0.plus(Duration.ofMinutes(1)).plus(Duration.ofHours(5)));
        assertThat(passed.nextRoundBy()).isEqualTo(nextRound);
        assertThat(passed.evaluatingUntil()).isEqualTo(deadline);
        assertThat(provider.locks().acquire(LOCK, "exec-x", Duration.ofHours(5)))
                .as("never free in between")
                .isFalse();
        assertThat(provider.locks().release(LOCK, "exec-a"))
                .as("the predecessor's release")
                .isFalse();
        assertThat(provider.locks().acquire(LOCK, "exec-b", Duration.ofHours(5)))
                .as("the successor re-acquires its own lock")
                .isTrue();
    }

    @Test
    void aHolderReportsItsEvaluationAndOnlyTheHolderCanReportOrCountAbsorbedMarkers() {
        assertThat(provider.locks().acquire(LOCK, "exec-a", Duration.ofHours(5)))
                .isTrue();
        LockHolder fresh = provider.locks().holder(LOCK).orElseThrow();
        assertThat(fresh.acquiredAt()).isEqualTo(T0);
        assertThat(fresh.expiresAt()).isEqualTo(T0.plus(Duration.ofHours(5)));
        assertThat(fresh.nextRoundBy()).isNull();
        assertThat(fresh.absorbed()).isZero();

        Instant nextRound = T0.plusSeconds(120);
        Instant deadline = T0.plusSeconds(3600);
        assertThat(provider.locks().recordEvaluating(LOCK, "exec-a", nextRound, deadline))
                .isTrue();
        assertThat(provider.locks().recordEvaluating(LOCK, "exec-b", T0, T0))
                .as("not the holder")
                .isFalse();
        assertThat(provider.locks().recordAbsorbed(LOCK, "exec-a")).isTrue();
        assertThat(provider.locks().recordAbsorbed(LOCK, "exec-a")).isTrue();
        assertThat(provider.locks().recordAbsorbed(LOCK, "exec-b")).isFalse();
        LockHolder evaluating = provider.locks().holder(LOCK).orElseThrow();
        assertThat(evaluating.nextRoundBy()).isEqualTo(nextRound);
        assertThat(evaluating.evaluatingUntil()).isEqualTo(deadline);
        assertThat(evaluating.absorbed()).isEqualTo(2);
        assertThat(evaluating.expiresAt()).as("reporting keeps the TTL").isEqualTo(fresh.expiresAt());
        assertThat(evaluating.evaluatesAgainAfter(T0.plusSeconds(119))).isTrue();
        assertThat(evaluating.evaluatesAgainAfter(T0.plusSeconds(120)))
                .as("its round is overdue: maybe dead")
                .isFalse();

        assertThat(provider.locks().recordEvaluating(LOCK, "exec-a", null, null))
                .isTrue();
        LockHolder left = provider.locks().holder(LOCK).orElseThrow();
        assertThat(left.nextRoundBy()).isNull();
        assertThat(left.evaluatingUntil()).isNull();
        assertThat(left.absorbed()).isEqualTo(2);
        assertThat(left.evaluatesAgainAfter(T0)).isFalse();

        clock.advance(Duration.ofHours(5));
        assertThat(provider.locks().recordEvaluating(LOCK, "exec-a", nextRound, deadline))
                .as("expired: not held")
                .isFalse();
        assertThat(provider.locks().recordAbsorbed(LOCK, "exec-a")).isFalse();
    }

    @Test
    void anOperatorReleasesALockWhoeverHoldsIt() {
        assertThat(provider.locks().forceRelease(LOCK)).isEmpty();
        provider.locks().acquire(LOCK, "exec-a", Duration.ofHours(5));
        provider.locks().recordAbsorbed(LOCK, "exec-a");
        LockHolder previous = provider.locks().forceRelease(LOCK).orElseThrow();
        assertThat(previous.owner()).isEqualTo("exec-a");
        assertThat(previous.absorbed()).isEqualTo(1);
        assertThat(provider.locks().holder(LOCK)).isEmpty();
        assertThat(provider.locks().release(LOCK, "exec-a"))
                .as("its holder's own release is then a no-op")
                .isFalse();
        assertThat(provider.locks().acquire(LOCK, "exec-b", Duration.ofHours(5)))
                .isTrue();

        clock.advance(Duration.ofHours(6));
        assertThat(provider.locks().forceRelease(LOCK))
                .as("an expired lock is nobody's")
                .isEmpty();
        assertThat(provider.locks().acquire(LOCK, "exec-c", Duration.ofHours(5)))
                .isTrue();
    }

    @Test
    void anEndedHoldersLockIsReleasedOnlyForItAndTellsWhatItHadAbsorbed() {
        assertThat(provider.locks().releaseHeldBy(LOCK, "exec-a")).isEmpty();
        provider.locks().acquire(LOCK, "exec-a", Duration.ofHours(5));
        provider.locks().recordAbsorbed(LOCK, "exec-a");
        provider.locks().recordAbsorbed(LOCK, "exec-a");
        assertThat(provider.locks().releaseHeldBy(LOCK, "exec-b"))
                .as("another execution's end leaves the lock alone")
                .isEmpty();
        assertThat(provider.locks().holder(LOCK)).map(LockHolder::owner).contains("exec-a");

        LockHolder released = provider.locks().releaseHeldBy(LOCK, "exec-a").orElseThrow();
        assertThat(released.owner()).isEqualTo("exec-a");
        assertThat(released.absorbed()).isEqualTo(2);
        assertThat(provider.locks().holder(LOCK)).isEmpty();
        assertThat(provider.locks().releaseHeldBy(LOCK, "exec-a"))
                .as("a repeated release (a redelivered event) finds nothing")
                .isEmpty();
    }

    // ---------------------------------------------------------------- transitions

    @Test
    void aTransitionWritesRunStateRunLogAndEventsTogether() {
        RunState created = run("r1", "gold", T0);
        provider.runs().create(created);
        RunLogKey key = new RunLogKey("gold", DATE, "daily");
        provider.runLogs().update(key, c -> runLog("gold", DATE, "daily", RunLogStatus.RUNNING, 0, List.of(), T0));
        RunState triggering = created.moveTo(RunStatus.TRIGGERING, T0);
        provider.runs().compareAndSwap(1, triggering);

        RunState failed = triggering.moveTo(RunStatus.FAILED, T0.plusSeconds(5));
        Event event = new Event(
                EventKind.RUN_STATE_CHANGED,
                "gold",
                "daily",
                DATE,
                "r1",
                null,
                "FAILED",
                "job failed",
                null,
                T0.plusSeconds(5));
        TransitionOutcome outcome = provider.recordTransition(RunTransition.of(
                2, failed, key, current -> failedOnceMore(current.orElseThrow(), "r1", T0.plusSeconds(5)), event));

        assertThat(outcome).isInstanceOf(TransitionOutcome.Applied.class);
        TransitionOutcome.Applied applied = (TransitionOutcome.Applied) outcome;
        assertThat(applied.run()).isEqualTo(failed);
        assertThat(applied.runLog().attemptNumber()).isEqualTo(1);
        assertThat(provider.runs().get("r1")).contains(failed);
        assertThat(provider.runLogs().get(key)).contains(applied.runLog());
        assertThat(provider.events().read("gold", PageRequest.first(10)).items())
                .containsExactly(event);
    }

    @Test
    void aRunIsCreatedWithItsSettleCheckAndEventOnceHoweverOftenTheCreationIsRepeated() {
        RunState created = run("r1", "gold", T0);
        Instant by = T0.plus(Duration.ofHours(4));
        Event event = new Event(
                EventKind.RUN_STATE_CHANGED, "gold", "daily", DATE, "r1", null, "PENDING", "run created", null, T0);

        assertThat(provider.createRun(created, by, event)).isTrue();
        assertThat(provider.createRun(created.moveTo(RunStatus.TRIGGERING, T0), by.plusSeconds(1), event))
                .isFalse();

        assertThat(provider.runs().get("r1")).contains(created);
        assertThat(dueOn(DATE, by.plusSeconds(1))).containsExactly(new DueEntry(by, "gold", "r1"));
        assertThat(provider.events().read("gold", PageRequest.first(10)).items())
                .containsExactly(event);
    }

    @Test
    void aRunLogRecordWritesItsEventsOnlyWhenTheRunLogChanges() {
        RunLogKey key = new RunLogKey("gold", DATE, "daily");
        Event event = new Event(
                EventKind.RUN_STATE_CHANGED, "gold", "daily", DATE, "r1", null, "COMPLETED", "run completed", null, T0);
        RunLog completed = runLog("gold", DATE, "daily", RunLogStatus.COMPLETED, 0, List.of(), T0);

        RunLog first = provider.recordRunLog(key, current -> completed, List.of(event));
        RunLog repeat = provider.recordRunLog(key, current -> current.orElseThrow(), List.of(event));

        assertThat(first).isEqualTo(repeat);
        assertThat(provider.runLogs().get(key)).contains(first);
        assertThat(provider.events().read("gold", PageRequest.first(10)).items())
                .containsExactly(event);
    }

    @Test
    void aFencedWriteByTheLockHolderIsAppliedAndOneByAHolderThatLostItWritesNothing() {
        RunLogKey key = new RunLogKey("gold", DATE, "daily");
        LockFence holder = new LockFence(LOCK, "exec-a");
        Event created = new Event(
                EventKind.RUN_STATE_CHANGED, "gold", "daily", DATE, "r1", null, "PENDING", "run created", null, T0);
        assertThat(provider.locks().acquire(LOCK, "exec-a", Duration.ofHours(5)))
                .isTrue();
        RunState run = run("r1", "gold", T0);
        assertThat(provider.createRun(run, T0.plus(Duration.ofHours(4)), created, holder))
                .isTrue();
        RunState triggering = run.moveTo(RunStatus.TRIGGERING, T0);
        assertThat(provider.recordTransition(RunTransition.of(run.version(), triggering), holder))
                .isInstanceOf(TransitionOutcome.Applied.class);

        // An operator releases the lock and another execution takes the day.
        provider.locks().forceRelease(LOCK);
        assertThat(provider.locks().acquire(LOCK, "exec-b", Duration.ofHours(5)))
                .isTrue();
        RunLog completed = runLog("gold", DATE, "daily", RunLogStatus.COMPLETED, 0, List.of(), T0);
        RunState second = run("r2", "gold", T0);

        assertThatThrownBy(() -> provider.recordTransition(
                        RunTransition.of(triggering.version(), triggering.moveTo(RunStatus.RUNNING, T0)), holder))
                .isInstanceOf(LockLostException.class)
                .hasMessageContaining("exec-a")
                .hasMessageContaining(LOCK.value());
        assertThatThrownBy(() -> provider.createRun(second, T0, created, holder))
                .isInstanceOf(LockLostException.class);
        assertThatThrownBy(() -> provider.recordRunLog(key, current -> completed, List.of(), holder))
                .isInstanceOf(LockLostException.class);
        assertThatThrownBy(() -> provider.recordRunLog(key, current -> completed, List.of(created), holder))
                .isInstanceOf(LockLostException.class);
        assertThat(provider.runs().get("r1")).contains(triggering);
        assertThat(provider.runs().get("r2")).isEmpty();
        assertThat(provider.runLogs().get(key)).isEmpty();

        // The new holder's fenced writes go through; a lock deleted (nobody's) or expired fences everyone out.
        assertThat(provider.recordRunLog(key, current -> completed, List.of(), new LockFence(LOCK, "exec-b")))
                .isEqualTo(completed);
        clock.advance(Duration.ofHours(6));
        assertThatThrownBy(() -> provider.createRun(second, T0, created, new LockFence(LOCK, "exec-b")))
                .isInstanceOf(LockLostException.class);
        provider.locks().forceRelease(LOCK);
        assertThatThrownBy(() -> provider.createRun(second, T0, created, new LockFence(LOCK, "exec-b")))
                .isInstanceOf(LockLostException.class);
    }

    @Test
    void aPipelineAndItsArchetypeAreReadTogether() {
        PipelineConfig gold = pipeline("gold");
        provider.pipelines().put(gold);
        provider.archetypes().put(archetype("batch-ingestion"));

        Provider.PipelineAndArchetype both = provider.pipelineAndArchetype("gold", "batch-ingestion");
        Provider.PipelineAndArchetype unknown = provider.pipelineAndArchetype("gold", "no-such-archetype");
        Provider.PipelineAndArchetype missing = provider.pipelineAndArchetype("silver", null);

        assertThat(both.pipeline()).contains(gold);
        assertThat(both.archetype()).contains(archetype("batch-ingestion"));
        assertThat(unknown.pipeline()).contains(gold);
        assertThat(unknown.archetype()).isEmpty();
        assertThat(missing.pipeline()).isEmpty();
        assertThat(missing.archetype()).isEmpty();
    }

    @Test
    void aTransitionFromAStaleVersionWritesNothing() {
        RunState created = run("r1", "gold", T0);
        provider.runs().create(created);
        RunLogKey key = new RunLogKey("gold", DATE, "daily");
        RunLog log = provider.runLogs()
                .update(key, c -> runLog("gold", DATE, "daily", RunLogStatus.PENDING, 0, List.of(), T0));
        RunState triggering = created.moveTo(RunStatus.TRIGGERING, T0);
        provider.runs().compareAndSwap(1, triggering);

        TransitionOutcome outcome = provider.recordTransition(RunTransition.of(
                1,
                created.moveTo(RunStatus.CANCELLED, T0),
                key,
                current -> failedOnceMore(current.orElseThrow(), "r1", T0),
                event("gold", T0, "should not exist")));

        assertThat(outcome).isEqualTo(new TransitionOutcome.RunVersionConflict("r1", 1));
        assertThat(outcome.applied()).isFalse();
        assertThat(provider.runs().get("r1")).contains(triggering);
        assertThat(provider.runLogs().get(key)).contains(log);
        assertThat(provider.events().read("gold", PageRequest.first(10)).items())
                .isEmpty();
    }

    @Test
    void aTransitionThatWouldClobberTheRunLogWritesNothing() {
        RunState created = run("r1", "gold", T0);
        provider.runs().create(created);
        RunLogKey key = new RunLogKey("gold", DATE, "daily");
        RunLog log = provider.runLogs()
                .update(key, c -> runLog("gold", DATE, "daily", RunLogStatus.FAILED, 2, List.of(), T0));

        assertThatThrownBy(() -> provider.recordTransition(RunTransition.of(
                        1,
                        created.moveTo(RunStatus.TRIGGERING, T0),
                        key,
                        current -> runLog("gold", DATE, "daily", RunLogStatus.RUNNING, 0, List.of(), T0))))
                .isInstanceOf(IllegalStateException.class);
        assertThat(provider.runs().get("r1")).contains(created);
        assertThat(provider.runLogs().get(key)).contains(log);
    }

    @Test
    void concurrentTransitionsOnOneRunHaveOneWinnerPerVersion() throws Exception {
        RunState created = run("r1", "gold", T0);
        provider.runs().create(created);
        RunLogKey key = new RunLogKey("gold", DATE, "daily");
        provider.runLogs().update(key, c -> runLog("gold", DATE, "daily", RunLogStatus.PENDING, 0, List.of(), T0));
        Set<String> winners = ConcurrentHashMap.newKeySet();

        runConcurrently(10, w -> {
            TransitionOutcome outcome = provider.recordTransition(RunTransition.of(
                    1,
                    withEntry(created, "w" + w, T0),
                    key,
                    current -> failedOnceMore(current.orElseThrow(), "w" + w, T0),
                    event("gold", T0, "w" + w)));
            return outcome.applied() && winners.add("w" + w);
        });

        assertThat(winners).hasSize(1);
        String winner = winners.iterator().next();
        assertThat(provider.runs().get("r1").orElseThrow().metadata()).containsOnlyKeys(winner);
        assertThat(provider.runLogs().get(key).orElseThrow().attemptNumber()).isEqualTo(1);
        assertThat(provider.events().read("gold", PageRequest.first(20)).items())
                .extracting(Event::message)
                .containsExactly(winner);
    }

    @Test
    void pingAnswers() {
        provider.ping();
        assertThat(provider.pipelines().get("anything")).isEmpty();
    }

    // ---------------------------------------------------------------- the watchdog's due-time index

    /** A pipeline whose one schedule opens at {@code after} (UTC) with a deadline an hour later. */
    private static PipelineConfig scheduled(String name, String after) {
        PipelineConfig base = pipeline(name);
        String deadline =
                String.format("%02d:%s", (Integer.parseInt(after.substring(0, 2)) + 1) % 24, after.substring(3));
        return new PipelineConfig(
                base.name(),
                base.description(),
                base.archetype(),
                base.tier(),
                base.traits(),
                base.trigger(),
                base.retry(),
                base.sla(),
                List.of(new ScheduleConfig("daily", after, deadline, "UTC")),
                base.exclusions(),
                base.monitoring(),
                false,
                60,
                30,
                120);
    }

    private List<DueEntry> dueOn(LocalDate day, Instant until) {
        List<DueEntry> due = new ArrayList<>();
        for (int shard = 0; shard < TableKeys.DUE_SHARDS; shard++) {
            int partition = shard;
            due.addAll(Page.all(10, page -> provider.watchdog().due(day, partition, until, page)));
        }
        return due;
    }

    @Test
    void registrationWritesTheWatchAndOneDueEntryReadOnlyOnceDue() {
        provider.pipelines().put(scheduled("gold", "12:00"));

        PipelineWatch watch = provider.watchdog().watch("gold").orElseThrow();
        Instant opens = Instant.parse("2099-02-23T12:00:00Z");
        assertThat(watch.dueAt()).isEqualTo(opens);
        assertThat(provider.watchdog().watch("nobody")).isEmpty();
        assertThat(provider.watchdog().watches(List.of("gold", "nobody")))
                .as("many watches at once: a pipeline without one is absent")
                .containsExactly(Map.entry("gold", watch));
        assertThat(dueOn(DATE, opens.minusMillis(1))).isEmpty();
        assertThat(dueOn(DATE, opens)).containsExactly(new DueEntry(opens, "gold", null));
    }

    @Test
    void reRegistrationMovesTheDueEntryAndDeletionRemovesIt() {
        provider.pipelines().put(scheduled("gold", "12:00"));
        provider.pipelines().put(scheduled("gold", "15:00"));

        Instant endOfDay = Instant.parse("2099-02-23T23:59:59Z");
        assertThat(dueOn(DATE, endOfDay))
                .containsExactly(new DueEntry(Instant.parse("2099-02-23T15:00:00Z"), "gold", null));
        assertThat(provider.watchdog().watch("gold").orElseThrow().version()).isEqualTo(2);

        provider.pipelines().delete("gold");
        assertThat(dueOn(DATE, endOfDay)).isEmpty();
        assertThat(provider.watchdog().watch("gold")).isEmpty();
    }

    @Test
    void advancingAWatchIsACompareAndSwapThatMovesItsEntry() {
        provider.pipelines().put(scheduled("gold", "12:00"));
        PipelineWatch current = provider.watchdog().watch("gold").orElseThrow();
        Instant tomorrow = Instant.parse("2099-02-24T12:00:00Z");
        PipelineWatch next = new PipelineWatch(
                "gold", Instant.parse("2099-02-23T12:00:00Z"), current.schedules(), tomorrow, current.version() + 1);

        assertThat(provider.watchdog().advance(current, next)).isTrue();
        assertThat(provider.watchdog().advance(current, next))
                .as("a second swap from the same version")
                .isFalse();

        assertThat(provider.watchdog().watch("gold")).contains(next);
        assertThat(dueOn(DATE, Instant.parse("2099-02-23T23:59:59Z"))).isEmpty();
        assertThat(dueOn(DATE.plusDays(1), tomorrow)).containsExactly(new DueEntry(tomorrow, "gold", null));
    }

    @Test
    void runChecksAreDueEntriesUntilRemoved() {
        Instant by = T0.plus(Duration.ofHours(4));
        provider.watchdog().expectRunSettled("gold", "run-1", by);

        assertThat(dueOn(DATE, by.minusMillis(1))).isEmpty();
        List<DueEntry> due = dueOn(DATE, by);
        assertThat(due).containsExactly(new DueEntry(by, "gold", "run-1"));
        assertThat(due.getFirst().isRunCheck()).isTrue();

        provider.watchdog().remove(due.getFirst());
        assertThat(dueOn(DATE, by)).isEmpty();
    }

    @Test
    void callbackChecksAreDueEntriesBesideTheRunsOwnCheckUntilRemoved() {
        Instant at = T0.plus(Duration.ofMinutes(15));
        provider.watchdog().expectRunSettled("gold", "run-1", at);
        provider.watchdog().expectJobCallback("gold", "run-1", "glue", "jr_1", at);

        List<DueEntry> due = dueOn(DATE, at);
        assertThat(due)
                .containsExactlyInAnyOrder(
                        new DueEntry(at, "gold", "run-1"), new DueEntry(at, "gold", "run-1", "glue", "jr_1"));
        DueEntry check =
                due.stream().filter(DueEntry::isCallbackCheck).findFirst().orElseThrow();
        assertThat(check.isRunCheck()).isFalse();

        provider.watchdog().remove(check);
        assertThat(dueOn(DATE, at)).containsExactly(new DueEntry(at, "gold", "run-1"));
    }

    @Test
    void aJobsCallbackItemIsReadAsTheWritersLeftIt() {
        dev.interlock.model.trigger.TriggerType glue = dev.interlock.model.trigger.TriggerType.GLUE;
        assertThat(provider.jobCallbacks().find(glue, "jr_1")).isNull();
        dev.interlock.model.run.JobCallback.Waiter waiter =
                new dev.interlock.model.run.JobCallback.Waiter("gold", "daily", DATE, "run-1", "exec-1", "token-1");
        provider.jobCallbacks().await(glue, "jr_1", waiter, T0.plus(Duration.ofDays(1)));

        dev.interlock.model.run.JobCallback found = provider.jobCallbacks().find(glue, "jr_1");
        assertThat(found.waiter()).isEqualTo(waiter);
        assertThat(found.end()).isNull();
        assertThat(found.complete()).isFalse();
    }

    @Test
    void dueEntriesArePagedOldestFirst() {
        for (int i = 0; i < 25; i++) {
            provider.watchdog().expectRunSettled("gold", "run-" + i, T0.plusSeconds(60L * (25 - i)));
        }
        int shard = TableKeys.dueShard("gold");

        Page<DueEntry> first =
                provider.watchdog().due(DATE, shard, T0.plus(Duration.ofHours(1)), PageRequest.first(10));
        List<DueEntry> all =
                Page.all(10, page -> provider.watchdog().due(DATE, shard, T0.plus(Duration.ofHours(1)), page));

        assertThat(first.items()).hasSize(10);
        assertThat(first.nextCursor()).isNotNull();
        assertThat(all).hasSize(25).extracting(DueEntry::dueAt).isSorted();
    }

    @Test
    void theLowWaterMarkOnlyMovesForward() {
        assertThat(provider.watchdog().lowWater()).isEmpty();

        provider.watchdog().raiseLowWater(DATE);
        provider.watchdog().raiseLowWater(DATE.minusDays(3));

        assertThat(provider.watchdog().lowWater()).contains(DATE);
        provider.watchdog().raiseLowWater(DATE.plusDays(1));
        assertThat(provider.watchdog().lowWater()).contains(DATE.plusDays(1));
    }

    // ---------------------------------------------------------------- concurrency harness

    /** A task of one writer in a concurrency test. */
    @FunctionalInterface
    protected interface Writer {
        Object run(int writer) throws Exception;
    }

    /** Runs {@code writers} tasks released together by a barrier; rethrows the first failure. */
    protected static void runConcurrently(int writers, Writer task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            CyclicBarrier start = new CyclicBarrier(writers);
            List<Future<Object>> futures = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                Callable<Object> call = () -> {
                    start.await(30, TimeUnit.SECONDS);
                    return task.run(writer);
                };
                futures.add(pool.submit(call));
            }
            for (Future<Object> f : futures) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
