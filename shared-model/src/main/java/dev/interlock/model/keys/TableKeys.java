package dev.interlock.model.keys;

import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.json.InterlockJson;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/** The key schema of the single table (docs/table-design.md): the only place that knows how PK, SK and GSI1 keys are spelt. */
public final class TableKeys {

    public static final String CONFIG = "CONFIG";
    public static final String STATE = "STATE";
    public static final String LOCK = "LOCK";
    public static final String SENT = "SENT";

    public static final String PIPELINE_PREFIX = "PIPELINE#";
    public static final String DOWNSTREAM_PREFIX = "DOWNSTREAM#";
    public static final String TRAIT_PREFIX = "TRAIT#";
    public static final String RUNLOG_PREFIX = "RUNLOG#";
    public static final String EVENT_PREFIX = "EVENT#";
    public static final String MARKER_PREFIX = "MARKER#";
    public static final String LATE_ARRIVAL_PREFIX = "LATEARRIVAL#";
    public static final String RERUN_PREFIX = "RERUN#";
    /** The partition-key prefix of run-state items ({@code RUN#<runId>}, sort key {@link #STATE}). */
    public static final String RUN_PREFIX = "RUN#";

    public static final String RERUN_BUDGET_PREFIX = "RERUNBUDGET#";
    public static final String SENSOR_PREFIX = "SENSOR#";
    public static final String ALERTS_PREFIX = "ALERTS#";
    public static final String ARCHETYPE_PREFIX = "ARCHETYPE#";
    public static final String CALENDAR_PREFIX = "CALENDAR#";
    /** A mute: {@code MUTE#pipeline#<id>} or {@code MUTE#team#<team>}, sort key {@link #MUTE_SK}. */
    public static final String MUTE_PREFIX = "MUTE#";

    public static final String MUTE_SK = "MUTE";
    /** A paused pipeline: {@code PAUSE#<id>}, sort key {@link #PAUSE_SK}. */
    public static final String PAUSE_PREFIX = "PAUSE#";

    public static final String PAUSE_SK = "PAUSE";
    /** A day forced ready: {@code FORCE#<id>}, sort key {@code <date>#<scheduleId>}. */
    public static final String FORCE_PREFIX = "FORCE#";
    /** A backfill: {@code BACKFILL#<id>}, sort key {@link #BACKFILL_SK}. */
    public static final String BACKFILL_PREFIX = "BACKFILL#";

    public static final String BACKFILL_SK = "BACKFILL";
    /**
     * The partition of the backfills still in view ({@code ACTIVE#<id>}): not ended, or ended without their summary
     * alert yet. The watchdog reads it each tick, so its cost is O(active backfills).
     */
    public static final String ACTIVE_BACKFILLS_PK = "BACKFILLS";

    public static final String ACTIVE_BACKFILL_PREFIX = "ACTIVE#";
    /** The guard item of an archetype or calendar: its registration revision and how often its users changed. */
    public static final String USAGE = "USAGE";

    public static final String PARTITION_PREFIX = "PARTITION#";
    public static final String WATCH = "WATCH";
    public static final String DUE_PREFIX = "WATCHDOG#DUE#";
    public static final String CHECKPOINT = "CHECKPOINT";
    public static final String CALLBACK = "CALLBACK";

    /**
     * The due entries of one UTC day are spread over this many partitions (by pipeline), so the burst of a roll-over
     * (every hourly pipeline waking at :10) is not written to one partition key; a tick queries each of them.
     */
    public static final int DUE_SHARDS = 4;

    public static final String PIPELINE_TYPE = "TYPE#pipeline";
    public static final String ARCHETYPE_TYPE = "TYPE#archetype";
    public static final String CALENDAR_TYPE = "TYPE#calendar";
    public static final String RERUN_TYPE = "TYPE#rerun";
    public static final String MUTE_TYPE = "TYPE#mute";
    public static final String PAUSE_TYPE = "TYPE#pause";
    public static final String BACKFILL_TYPE = "TYPE#backfill";

    /** Event and late-arrival sort keys pad epoch millis to 13 digits so they sort as strings until year 2286. */
    private static final int MILLIS_DIGITS = 13;

    private TableKeys() {}

    /** Pipeline config item. */
    public static ItemKey pipeline(String pipelineId) {
        return new ItemKey(pipelinePk(pipelineId), CONFIG);
    }

