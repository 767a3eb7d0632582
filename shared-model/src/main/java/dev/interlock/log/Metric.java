package dev.interlock.log;

/**
 * The CloudWatch metrics Interlock publishes (embedded metric format, docs/metrics.md): their one home, with the
 * namespace and dimension names. The dashboard and alarms of the CDK stack and the local runtime's
 * {@code interlock metrics} read the same names.
 */
public enum Metric {
    /** A readiness round was judged ({@code checkReadiness}). */
    EVALUATIONS("Evaluations", Unit.COUNT),
    /** A readiness round was NOT READY. */
    NOT_READY_ROUNDS("NotReadyRounds", Unit.COUNT),
    /** From the schedule window's opening to the round that found the day ready. */
    TIME_TO_READY("TimeToReady", Unit.SECONDS),
    /** A job was started. */
    TRIGGERS("Triggers", Unit.COUNT),
    /** A job's run ended COMPLETED. */
    RUNS_COMPLETED("RunsCompleted", Unit.COUNT),
    /** A job's run ended FAILED. */
    RUNS_FAILED("RunsFailed", Unit.COUNT),
    /** From a run's start to its recorded completion. */
    JOB_DURATION("JobDuration", Unit.SECONDS),
    /** The completion deadline minus the completion: negative when it was missed. */
    SLA_MARGIN("SlaMargin", Unit.SECONDS),
    /** 1 when a completion came after its deadline, else 0 (an alarm's Maximum). */
    SLA_MISSED("SlaMissed", Unit.COUNT),
    /** An alert was sent (dimension {@link #ALERT_KIND}). */
    ALERTS("Alerts", Unit.COUNT);

    /** The CloudWatch namespace of every Interlock metric. */
    public static final String NAMESPACE = "Interlock";
    /** The dimension naming the pipeline. */
    public static final String PIPELINE_ID = "PipelineId";
    /** The dimension naming an alert's kind. */
    public static final String ALERT_KIND = "AlertKind";

    /** The units used (CloudWatch's names). */
    public enum Unit {
        COUNT("Count"),
        SECONDS("Seconds");

        private final String cloudWatchName;

        Unit(String cloudWatchName) {
            this.cloudWatchName = cloudWatchName;
        }

        public String cloudWatchName() {
            return cloudWatchName;
        }
    }

    private final String metricName;
    private final Unit unit;

    Metric(String metricName, Unit unit) {
        this.metricName = metricName;
        this.unit = unit;
    }

    /** The name in CloudWatch. */
    public String metricName() {
        return metricName;
    }

    public Unit unit() {
        return unit;
    }
}
