package dev.interlock.model.alert;

import java.time.Duration;
import java.time.Instant;

/**
 * A window in which a pipeline's or a team's alerts are not published: each one raised meanwhile is recorded as an
 * {@code ALERT_MUTED} event of its day instead, naming this mute. Set and lifted through the API (audited as
 * {@code MUTED} / {@code UNMUTED} events); a mute always ends ({@link #MAX_SPAN}), so nobody forgets one for good.
 *
 * @param scope   pipeline or team
 * @param target  the pipeline id or the team name
 * @param from    when it starts (now, or a planned maintenance window)
 * @param until   when it ends; alerts raised from then on are published again
 * @param reason  why, for whoever wonders where the alerts went
 * @param mutedBy the caller that set it
 * @param mutedAt when it was set
 */
public record Mute(
        MuteScope scope, String target, Instant from, Instant until, String reason, String mutedBy, Instant mutedAt) {

    /** The longest mute: a week of silence is already a decision to revisit. */
    public static final Duration MAX_SPAN = Duration.ofDays(7);

    /** The longest reason. */
    public static final int MAX_REASON = 500;

    /** Whether it silences alerts raised at {@code now}. */
    public boolean activeAt(Instant now) {
        return !now.isBefore(from) && now.isBefore(until);
    }

    /** Whether it is over at {@code now}. */
    public boolean endedAt(Instant now) {
        return !now.isBefore(until);
    }

    /** Whether it silences a pipeline of this id and team. */
    public boolean covers(String pipelineId, String team) {
        return switch (scope) {
            case PIPELINE -> target.equals(pipelineId);
            case TEAM -> team != null && target.equals(team);
        };
    }

    /** One line a person reads: {@code muted (team data-platform) until … by …: reason}. */
    public String describe() {
        return "muted (" + scope.wireName() + " " + target + ") from " + from + " until " + until + " by " + mutedBy
                + ": " + reason;
    }
}