    /** A mute of one pipeline or one team. */
    public static ItemKey mute(String scope, String target) {
        return new ItemKey(MUTE_PREFIX + requirePart("scope", scope) + "#" + requirePart("target", target), MUTE_SK);
    }

    /** Lists mutes by scope and target. */
    public static IndexKey muteIndex(String scope, String target) {
        return new IndexKey(MUTE_TYPE, requirePart("scope", scope) + "#" + requirePart("target", target));
    }

    /** The pause of one pipeline. */
    public static ItemKey pause(String pipelineId) {
        return new ItemKey(PAUSE_PREFIX + requirePart("pipelineId", pipelineId), PAUSE_SK);
    }

    /** The force-ready of one (pipeline, date, schedule). */
    public static ItemKey force(String pipelineId, java.time.LocalDate date, String scheduleId) {
        return new ItemKey(
                FORCE_PREFIX + requirePart("pipelineId", pipelineId),
                date + "#" + requirePart("scheduleId", scheduleId));
    }

    /** Lists pauses by pipeline id. */
    public static IndexKey pauseIndex(String pipelineId) {
        return new IndexKey(PAUSE_TYPE, requirePart("pipelineId", pipelineId));
    }

    /** One backfill. */
    public static ItemKey backfill(String backfillId) {
        return new ItemKey(BACKFILL_PREFIX + requirePart("backfillId", backfillId), BACKFILL_SK);
    }

    /** Lists backfills by request time. */
    public static IndexKey backfillIndex(Instant requestedAt, String backfillId) {
        return new IndexKey(
                BACKFILL_TYPE, InterlockJson.timestamp(requestedAt) + "#" + requirePart("backfillId", backfillId));
    }

    /** The pointer that keeps a backfill in the watchdog's view until it ended and alerted. */
    public static ItemKey activeBackfill(String backfillId) {
        return new ItemKey(ACTIVE_BACKFILLS_PK, ACTIVE_BACKFILL_PREFIX + requirePart("backfillId", backfillId));
    }

    /** Lists pipelines by name. */
    public static IndexKey pipelineIndex(String pipelineId) {
        return new IndexKey(PIPELINE_TYPE, requirePart("pipelineId", pipelineId));
    }

    /** {@code PIPELINE#<id>}: the partition of every per-pipeline item. */
    public static String pipelinePk(String pipelineId) {
        return PIPELINE_PREFIX + requirePart("pipelineId", pipelineId);
    }

    /** The pipeline id of a {@code PIPELINE#<id>} partition key, or null when it is not one. */
    public static String pipelineIdOf(String pk) {
        return pk != null && pk.startsWith(PIPELINE_PREFIX) && pk.length() > PIPELINE_PREFIX.length()
                ? pk.substring(PIPELINE_PREFIX.length())
                : null;
    }

    /** Downstream index entry: {@code downstream} depends on {@code upstream}. */
    public static ItemKey downstream(String upstream, String downstream) {
        return new ItemKey(pipelinePk(upstream), DOWNSTREAM_PREFIX + requirePart("downstream", downstream));
    }

    /** Archetype item. */
    public static ItemKey archetype(String name) {
        return new ItemKey(archetypePk(name), CONFIG);
    }

    /** {@code ARCHETYPE#<name>}: the partition of an archetype, its guard and the index of its users. */
    public static String archetypePk(String name) {
        return ARCHETYPE_PREFIX + requirePart("archetype", name);
    }

    /**
     * The guard of an archetype, {@code ARCHETYPE#<name>/USAGE}: a registration of the archetype bumps its
     * {@code revision}, a registration of a pipeline that uses it adds to its {@code usage}; each conditions its write
     * on the other's number, so neither lands on a check the other has made stale.
     */
    public static ItemKey archetypeUsage(String name) {
        return new ItemKey(archetypePk(name), USAGE);
    }

    /** Index entry: pipeline {@code pipelineId} uses archetype {@code archetype}. */
    public static ItemKey archetypeUser(String archetype, String pipelineId) {
        return new ItemKey(archetypePk(archetype), PIPELINE_PREFIX + requirePart("pipelineId", pipelineId));
    }

    /** Lists archetypes by name. */
    public static IndexKey archetypeIndex(String name) {
        return new IndexKey(ARCHETYPE_TYPE, requirePart("archetype", name));
    }

    /** Calendar item. */
    public static ItemKey calendar(String name) {
        return new ItemKey(calendarPk(name), CONFIG);
    }

