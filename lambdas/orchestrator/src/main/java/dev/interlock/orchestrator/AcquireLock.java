package dev.interlock.orchestrator;

import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.store.LockHolder;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code acquireLock}: one execution at a time per (pipeline, schedule, date). The owner is the execution name; the
 * same owner re-acquires (a retried call); the TTL outlives the execution timeout. A marker that meets a lock held by
 * another execution is never dropped: it is absorbed when the holder will evaluate the day again anyway (it waits on
 * NOT READY), else it waits and retries with backoff, and once its wait budget is spent it hands itself over to a new
 * execution (a successor marker), so a holder that lives for hours, or died and left its lock to expire, delays the
 * marker's work but never loses it. Each of these answers records an event with its reason. The lock records the
 * holder's execution ARN and, in the same write, the watchdog's holder check ({@link HolderCheckDuty}).
 */
public final class AcquireLock implements Action {

    /**
     * Always-present payload.
     *
     * @param ttlSeconds  0 unless acquired
     * @param absorbed    the holder does this marker's work; the execution ends
     * @param waitSeconds greater than 0: wait this long, then try again (the machine's WaitForLock)
     */
    public record Payload(boolean acquired, long ttlSeconds, boolean absorbed, long waitSeconds) {}

    /** Request payload. */
    record Request(
            String owner,
            String executionId,
            Integer executionTimeoutSeconds,
            String executionStartTime,
            Boolean replay,
            String markerSource) {}

    /** The first wait for a held lock; later waits grow with the time already waited. */
    static final Duration MIN_WAIT = Duration.ofSeconds(30);
    /** The longest single wait, so a released lock is taken within minutes. */
    static final Duration MAX_WAIT = Duration.ofMinutes(5);
    /**
     * How long one execution waits for a lock before it hands over to a successor: short enough that the successor's
     * execution, and not this one's shrinking budget, does the evaluation that follows.
     */
    static final Duration WAIT_BUDGET = Duration.ofMinutes(30);

    /** Acquire attempts when the lock disappears between a refused put and the read of its holder. */
    private static final int ROUNDS = 3;

    private final Collaborators collaborators;

    public AcquireLock(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    @Override
    public Outcome run(ActionRequest request) {
        Request body = request.payload(Request.class);
        String owner = LockOwner.of(body.owner(), request);
        if (owner == null) {
            return Outcome.error("payload.owner (or executionName) is required to own the lock", errorPayload());
        }
        LockKey key = LockOwner.key(request);
        int requested = body.executionTimeoutSeconds() == null ? 0 : body.executionTimeoutSeconds();
        Duration ttl = collaborators.settings().lockTtl(requested);
        if (MarkerSource.CONTINUATION.wireName().equals(body.markerSource())) {
            Optional<Outcome> wait = new Continuation(collaborators).awaitFirstRound(request, key, owner);
            if (wait.isPresent()) {
                return wait.get();
            }
        }
        for (int round = 0; round < ROUNDS; round++) {
            if (acquire(key, owner, ttl, body.executionId())) {
                return Outcome.proceed(new Payload(true, ttl.getSeconds(), false, 0));
            }
            Optional<LockHolder> holder = collaborators.provider().locks().holder(key);
            if (holder.isPresent()) {
                return metHeldLock(request, body, key, owner, holder.get());
            }
        }
        return Outcome.error("lock " + key.value() + " kept changing hands while it was acquired", errorPayload());
    }

    /**
     * The lock, with the watchdog's holder check of the execution in the same write when the machine sent its ARN
     * ({@link HolderCheckDuty}): due one check interval from now, so a holder that ends without its execution-end
     * event is found within one watchdog tick.
     */
    private boolean acquire(LockKey key, String owner, Duration ttl, String executionArn) {
        if (executionArn == null || executionArn.isBlank()) {
            return collaborators.provider().locks().acquire(key, owner, ttl);
        }
        return collaborators
                .provider()
                .locks()
                .acquire(
                        key,
                        owner,
                        ttl,
                        executionArn.trim(),
                        collaborators.now().plus(HolderCheckDuty.CHECK_INTERVAL));
    }

    @Override
    public Payload errorPayload() {
        return new Payload(false, 0, false, 0);
    }

    private Outcome metHeldLock(ActionRequest request, Request body, LockKey key, String owner, LockHolder holder) {
        Instant now = collaborators.now();
        boolean replay = body.replay() != null && body.replay();
        if (!replay
                && holder.evaluatesAgainAfter(now)
                && collaborators.provider().locks().recordAbsorbed(key, holder.owner())) {
            String reason =
                    "absorbed by " + holder.owner() + ": it is waiting on NOT READY and evaluates the day again by "
                            + InterlockJson.timestamp(holder.nextRoundBy());
            collaborators.record(
                    request, EventKind.MARKER_ABSORBED, "ABSORBED", reason, details(owner, holder, replay));
            return Outcome.skip(reason, new Payload(false, 0, true, 0));
        }
        Optional<Instant> start = parse(body.executionStartTime());
        if (start.isEmpty()) {
            return Outcome.error(
                    "payload.executionStartTime is required to bound the wait for lock " + key.value() + " (held by "
                            + holder.owner() + ")",
                    errorPayload());
        }
        Duration waited = Duration.between(start.get(), now);
        Duration wait = waited.compareTo(MIN_WAIT) < 0 ? MIN_WAIT : waited.compareTo(MAX_WAIT) > 0 ? MAX_WAIT : waited;
        Map<String, Object> details = details(owner, holder, replay);
        if (!now.plus(wait).isAfter(start.get().plus(WAIT_BUDGET))) {
            String reason =
                    "lock " + key.value() + " held by " + holder.owner() + (replay ? "; a replay" : "; this marker")
                            + " runs after it releases (next try in " + wait.getSeconds() + " s)";
            details.put("waitSeconds", wait.getSeconds());
            collaborators.record(request, EventKind.MARKER_DEFERRED, "WAITING", reason, details);
            return Outcome.skip(reason, new Payload(false, 0, false, wait.getSeconds()));
        }
        String successor = new Successors(collaborators).handOver(request, MarkerSource.DEFERRED, owner, replay);
        String reason = "waited " + waited.getSeconds() + " s for lock " + key.value() + " held by " + holder.owner()
                + "; handed the marker over to " + successor;
        details.put("successorExecution", successor);
        details.put("reason", "lock wait budget of " + WAIT_BUDGET.getSeconds() + " s spent");
        collaborators.record(request, EventKind.EXECUTION_HANDED_OVER, "HANDED_OVER", reason, details);
        return Outcome.skip(reason, new Payload(false, 0, false, 0));
    }

    private static Map<String, Object> details(String owner, LockHolder holder, boolean replay) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("executionName", owner);
        details.put("holder", holder.owner());
        if (holder.acquiredAt() != null) {
            details.put("heldSince", InterlockJson.timestamp(holder.acquiredAt()));
        }
        if (holder.expiresAt() != null) {
            details.put("expiresAt", InterlockJson.timestamp(holder.expiresAt()));
        }
        details.put("replay", replay);
        return details;
    }

    private static Optional<Instant> parse(String text) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(text.trim()));
        } catch (java.time.DateTimeException e) {
            return Optional.empty();
        }
    }
}
