package dev.interlock.store;

import dev.interlock.model.alert.Alert;

/**
 * Every alert sent, kept as long as events (docs/table-design.md, "Alert history"): each is an {@code ALERT_SENT}
 * event of its pipeline day, and listed across pipelines by the UTC day it was sent, so a listing reads one index
 * partition per day it covers, never a scan.
 */
public interface AlertHistory {

    /** Records a sent alert as its pipeline day's {@code ALERT_SENT} event, listed by {@link #list} as well. */
    void record(Alert alert);

    /**
     * The sent alerts matching {@code query}, newest first, starting after {@code page.cursor()}; at most as old as the
     * events' retention. {@code nextCursor} is present when more alerts follow.
     */
    Page<Alert> list(AlertQuery query, PageRequest page);
}
