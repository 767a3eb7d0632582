package dev.interlock.model.calendar;

import dev.interlock.model.json.Frozen;
import java.util.List;

/** A named, shared set of excluded weekdays and dates (holidays, freeze windows), registered via the API. */
public record Calendar(String name, String description, List<String> days, List<String> dates) {
    public Calendar {
        days = Frozen.list(days);
        dates = Frozen.list(dates);
    }
}
