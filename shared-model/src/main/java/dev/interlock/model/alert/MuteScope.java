package dev.interlock.model.alert;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.interlock.model.json.WireEnum;

/** What a {@link Mute} silences: one pipeline, or every pipeline whose {@code team} it names. */
public enum MuteScope implements WireEnum {
    PIPELINE("pipeline"),
    TEAM("team");

    private final String wireName;

    MuteScope(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    @Override
    public String wireName() {
        return wireName;
    }

    /** Reads a wire value ({@code pipeline}, {@code team}, also the path segments {@code pipelines}, {@code teams}). */
    @JsonCreator
    public static MuteScope fromJson(String raw) {
        String name = raw == null ? null : raw.strip();
        if (name != null && name.endsWith("s")) {
            name = name.substring(0, name.length() - 1);
        }
        return WireEnum.parse(MuteScope.class, name, "mute scope");
    }
}
