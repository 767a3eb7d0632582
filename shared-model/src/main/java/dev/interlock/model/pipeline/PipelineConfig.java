package dev.interlock.model.pipeline;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.interlock.model.json.Frozen;
import dev.interlock.model.trigger.TriggerConfig;
import dev.interlock.model.window.WindowId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * A registered pipeline (docs/pipeline-reference.md): the unit Interlock gates, triggers and follows. {@code name} is its id.
 *
 * @param evaluationIntervalSeconds wait between NOT READY re-evaluations
 * @param pollIntervalSeconds       wait between run-checker polls of an asynchronous job
 * @param pollLimit                 polls of the poll window: a job still running after it is reported overdue (and
 *                                  still followed)
 * @param maxJobDurationSeconds     how long an asynchronous job may run before Interlock cancels it (and may retry):
 *                                  until then the same job is followed, never started a second time
 * @param catchUp                   whether windows of the registration day that opened before the pipeline (or a new
 *                                  schedule) was registered are still run by the watchdog; deadlines that passed
 *                                  before registration never raise SLA_MISSED either way
 * @param readinessRule             how the traits' results combine into readiness ({@link ReadinessRule}; default
 *                                  all-required-pass)
 * @param quietPeriod               a duration ({@code 10m}): a ready day triggers only once the data its traits read
 *                                  has not changed for that long ({@code QuietPeriod}); null: at once
 * @param minInterval               a duration ({@code 2h}): a run of a pipeline day starts no sooner than this after
 *                                  the day's previous run started ({@code Spacing}); null: no spacing
 * @param owner                     who owns it (a person or an address); alerts carry it ({@link Ownership})
 * @param team                      the team it belongs to: alerts carry it as an SNS message attribute, and a team
 *                                  mute silences its alerts
 * @param labels                    free key/value labels (tier, domain, cost centre …), carried by its alerts
 * @param runbook                   where a person goes when it pages (an http(s) URL)
 * @param postRun                   checks evaluated after the job reported success and before the day is COMPLETED
 *                                  ({@link PostRunCheck}, docs/post-run-checks.md); a required one that does not pass
 *                                  fails the run {@code VERIFICATION}
 */
