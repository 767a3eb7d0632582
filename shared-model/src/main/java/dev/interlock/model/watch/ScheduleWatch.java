package dev.interlock.model.watch;

import java.time.Instant;
import java.util.Objects;

/**
 * One schedule of a pipeline as the watchdog knows it.
 *
 * @param fingerprint what its timing was registered as ({@code after}, deadline, zone); a change makes it a new schedule
 * @param since       when it was registered in this form: windows that opened and deadlines that passed before are not
 *                    the watchdog's to run or alert (forward-only)
 * @param catchUp     whether the windows of its registration day that opened before {@code since} are run anyway
 */
public record ScheduleWatch(String fingerprint, Instant since, boolean catchUp) {

    public ScheduleWatch {
        Objects.requireNonNull(fingerprint, "fingerprint");
        Objects.requireNonNull(since, "since");
    }
}
