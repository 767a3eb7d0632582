package dev.interlock.model.pipeline;

import dev.interlock.model.json.Frozen;
import java.util.Map;

/**
 * Who a pipeline belongs to and where a person goes when it pages: {@code owner} (a person or an address),
 * {@code team} (what alert subscriptions filter on, and what a team mute silences), free {@code labels}, and the
 * {@code runbook} URL. All optional; alerts carry them (docs/operations.md, "Routing alerts per team").
 */
public record Ownership(String owner, String team, Map<String, String> labels, String runbook) {

    /** A pipeline that names nobody. */
    public static final Ownership NONE = new Ownership(null, null, Map.of(), null);

    public Ownership {
        owner = blankToNull(owner);
        team = blankToNull(team);
        labels = Frozen.map(labels);
        runbook = blankToNull(runbook);
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }
}
