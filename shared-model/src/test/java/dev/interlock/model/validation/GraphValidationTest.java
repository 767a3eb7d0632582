package dev.interlock.model.validation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.catalog.ArchetypeCatalog;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.pipeline.PipelineConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The pipeline graph at registration: cycles and schedules that never meet are refused at the upstream's field. */
class GraphValidationTest {

    private static final String UPSTREAM_PATH = "$.traits.upstream-dependency.config.upstreamPipeline";

    private final Map<String, PipelineConfig> registered = new HashMap<>();
    private final PipelineValidation validation = new PipelineValidation(ArchetypeCatalog.bundled()::find)
            .withPipelines(id -> Optional.ofNullable(registered.get(id)));

    private static String document(String name, String upstreamConfig, String schedules) {
        return """
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: builtin:always-pass}
                  upstream-dependency: {evaluator: builtin:upstream-run-log, config: %s}
                  resource-availability: {evaluator: builtin:always-pass}
                trigger: {type: glue, jobName: %s}
                schedules: %s
                """.formatted(name, upstreamConfig, name, schedules);
    }

    /** A pipeline that waits for no other. */
    private static String root(String name, String schedules) {
        return document(name, "{}", schedules).replace("builtin:upstream-run-log", "builtin:always-pass");
    }

    private static String waitingFor(String name, String upstream) {
        return document(name, "{upstreamPipeline: " + upstream + "}", "[]");
    }

    private List<ValidationError> validate(String document) {
        return validation.validateText(document).errors();
    }

    private void register(String document) {
        Validated<PipelineConfig> result = validation.validateText(document);
        assertThat(result.errors()).isEmpty();
        registered.put(result.value().name(), result.value());
    }

    /**
     * A pipeline in the registry that registration today would refuse: left waiting by a forced delete of its upstream,
     * or registered before these checks.
     */
    private void leftRegistered(String document) {
        Validated<PipelineConfig> result =
                new PipelineValidation(ArchetypeCatalog.bundled()::find).validateText(document);
        assertThat(result.errors()).isEmpty();
        registered.put(result.value().name(), result.value());
    }

    @Test
    void aPipelineWaitingForItselfIsACycleOfOne() {
        List<ValidationError> errors = validate(waitingFor("gold", "gold"));
        assertThat(errors).extracting(ValidationError::path).containsExactly(UPSTREAM_PATH);
        assertThat(errors.getFirst().message()).contains("cycle gold -> gold");
    }

    @Test
    void anUpstreamThatWaitsForThisPipelineIsRefusedNamingTheCycle() {
        leftRegistered(waitingFor("silver", "gold"));
        List<ValidationError> errors = validate(waitingFor("gold", "silver"));
        assertThat(errors).extracting(ValidationError::path).containsExactly(UPSTREAM_PATH);
        assertThat(errors.getFirst().message()).contains("gold -> silver -> gold");
    }

    @Test
    void aLongerCycleIsNamedInFull() {
        leftRegistered(waitingFor("bronze", "gold"));
        register(waitingFor("silver", "bronze"));
        assertThat(validate(waitingFor("gold", "silver")).getFirst().message())
                .contains("gold -> silver -> bronze -> gold");
    }

    @Test
    void aChainWithoutACycleIsAccepted() {
        register(root("raw", "[]"));
        register(waitingFor("bronze", "raw"));
        register(waitingFor("silver", "bronze"));
        assertThat(validate(waitingFor("gold", "silver"))).isEmpty();
    }

    @Test
    void reRegisteringAPipelineWithTheSameUpstreamIsNoCycle() {
        register(root("bronze", "[]"));
        register(waitingFor("silver", "bronze"));
        register(waitingFor("gold", "silver"));
        assertThat(validate(waitingFor("gold", "silver"))).isEmpty();
    }