public record PipelineConfig(
        String name,
        String description,
        String archetype,
        int tier,
        Map<String, TraitConfig> traits,
        TriggerConfig trigger,
        RetryPolicy retry,
        SlaConfig sla,
        List<ScheduleConfig> schedules,
        ExclusionConfig exclusions,
        MonitoringConfig monitoring,
        boolean dryRun,
        int evaluationIntervalSeconds,
        int pollIntervalSeconds,
        int pollLimit,
        int maxJobDurationSeconds,
        boolean catchUp,
        ReadinessRule readinessRule,
        @JsonInclude(JsonInclude.Include.NON_NULL) String quietPeriod,
        @JsonInclude(JsonInclude.Include.NON_NULL) String minInterval,
        @JsonInclude(JsonInclude.Include.NON_NULL) String owner,
        @JsonInclude(JsonInclude.Include.NON_NULL) String team,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> labels,
        @JsonInclude(JsonInclude.Include.NON_NULL) String runbook,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<PostRunCheck> postRun) {

    public static final int DEFAULT_EVALUATION_INTERVAL_SECONDS = 60;
    public static final int DEFAULT_POLL_INTERVAL_SECONDS = 30;
    public static final int DEFAULT_POLL_LIMIT = 120;
    /** Two hours: the most a job may take inside one execution, which keeps the other half for evaluation and retries. */
    public static final int DEFAULT_MAX_JOB_DURATION_SECONDS = 7200;
    /** Trait config key naming an upstream pipeline; it also declares the cascade edge. */
    public static final String UPSTREAM_PIPELINE = "upstreamPipeline";
    /** Trait config key naming the upstream's schedule (default: the window's own schedule id). */
    public static final String UPSTREAM_SCHEDULE = "upstreamSchedule";

    /** A forward-only pipeline ({@code catchUp: false}) whose jobs may run the default maximum duration. */
    public PipelineConfig(
            String name,
            String description,
            String archetype,
            int tier,
            Map<String, TraitConfig> traits,
            TriggerConfig trigger,
            RetryPolicy retry,
            SlaConfig sla,
            List<ScheduleConfig> schedules,
            ExclusionConfig exclusions,
            MonitoringConfig monitoring,
            boolean dryRun,
            int evaluationIntervalSeconds,
            int pollIntervalSeconds,
            int pollLimit) {
        this(
                name,
                description,
                archetype,
                tier,
                traits,
                trigger,
                retry,
                sla,
                schedules,
                exclusions,
                monitoring,
                dryRun,
                evaluationIntervalSeconds,
                pollIntervalSeconds,
                pollLimit,
                DEFAULT_MAX_JOB_DURATION_SECONDS,
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

    public PipelineConfig {
        postRun = Frozen.list(postRun);
        Ownership ownership = new Ownership(owner, team, labels, runbook);
        owner = ownership.owner();
        team = ownership.team();
        labels = ownership.labels();
        runbook = ownership.runbook();
        traits = Frozen.map(traits);
        retry = retry == null ? RetryPolicy.DEFAULT : retry;
        schedules = Frozen.list(schedules);
        monitoring = monitoring == null ? MonitoringConfig.DISABLED : monitoring;
        readinessRule = readinessRule == null ? ReadinessRule.ALL_REQUIRED_PASS : readinessRule;
    }

    /** Reads a pipeline document; accepts the Go original's {@code watch.monitoring} as an alias of {@code monitoring}. */
    @JsonCreator
    public static PipelineConfig fromJson(
            @JsonProperty("name") String name,
            @JsonProperty("description") String description,
            @JsonProperty("archetype") String archetype,
            @JsonProperty("tier") Integer tier,
            @JsonProperty("traits") Map<String, TraitConfig> traits,
            @JsonProperty("trigger") TriggerConfig trigger,
            @JsonProperty("retry") RetryPolicy retry,
            @JsonProperty("sla") SlaConfig sla,
            @JsonProperty("schedules") List<ScheduleConfig> schedules,
            @JsonProperty("exclusions") ExclusionConfig exclusions,
            @JsonProperty("monitoring") MonitoringConfig monitoring,
            @JsonProperty("watch") Watch watch,
            @JsonProperty("dryRun") Boolean dryRun,
            @JsonProperty("evaluationIntervalSeconds") Integer evaluationIntervalSeconds,
            @JsonProperty("pollIntervalSeconds") Integer pollIntervalSeconds,
            @JsonProperty("pollLimit") Integer pollLimit,
            @JsonProperty("maxJobDurationSeconds") Integer maxJobDurationSeconds,
            @JsonProperty("catchUp") Boolean catchUp,
            @JsonProperty("readinessRule") ReadinessRule readinessRule,
            @JsonProperty("quietPeriod") String quietPeriod,
            @JsonProperty("minInterval") String minInterval,
            @JsonProperty("owner") String owner,
            @JsonProperty("team") String team,
            @JsonProperty("labels") Map<String, String> labels,
            @JsonProperty("runbook") String runbook,
            @JsonProperty("postRun") List<PostRunCheck> postRun) {
        MonitoringConfig effectiveMonitoring =
                monitoring != null ? monitoring : watch == null ? null : watch.monitoring();
        return new PipelineConfig(
                name,
                description,
                archetype,
                tier == null ? 0 : tier,
                traits,
                trigger,
                retry,
                sla,
                schedules,
                exclusions,
                effectiveMonitoring,
                dryRun != null && dryRun,
                evaluationIntervalSeconds == null ? DEFAULT_EVALUATION_INTERVAL_SECONDS : evaluationIntervalSeconds,
                pollIntervalSeconds == null ? DEFAULT_POLL_INTERVAL_SECONDS : pollIntervalSeconds,
                pollLimit == null ? DEFAULT_POLL_LIMIT : pollLimit,
                maxJobDurationSeconds == null ? DEFAULT_MAX_JOB_DURATION_SECONDS : maxJobDurationSeconds,
                catchUp != null && catchUp,
                readinessRule,
                quietPeriod == null || quietPeriod.isBlank() ? null : quietPeriod.trim(),
                minInterval == null || minInterval.isBlank() ? null : minInterval.trim(),
                owner,
                team,
                labels,
                runbook,
                postRun);
    }

    /** Who it belongs to, as its alerts carry it. */
    @JsonIgnore
    public Ownership ownership() {
        return new Ownership(owner, team, labels, runbook);
    }

    /** The configured schedules, or the implicit {@code daily} one when none are configured. */
    public List<ScheduleConfig> effectiveSchedules() {
        return schedules.isEmpty() ? List.of(ScheduleConfig.named(ScheduleConfig.DAILY)) : schedules;
    }

    /**
     * The schedule a schedule id belongs to, if configured (or the implicit {@code daily}): the schedule of that name,
     * or the cron schedule one of whose windows it names ({@code hourly.1400} → {@code hourly}). Whether that cron fires
     * at that time on a given date is {@code ScheduleWindows}' to say.
     */
    public Optional<ScheduleConfig> schedule(String scheduleId) {
        if (scheduleId == null) {
            return Optional.empty();
        }
        Optional<ScheduleConfig> named = effectiveSchedules().stream()
                .filter(s -> !s.hasCron() && scheduleId.equals(s.name()))
                .findFirst();
        if (named.isPresent()) {
            return named;
        }
        return WindowId.parse(scheduleId)
                .flatMap(ref -> effectiveSchedules().stream()
                        .filter(s -> s.hasCron() && ref.scheduleName().equals(s.name()))
                        .findFirst());
    }

    /**
     * The pipelines this one waits for: the {@code config.upstreamPipeline} values of its traits, in name order.
     * Registration indexes them so a completing upstream finds its downstreams without a scan.
     */
    public Set<String> upstreamPipelines() {
        Set<String> upstreams = new TreeSet<>();
        for (TraitConfig trait : traits.values()) {
            if (trait != null) {
                trait.upstreamPipeline().ifPresent(upstreams::add);
            }
        }
        return upstreams;
    }

    /** The Go original's {@code watch} block; only its {@code monitoring} is still meaningful. */
    public record Watch(MonitoringConfig monitoring) {}
}