    /** {@code CALENDAR#<name>}: the partition of a calendar, its guard and the index of its users. */
    public static String calendarPk(String name) {
        return CALENDAR_PREFIX + requirePart("calendar", name);
    }

    /** The guard of a calendar, {@code CALENDAR#<name>/USAGE} (as {@link #archetypeUsage}). */
    public static ItemKey calendarUsage(String name) {
        return new ItemKey(calendarPk(name), USAGE);
    }

    /** Index entry: pipeline {@code pipelineId} excludes the days of calendar {@code calendar}. */
    public static ItemKey calendarUser(String calendar, String pipelineId) {
        return new ItemKey(calendarPk(calendar), PIPELINE_PREFIX + requirePart("pipelineId", pipelineId));
    }

    /** Lists calendars by name. */
    public static IndexKey calendarIndex(String name) {
        return new IndexKey(CALENDAR_TYPE, requirePart("calendar", name));
    }

    /** Trait result of one (date, schedule, trait): hourly schedules no longer overwrite each other. */
    public static ItemKey traitResult(String pipelineId, LocalDate date, String scheduleId, String traitType) {
        return new ItemKey(pipelinePk(pipelineId), traitPrefix(date, scheduleId) + requirePart("traitType", traitType));
    }

    /** Sort-key prefix of all trait results of one (date, schedule). */
    public static String traitPrefix(LocalDate date, String scheduleId) {
        return traitDayPrefix(date) + requirePart("scheduleId", scheduleId) + "#";
    }

    /** Sort-key prefix of all trait results of one date, every schedule's. */
    public static String traitDayPrefix(LocalDate date) {
        return TRAIT_PREFIX + date + "#";
    }

    /** Sensor value item: the unpartitioned value. */
    public static ItemKey sensor(String name) {
        return new ItemKey(sensorPk(name), STATE);
    }

    /** Sensor value item of one partition ({@code 2026-03-01}, {@code 2026-03-01T06}); null partition: the unpartitioned value. */
    public static ItemKey sensor(String name, String partition) {
        return partition == null
                ? sensor(name)
                : new ItemKey(sensorPk(name), PARTITION_PREFIX + requirePart("partition", partition));
    }

    /** {@code SENSOR#<name>}: the partition of a sensor's values and of the index of what reads it. */
    public static String sensorPk(String name) {
        return SENSOR_PREFIX + requirePart("sensor", name);
    }

    /** Sensor names reserved for OpenLineage subjects ({@link #lineageSensor}): producers cannot write them. */
    public static final String LINEAGE_SENSOR_PREFIX = "lineage:";

