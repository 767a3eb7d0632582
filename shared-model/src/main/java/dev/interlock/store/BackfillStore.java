package dev.interlock.store;

import dev.interlock.model.backfill.Backfill;
import dev.interlock.model.event.Event;
import java.util.List;
import java.util.Optional;

/**
 * Backfills ({@link Backfill}). A backfill is written whole, each version only over the one it was made from, so two
 * writers (the API, an orchestrator whose day ended, the watchdog) never both start a day; a day is started with its
 * rerun and marker by {@link Provider#startBackfillDay}. A backfill stays in view ({@link #active}) until it ended and its
 * summary alert went out; then it lives as long as reruns do.
 */
public interface BackfillStore {

    /** Records a new backfill (version 1) and its event, all or nothing; false, writing nothing, if its id exists. */
    boolean create(Backfill backfill, Event requested);

    /** The backfill with id {@code backfillId}. */
    Optional<Backfill> get(String backfillId);

    /** Every backfill, newest request first; only {@code pipelineId}'s when it is not null. */
    List<Backfill> list(String pipelineId);

    /** The backfills still in view: not ended, or ended without their summary alert. */
    List<Backfill> active();

    /**
     * Writes {@code next} (made from {@code read}) as the version after {@code read}'s, with {@code events}, all or
     * nothing, only while the stored version is still {@code read}'s; false, writing nothing, when it moved. Once
     * {@code next} is alerted it leaves {@link #active}.
     */
    boolean replace(Backfill read, Backfill next, List<Event> events);
}
