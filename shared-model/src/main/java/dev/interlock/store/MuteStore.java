package dev.interlock.store;

import dev.interlock.model.alert.Mute;
import dev.interlock.model.alert.MuteScope;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Mutes of a pipeline's or a team's alerts ({@link Mute}); one per (scope, target), a new one replaces the old. */
public interface MuteStore {

    /** Sets (or replaces) the mute of its scope and target; it is kept until a while after it ends. */
    void put(Mute mute);

    /** The mute of (scope, target), ended or not, while it is kept. */
    Optional<Mute> get(MuteScope scope, String target);

    /** The mutes that may silence an alert of this pipeline: its own and its team's (team may be null), by key. */
    default List<Mute> covering(String pipelineId, String team) {
        List<Mute> mutes = new ArrayList<>();
        get(MuteScope.PIPELINE, pipelineId).ifPresent(mutes::add);
        if (team != null) {
            get(MuteScope.TEAM, team).ifPresent(mutes::add);
        }
        return mutes;
    }

    /** Removes the mute of (scope, target); the removed one, or empty when there was none. */
    Optional<Mute> delete(MuteScope scope, String target);

    /** Every kept mute (ended ones too, until they expire), by scope and target. */
    List<Mute> list();
}