    /**
     * The reserved sensor whose day partitions hold the COMPLETE events of an OpenLineage job or dataset
     * ({@code kind} {@code job} or {@code dataset}): {@code lineage:<kind>:<hash>}, the hash the first 32 hex digits of
     * the SHA-256 of {@code namespace + "\n" + name} (namespaces and names are URIs and dotted paths, free text that
     * cannot be a key part). So {@code SENSOR#lineage:job:<hash>/PARTITION#<day>} is one COMPLETE of that job for the
     * day, and {@code SENSOR#lineage:job:<hash>/PIPELINE#<id>} a pipeline whose lineage trait waits for it.
     */
    public static String lineageSensor(String kind, String namespace, String name) {
        requirePart("kind", kind);
        try {
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256")
                    .digest((requireText("namespace", namespace) + "\n" + requireText("name", name))
                            .getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return LINEAGE_SENSOR_PREFIX + kind + ":" + java.util.HexFormat.of().formatHex(digest, 0, 16);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** Index entry: a trait config of pipeline {@code pipelineId} names sensor {@code sensor}. */
    public static ItemKey sensorReader(String sensor, String pipelineId) {
        return new ItemKey(sensorPk(sensor), PIPELINE_PREFIX + requirePart("pipelineId", pipelineId));
    }

    /** Index entry: a trait default of registered archetype {@code archetype} names sensor {@code sensor}. */
    public static ItemKey sensorReaderArchetype(String sensor, String archetype) {
        return new ItemKey(sensorPk(sensor), ARCHETYPE_PREFIX + requirePart("archetype", archetype));
    }

    /**
     * Where a run waiting for its job by callback and the job's terminal event meet, keyed by the job system's own
     * id: {@code JOB#<triggerType>#<jobId>/CALLBACK}.
     */
    public static ItemKey jobCallback(String triggerType, String jobId) {
        return new ItemKey(
                "JOB#" + requirePart("triggerType", triggerType) + "#" + requirePart("jobId", jobId), CALLBACK);
    }

    /** Run state item (the truth; changed by CAS). */
    public static ItemKey runState(String runId) {
        return new ItemKey(RUN_PREFIX + requirePart("runId", runId), STATE);
    }

    /** Lists a pipeline's runs by creation time. */
    public static IndexKey runStateIndex(String pipelineId, Instant createdAt, String runId) {
        return new IndexKey(
                runsByPipeline(pipelineId), InterlockJson.timestamp(createdAt) + "#" + requirePart("runId", runId));
    }

    /** GSI1 partition of a pipeline's runs. */
    public static String runsByPipeline(String pipelineId) {
        return "RUNS#" + requirePart("pipelineId", pipelineId);
    }

    /** Run log of one (pipeline, date, schedule). */
    public static ItemKey runLog(String pipelineId, LocalDate date, String scheduleId) {
        return new ItemKey(pipelinePk(pipelineId), RUNLOG_PREFIX + date + "#" + requirePart("scheduleId", scheduleId));
    }

    /** Lists every pipeline's run logs of one date (what the watchdog reads). */
    public static IndexKey runLogIndex(String pipelineId, LocalDate date, String scheduleId) {
        return new IndexKey(
                runLogsByDate(date),
                requirePart("pipelineId", pipelineId) + "#" + requirePart("scheduleId", scheduleId));
    }

    /** GSI1 partition of all run logs of one date. */
    public static String runLogsByDate(LocalDate date) {
        return "RUNLOGS#" + date;
    }

    /** Event item; {@code random} breaks ties between events of the same millisecond. */
    public static ItemKey event(String pipelineId, long epochMillis, String random) {
        return new ItemKey(
                pipelinePk(pipelineId), EVENT_PREFIX + millis(epochMillis) + "#" + requirePart("random", random));
    }

    /**
     * The GSI1 keys of an alert's {@code ALERT_SENT} event: partition {@code ALERTS#<UTC day sent>}, sorted by the time
     * sent, so a listing across pipelines reads one partition per day and never scans.
     */
    public static IndexKey alertIndex(Instant sentAt, String pipelineId, String random) {
        return new IndexKey(
                alertsByDay(LocalDate.ofInstant(sentAt, ZoneOffset.UTC)),
                alertSortKeyFrom(sentAt) + requirePart("pipelineId", pipelineId) + "#" + requirePart("random", random));
    }

    /** GSI1 partition of the alerts sent on one UTC day. */
    public static String alertsByDay(LocalDate utcDay) {
        return ALERTS_PREFIX + utcDay;
    }

    /** The UTC day of an {@code ALERTS#<day>} partition, or null when it is not one. */
    public static LocalDate alertDayOf(String gsi1pk) {
        if (gsi1pk == null || !gsi1pk.startsWith(ALERTS_PREFIX)) {
            return null;
        }
        try {
            return LocalDate.parse(gsi1pk.substring(ALERTS_PREFIX.length()));
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** The first characters of the alert sort keys sent at {@code sentAt}; every key sent later sorts after it. */
    public static String alertSortKeyFrom(Instant sentAt) {
        return InterlockJson.timestamp(sentAt) + "#";
    }

    /** Evaluation lock item. */
    public static ItemKey lock(LockKey key) {
        return new ItemKey("LOCK#" + key.value(), LOCK);
    }

    /**
     * Marker item of a source ({@code MarkerSource#wireName()}, the marker's own to name); {@code suffix} makes it
     * unique, and re-using a suffix makes the write idempotent.
     */
    public static ItemKey marker(String pipelineId, String source, String suffix) {
        return new ItemKey(
                pipelinePk(pipelineId),
                MARKER_PREFIX + requirePart("source", source) + "#" + requireText("suffix", suffix));
    }

    /**
     * Suffix of the cascade marker one upstream run writes for a downstream: keyed by the upstream run, so a retried
     * {@code notifyDownstream} re-writes the same marker instead of starting a second execution.
     */
    public static String cascadeMarkerSuffix(String upstreamPipelineId, String upstreamRunId) {
        return requirePart("upstreamPipelineId", upstreamPipelineId) + "#"
                + requirePart("upstreamRunId", upstreamRunId);
    }

    /** Suffix of the watchdog's schedule marker: one per (date, schedule), however often the watchdog ticks. */
    public static String scheduleMarkerSuffix(LocalDate date, String scheduleId) {
        return date + "#" + requirePart("scheduleId", scheduleId);
    }

    /**
     * Suffix of the marker a sensor write writes for one (date, schedule) of a reader: keyed by the sensor value's
     * revision, so the same data pushed again re-writes the same marker (one execution per change of the data), and a
     * retried request writes the markers its first attempt did not.
     */
    public static String sensorMarkerSuffix(
            LocalDate date, String scheduleId, String sensor, String partition, long revision) {
        return date + "#" + requirePart("scheduleId", scheduleId) + "#" + requirePart("sensor", sensor) + "#"
                + (partition == null ? "-" : requirePart("partition", partition)) + "#" + revision;
    }

    /** The source segment of a marker sort key ({@code MARKER#<source>#…}), or null when absent. */
    public static String markerSourceOf(String sk) {
        if (sk == null || !sk.startsWith(MARKER_PREFIX)) {
            return null;
        }
        String rest = sk.substring(MARKER_PREFIX.length());
        int end = rest.indexOf('#');
        String source = end < 0 ? rest : rest.substring(0, end);
        return source.isEmpty() ? null : source;
    }

    /** Late-arrival record. */
    public static ItemKey lateArrival(String pipelineId, LocalDate date, String scheduleId, long epochMillis) {
        return new ItemKey(pipelinePk(pipelineId), lateArrivalPrefix(date, scheduleId) + millis(epochMillis));
    }

    /** Sort-key prefix of the late arrivals of one (date, schedule). */
    public static String lateArrivalPrefix(LocalDate date, String scheduleId) {
        return LATE_ARRIVAL_PREFIX + date + "#" + requirePart("scheduleId", scheduleId) + "#";
    }

    /** Rerun item. */
    public static ItemKey rerun(String rerunId) {
        return new ItemKey(RERUN_PREFIX + requirePart("rerunId", rerunId), STATE);
    }

    /**
     * A pipeline's copy of a rerun, written in the same transaction as the rerun item: it lets the reruns of a (date,
     * schedule) be counted and found with one Query, and (through GSI1) the pipeline's reruns be listed by request time.
     */
    public static ItemKey rerunOfPipeline(String pipelineId, LocalDate date, String scheduleId, String rerunId) {
        return new ItemKey(pipelinePk(pipelineId), rerunPrefix(date, scheduleId) + requirePart("rerunId", rerunId));
    }

    /** Lists a pipeline's reruns by request time: the GSI1 keys of the pipeline's copy. */
    public static IndexKey rerunOfPipelineIndex(String pipelineId, Instant requestedAt, String rerunId) {
        return new IndexKey(
                rerunsByPipeline(pipelineId),
                InterlockJson.timestamp(requestedAt) + "#" + requirePart("rerunId", rerunId));
    }

    /** GSI1 partition of a pipeline's reruns. */
    public static String rerunsByPipeline(String pipelineId) {
        return "RERUNS#" + requirePart("pipelineId", pipelineId);
    }

    /** Sort-key prefix of a pipeline's rerun copies of one (date, schedule). */
    public static String rerunPrefix(LocalDate date, String scheduleId) {
        return RERUN_PREFIX + date + "#" + requirePart("scheduleId", scheduleId) + "#";
    }

    /**
     * The rerun budget counter of one (pipeline, date, schedule): how many reruns were created for it, incremented in
     * the same transaction as each new rerun. Its prefix is not {@link #RERUN_PREFIX}, so rerun listings and counts
     * never see it.
     */
    public static ItemKey rerunBudget(String pipelineId, LocalDate date, String scheduleId) {
        return new ItemKey(
                pipelinePk(pipelineId), RERUN_BUDGET_PREFIX + date + "#" + requirePart("scheduleId", scheduleId));
    }

    /** Lists reruns by request time. */
    public static IndexKey rerunIndex(Instant requestedAt) {
        return new IndexKey(RERUN_TYPE, InterlockJson.timestamp(requestedAt));
    }

    /** Dedup item of an alert: one alert per kind and (pipeline, date, schedule). */
    public static ItemKey alertDedup(AlertKind kind, String pipelineId, LocalDate date, String scheduleId) {
        return new ItemKey(
                "ALERT#" + kind.wireName() + "#" + requirePart("pipelineId", pipelineId) + "#" + date + "#"
                        + requirePart("scheduleId", scheduleId),
                SENT);
    }

    /**
     * The watchdog's state of one pipeline: its schedules as registered, what it has handled, when it is next due.
     * Written with the config (registration) and by the watchdog.
     */
    public static ItemKey watch(String pipelineId) {
        return new ItemKey(pipelinePk(pipelineId), WATCH);
    }

    /** The partition holding the due entries of one UTC day and shard. */
    public static String duePartition(LocalDate day, int shard) {
        if (shard < 0 || shard >= DUE_SHARDS) {
            throw new IllegalArgumentException("shard must be in [0, " + DUE_SHARDS + "): " + shard);
        }
        return DUE_PREFIX + day + "#" + shard;
    }

    /** The shard of a pipeline's due entries (String.hashCode is fixed by the Java specification, so stable). */
    public static int dueShard(String pipelineId) {
        return Math.floorMod(requirePart("pipelineId", pipelineId).hashCode(), DUE_SHARDS);
    }

    /**
     * A due entry: when the pipeline's watch next needs the watchdog ({@code runId} null), or when run {@code runId}
     * must be terminal. The sort key starts with the due instant, so a Query up to "now" reads exactly what is due.
     */
    public static ItemKey dueEntry(Instant dueAt, String pipelineId, String runId) {
        String day = InterlockJson.timestamp(dueAt).substring(0, 10);
        String sk = dueSortKeyPrefix(dueAt)
                + (runId == null
                        ? "PIPELINE#" + requirePart("pipelineId", pipelineId)
                        : "RUN#" + requirePart("pipelineId", pipelineId) + "#" + requirePart("runId", runId));
        return new ItemKey(duePartition(LocalDate.parse(day), dueShard(pipelineId)), sk);
    }

    /**
     * A callback check: when the watchdog asks whether the job run {@code runId} waits for by callback has ended. One
     * per run and due instant, beside the run's own check.
     */
    public static ItemKey callbackCheckEntry(Instant dueAt, String pipelineId, String runId) {
        String day = InterlockJson.timestamp(dueAt).substring(0, 10);
        String sk = dueSortKeyPrefix(dueAt) + "CALLBACK#" + requirePart("pipelineId", pipelineId) + "#"
                + requirePart("runId", runId);
        return new ItemKey(duePartition(LocalDate.parse(day), dueShard(pipelineId)), sk);
    }

    /**
     * A holder check: when the watchdog asks whether the execution {@code owner} holding the lock of (pipeline,
     * schedule, date) still runs.
     */
    public static ItemKey holderCheckEntry(
            Instant dueAt, String pipelineId, String scheduleId, LocalDate date, String owner) {
        String day = InterlockJson.timestamp(dueAt).substring(0, 10);
        String sk = dueSortKeyPrefix(dueAt) + "HOLDER#" + requirePart("pipelineId", pipelineId) + "#"
                + requirePart("scheduleId", scheduleId) + "#" + date + "#" + requirePart("owner", owner);
        return new ItemKey(duePartition(LocalDate.parse(day), dueShard(pipelineId)), sk);
    }

    /** The first characters of the sort keys of entries due at {@code dueAt}; every key due later sorts after it. */
    public static String dueSortKeyPrefix(Instant dueAt) {
        return InterlockJson.timestamp(dueAt) + "#";
    }

    /** The watchdog's progress: the earliest UTC day whose due partitions may still hold entries. */
    public static ItemKey watchdogCheckpoint() {
        return new ItemKey("WATCHDOG", CHECKPOINT);
    }

    static String millis(long epochMillis) {
        if (epochMillis < 0) {
            throw new IllegalArgumentException("epochMillis must not be negative: " + epochMillis);
        }
        String digits = Long.toString(epochMillis);
        return digits.length() >= MILLIS_DIGITS ? digits : "0".repeat(MILLIS_DIGITS - digits.length()) + digits;
    }

    /** Key parts are '#'-separated, so an id containing '#' would alias another item's key. */
    static String requirePart(String what, String value) {
        requireText(what, value);
        if (value.indexOf('#') >= 0) {
            throw new IllegalArgumentException(what + " must not contain '#': " + value);
        }
        return value;
    }

    private static String requireText(String what, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(what + " is required for a table key");
        }
        return value;
    }
}
