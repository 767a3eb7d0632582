package dev.interlock.store;

import dev.interlock.model.backfill.Backfill;
import dev.interlock.model.backfill.BackfillDay;
import dev.interlock.model.backfill.BackfillDayStatus;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.pause.Pause;
import dev.interlock.model.rerun.Rerun;
import dev.interlock.model.rerun.RerunStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Moves a backfill on (docs/operations.md, "Backfills"): settles the days whose rerun ended and whose execution let go of
 * the day's lock, starts pending days in plan order while fewer than {@code maxConcurrency} run, and ends the backfill
 * when nothing is left, with its {@code BACKFILL_FINISHED} event. Every write is over the version it read
 * ({@link BackfillStore#replace}, {@link Provider#startBackfillDay}), so the API, orchestrators whose day ended and the
 * watchdog may all advance the same backfill at once: what one did, the others read and go on from. Repeating an
 * advance is harmless.
 *
 * <p>A day holds a place from its start until its rerun is terminal <em>and</em> its execution released the day's lock,
 * so at most {@code maxConcurrency} of a backfill's days hold locks at once. A day is not started while its pipeline is
 * paused (it waits), and is skipped when another execution holds its day. A day whose rerun never ends and whose
 * execution holds no lock (the execution died without a word) is failed once it has been silent longer than any
 * execution lives.
 */
public final class BackfillDriver {

    /** How long a running day's rerun may stay silent, its execution holding no lock, before the day is failed. */
    public static final Duration SILENT_DAY = Duration.ofHours(5);

    /** How long a started day's marker may take to start its execution before a pause is taken to have skipped it. */
    static final Duration MARKER_IN_FLIGHT = Duration.ofMinutes(2);

    private static final int MAX_ATTEMPTS = 50;

    private final Provider provider;

    public BackfillDriver(Provider provider) {
        this.provider = provider;
    }

    /**
     * What an advance left: the backfill as it now stands, and whether it ended and still owes its summary alert (the
     * caller with an alert publisher sends it, then calls {@link #alerted}).
     */
    public record Advance(Backfill backfill, boolean owesAlert) {}

    /** Advances the backfill {@code backfillId}; empty when there is none. */
    public Optional<Advance> advance(String backfillId, Instant now) {
        int conflicts = 0;
        while (conflicts < MAX_ATTEMPTS) {
            Optional<Backfill> read = provider.backfills().get(backfillId);
            if (read.isEmpty()) {
                return Optional.empty();
            }
            Step step = step(read.get(), now);
            if (step.done() != null) {
                return Optional.of(step.done());
            }
            if (!step.wrote()) {
                conflicts++;
            }
        }
        throw new StoreException(
                "backfill " + backfillId + " kept moving under " + MAX_ATTEMPTS + " attempts to advance it");
    }

    /** Records that the summary alert of the ended {@code backfill} went out (it leaves the watchdog's view). */
    public void alerted(Backfill backfill, Instant now) {
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            Backfill read = provider.backfills().get(backfill.backfillId()).orElse(null);
            if (read == null || read.alerted()) {
                return;
            }
            if (provider.backfills().replace(read, read.alertSent(now), List.of())) {
                return;
            }
        }
    }

    /**
     * Cancels the backfill on {@code by}'s behalf: pending days are skipped, running ones finish. Answers the backfill
     * as it then stands, or empty when there is none; an ended backfill is answered as it is.
     */
    public Optional<Advance> cancel(String backfillId, String by, String why, Instant now) {
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            Optional<Backfill> read = provider.backfills().get(backfillId);
            if (read.isEmpty()) {
                return Optional.empty();
            }
            Backfill b = read.get();
            if (b.status().isEnded() || b.cancelledBy() != null) {
                return Optional.of(new Advance(b, false));
            }
            Backfill cancelled = b.cancelled(by, why, now);
            Map<String, Object> details = details(b);
            details.put("cancelledBy", by);
            details.put("skipped", cancelled.counts().skipped() - b.counts().skipped());
            details.put("stillRunning", cancelled.counts().running());
            Event event = pipelineEvent(
                    b,
                    EventKind.BACKFILL_CANCELLED,
                    "CANCELLED",
                    "backfill " + b.backfillId() + " cancelled by " + by + (why == null ? "" : ": " + why) + "; "
                            + cancelled.counts().running() + " running day(s) finish",
                    details,
                    now);
            if (provider.backfills().replace(b, cancelled, List.of(event))) {
                return advance(backfillId, now);
            }
        }
        throw new StoreException("backfill " + backfillId + " kept moving while it was being cancelled");
    }

    /** What one round did: ended the advance ({@code done}), or wrote a move or found the backfill moved (read again). */
    private record Step(Advance done, boolean wrote) {
        static Step done(Advance advance) {
            return new Step(advance, true);
        }

        static Step again(boolean wrote) {
            return new Step(null, wrote);
        }
    }

    /** One read-decide-write round. */
    private Step step(Backfill read, Instant now) {
        if (read.status().isEnded()) {
            return Step.done(new Advance(read, !read.alerted()));
        }
        Backfill next = read;
        List<Event> events = new ArrayList<>();
        Optional<Pause> pause = provider.pauses().get(read.pipelineId());
        for (int i = 0; i < read.days().size(); i++) {
            BackfillDay day = read.days().get(i);
            if (day.status() == BackfillDayStatus.RUNNING) {
                Optional<BackfillDay> ended = ended(read, day, pause, now);
                if (ended.isPresent()) {
                    next = next.withDay(i, d -> ended.get(), now);
                    events.add(dayEvent(read, ended.get(), now));
                }
            }
        }
        if (next.isDone()) {
            Backfill finished = next.ended(now);
            events.add(pipelineEvent(
                    finished,
                    EventKind.BACKFILL_FINISHED,
                    finished.status().wireName(),
                    finished.summary(),
                    counts(finished),
                    now));
            return provider.backfills().replace(read, finished, events)
                    ? Step.done(new Advance(finished.atVersion(read.version() + 1), true))
                    : Step.again(false);
        }
        if (!events.isEmpty()) {
            return Step.again(provider.backfills().replace(read, next, events));
        }
        Optional<Integer> start = next.nextToStart();
        if (start.isEmpty() || pause.isPresent()) {
            return Step.done(new Advance(read, false));
        }
        BackfillDay day = next.days().get(start.get());
        Optional<LockHolder> holder =
                provider.locks().holder(new LockKey(read.pipelineId(), day.scheduleId(), day.date()));
        if (holder.isPresent()) {
            BackfillDay skipped = day.ended(
                    BackfillDayStatus.SKIPPED,
                    "running already: execution " + holder.get().owner() + " holds the day",
                    null,
                    now);
            Backfill moved = next.withDay(start.get(), d -> skipped, now);
            return Step.again(provider.backfills().replace(read, moved, List.of(dayEvent(read, skipped, now))));
        }
        String rerunId = read.backfillId() + "-" + (start.get() + 1);
        Marker marker = Marker.rerun(
                read.pipelineId(), day.scheduleId(), day.date(), MarkerSource.BACKFILL, rerunId, null, now);
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put(Rerun.BACKFILL_ID, read.backfillId());
        metadata.put("requestedBy", read.requestedBy());
        metadata.put("cascade", read.cascade());
        Rerun rerun = Rerun.requested(
                rerunId,
                read.pipelineId(),
                day.scheduleId(),
                day.date(),
                MarkerSource.BACKFILL,
                null,
                "backfill " + read.backfillId() + ": " + read.reason(),
                null,
                marker.executionName(),
                now,
                metadata);
        BackfillDay started = day.started(rerunId, marker.executionName(), now);
        Backfill moved = next.withDay(start.get(), d -> started, now);
        return Step.again(provider.startBackfillDay(read, moved, rerun, marker, dayEvent(read, started, now)));
    }

    /** The day's end, once its rerun ended and its execution let go of the day; empty while it runs. */
    private Optional<BackfillDay> ended(Backfill backfill, BackfillDay day, Optional<Pause> pause, Instant now) {
        Optional<Rerun> rerun = provider.reruns().get(day.rerunId());
        if (rerun.isEmpty()) {
            return Optional.of(
                    day.ended(BackfillDayStatus.FAILED, "its rerun " + day.rerunId() + " is gone", null, now));
        }
        Rerun r = rerun.get();
        Optional<LockHolder> holder =
                provider.locks().holder(new LockKey(backfill.pipelineId(), day.scheduleId(), day.date()));
        boolean holds = holder.isPresent() && holder.get().owner().equals(r.executionName());
        if (holds) {
            return Optional.empty();
        }
        if (r.status().isTerminal()) {
            BackfillDayStatus status = switch (r.status()) {
                case COMPLETED -> BackfillDayStatus.COMPLETED;
                case SKIPPED -> BackfillDayStatus.SKIPPED;
                default -> BackfillDayStatus.FAILED;
            };
            return Optional.of(day.ended(status, r.statusReason(), r.rerunRunId(), now));
        }
        Instant heard = r.updatedAt() == null ? day.startedAt() : r.updatedAt();
        if (r.status() == RerunStatus.PENDING
                && pause.isPresent()
                && heard != null
                && heard.plus(MARKER_IN_FLIGHT).isBefore(now)) {
            // Its marker met the pause (MARKER_SKIPPED): the execution never started, and never will.
            return Optional.of(day.ended(
                    BackfillDayStatus.SKIPPED,
                    "its marker was skipped: pipeline " + pause.get().describe(),
                    null,
                    now));
        }
        if (heard != null && heard.plus(SILENT_DAY).isBefore(now)) {
            return Optional.of(day.ended(
                    BackfillDayStatus.FAILED,
                    "its execution " + r.executionName() + " ended without an outcome (rerun "
                            + r.status().wireName() + " since " + heard + "; see the execution's history)",
                    r.rerunRunId(),
                    now));
        }
        return Optional.empty();
    }

    private static Event dayEvent(Backfill backfill, BackfillDay day, Instant now) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("backfillId", backfill.backfillId());
        if (day.rerunId() != null) {
            details.put("rerunId", day.rerunId());
            details.put("executionName", day.executionName());
        }
        String message = switch (day.status()) {
            case RUNNING ->
                "backfill " + backfill.backfillId() + " started this day (execution " + day.executionName() + ")";
            case PENDING -> "backfill " + backfill.backfillId() + " will run this day";
            default ->
                "backfill " + backfill.backfillId() + ": day "
                        + day.status().wireName().toLowerCase(java.util.Locale.ROOT)
                        + (day.reason() == null || day.reason().isBlank() ? "" : ": " + day.reason());
        };
        return new Event(
                EventKind.BACKFILL_DAY,
                backfill.pipelineId(),
                day.scheduleId(),
                day.date(),
                day.runId(),
                null,
                day.status().wireName(),
                message,
                details,
                now);
    }

    /** A backfill's own event: of its pipeline, of no day. */
    public static Event pipelineEvent(
            Backfill backfill,
            EventKind kind,
            String status,
            String message,
            Map<String, Object> details,
            Instant now) {
        return new Event(kind, backfill.pipelineId(), null, null, null, null, status, message, details, now);
    }

    /** The details every backfill event carries: its id, range and counts. */
    public static Map<String, Object> details(Backfill backfill) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("backfillId", backfill.backfillId());
        details.put("from", backfill.from().toString());
        details.put("to", backfill.to().toString());
        return details;
    }

    private static Map<String, Object> counts(Backfill backfill) {
        Map<String, Object> details = details(backfill);
        Backfill.Counts c = backfill.counts();
        details.put("completed", c.completed());
        details.put("failed", c.failed());
        details.put("skipped", c.skipped());
        details.put("total", c.total());
        return details;
    }
}