    @Test
    void anUpstreamScheduleTheUpstreamDoesNotHaveIsRefusedWithItsSchedules() {
        register(root("bronze", "[{name: h, cron: '0 * * * *'}, {name: daily}]"));
        List<ValidationError> errors =
                validate(document("silver", "{upstreamPipeline: bronze, upstreamSchedule: nightly}", "[]"));
        assertThat(errors)
                .extracting(ValidationError::path)
                .containsExactly("$.traits.upstream-dependency.config.upstreamSchedule");
        assertThat(errors.getFirst().message())
                .contains("bronze has no schedule 'nightly'")
                .contains("schedules: h.HHMM, daily");
    }

    @Test
    void anUpstreamScheduleNamingACronWindowOfTheUpstreamIsAccepted() {
        register(root("bronze", "[{name: h, cron: '0 * * * *'}]"));
        assertThat(validate(document("silver", "{upstreamPipeline: bronze, upstreamSchedule: h.0600}", "[]")))
                .isEmpty();
    }

    @Test
    void withoutUpstreamScheduleTheUpstreamMustHaveThisPipelinesWindows() {
        register(root("bronze", "[{name: h, cron: '0 * * * *'}]"));
        List<ValidationError> errors = validate(waitingFor("silver", "bronze"));
        assertThat(errors).extracting(ValidationError::path).containsExactly(UPSTREAM_PATH);
        assertThat(errors.getFirst().message())
                .contains("bronze has no window daily")
                .contains("upstream schedules: h.HHMM")
                .contains("upstreamSchedule");
    }

    @Test
    void cronWindowsAtTimesTheUpstreamNeverFiresAreRefused() {
        register(root("bronze", "[{name: h, cron: '0 */2 * * *'}]"));
        List<ValidationError> errors =
                validate(document("silver", "{upstreamPipeline: bronze}", "[{name: h, cron: '0 * * * *'}]"));
        assertThat(errors.getFirst().message()).contains("no window h.0100, h.0300, h.0500 (and 9 more)");
    }

    @Test
    void theSameCronOnBothSidesMeets() {
        register(root("bronze", "[{name: h, cron: '0 * * * *'}]"));
        assertThat(validate(document("silver", "{upstreamPipeline: bronze}", "[{name: h, cron: '0 6-18 * * 1-5'}]")))
                .isEmpty();
    }

    @Test
    void aRollupReadsEveryWindowAndNeedsNoSameNamedSchedule() {
        register(root("bronze", "[{name: h, cron: '0 * * * *'}]"));
        assertThat(validate(document("silver", "{upstreamPipeline: bronze, rollup: {}}", "[]")))
                .isEmpty();
    }

    @Test
    void anUpstreamThatIsNotRegisteredIsRefusedAtItsFieldAndNotCheckedForSchedules() {
        List<ValidationError> errors =
                validate(document("silver", "{upstreamPipeline: bronze, upstreamSchedule: nightly}", "[]"));
        assertThat(errors).extracting(ValidationError::path).containsExactly(UPSTREAM_PATH);
        assertThat(errors.getFirst().message()).contains("upstream pipeline bronze is not registered");
    }

    @Test
    void withoutARegistryNoUpstreamIsUnknown() {
        assertThat(new PipelineValidation(ArchetypeCatalog.bundled()::find)
                        .validateText(waitingFor("silver", "bronze"))
                        .errors())
                .isEmpty();
    }

    @Test
    void aChangedUpstreamIsJudgedOnlyByTheWindowsOfTheTraitsThatNameIt() {
        register(root("bronze", "[]"));
        register(root("other", "[]"));
        PipelineConfig silver =
                validation.validateText(waitingFor("silver", "bronze")).orThrow();
        PipelineConfig hourlyBronze = validation
                .validateText(root("bronze", "[{name: h, cron: '0 * * * *'}]"))
                .orThrow();
        PipelineConfig hourlyOther = validation
                .validateText(root("other", "[{name: h, cron: '0 * * * *'}]"))
                .orThrow();

        assertThat(PipelineValidation.downstreamProblems(silver, hourlyBronze))
                .extracting(ValidationError::path)
                .containsExactly(UPSTREAM_PATH);
        assertThat(PipelineValidation.downstreamProblems(silver, hourlyOther)).isEmpty();
        assertThat(PipelineValidation.downstreamProblems(silver, registered.get("bronze")))
                .isEmpty();
    }
}
