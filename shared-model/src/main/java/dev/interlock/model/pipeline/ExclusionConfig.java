package dev.interlock.model.pipeline;

import dev.interlock.model.json.Frozen;
import java.util.List;

/**
 * Execution dates a pipeline skips: a named calendar, weekday names ({@code saturday}, case-insensitive) and exact
 * {@code YYYY-MM-DD} dates, all judged on the execution date.
 */
public record ExclusionConfig(String calendar, List<String> days, List<String> dates) {
    public ExclusionConfig {
        days = Frozen.list(days);
        dates = Frozen.list(dates);
    }
}
