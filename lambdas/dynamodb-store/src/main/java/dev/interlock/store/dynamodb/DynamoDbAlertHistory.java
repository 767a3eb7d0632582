package dev.interlock.store.dynamodb;

import dev.interlock.model.alert.Alert;
import dev.interlock.model.event.AlertEvent;
import dev.interlock.model.event.Event;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.store.AlertHistory;
import dev.interlock.store.AlertQuery;
import dev.interlock.store.InvalidCursorException;
import dev.interlock.store.Page;
import dev.interlock.store.PageRequest;
import dev.interlock.store.Retention;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The alert history: each sent alert is its pipeline day's {@code ALERT_SENT} event
 * ({@code PIPELINE#<id>/EVENT#<millis>#<random>}) carrying GSI1 keys {@code ALERTS#<UTC day>} /
 * {@code <sent at>#<pipeline>#<random>}, and {@code pipelineId}/{@code alertKind} attributes the filters read. A
 * listing queries the day partitions newest first, from today back to {@code since} (at most the events' retention),
 * so it never scans; its cursor is the last item's key, whose partition names the day to resume in.
 */
final class DynamoDbAlertHistory implements AlertHistory {

    static final String PIPELINE_ID = "pipelineId";
    static final String ALERT_KIND = "alertKind";

    private final SingleTable table;
    private final DynamoDbEventStore events;
    private final Retention retention;

    DynamoDbAlertHistory(SingleTable table, DynamoDbEventStore events, Retention retention) {
        this.table = table;
        this.events = events;
        this.retention = retention;
    }

    @Override
    public void record(Alert alert) {
        Event event = AlertEvent.of(alert);
        events.append(
                event,
                suffix -> TableKeys.alertIndex(event.timestamp(), event.pipelineId(), suffix),
                Map.of(
                        PIPELINE_ID,
                        AttributeValue.fromS(alert.pipelineId()),
                        ALERT_KIND,
                        AttributeValue.fromS(alert.kind().wireName())),
                CapacityIntent.ALERT_RECORD);
    }

    @Override
    public Page<Alert> list(AlertQuery query, PageRequest page) {
        Instant now = table.now();
        Instant oldest = now.minus(retention.events());
        Instant since = query.since() == null || query.since().isBefore(oldest) ? oldest : query.since();
        LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
        LocalDate firstDay = LocalDate.ofInstant(since, ZoneOffset.UTC);
        LocalDate day = today;
        String cursor = page.cursor();
        if (cursor != null) {
            day = TableKeys.alertDayOf(PageCursor.attribute(cursor, ItemCodec.GSI1PK));
            if (day == null || day.isAfter(today) || day.isBefore(firstDay)) {
                throw new InvalidCursorException("page cursor does not belong to this listing: " + cursor);
            }
        }
        List<Map<String, AttributeValue>> found = new ArrayList<>();
        String last = cursor;
        for (; !day.isBefore(firstDay); day = day.minusDays(1)) {
            SingleTable.Query dayQuery = query(day, firstDay, since, query);
            int wanted = page.limit() - found.size();
            if (wanted == 0) {
                // The page is full: a cursor only when an older alert follows.
                boolean more = !table.queryPage(
                                dayQuery, new PageRequest(1, cursorIn(day, last)), CapacityIntent.ALERT_LIST)
                        .items()
                        .isEmpty();
                if (more) {
                    return new Page<>(decode(found), last);
                }
                continue;
            }
            Page<Map<String, AttributeValue>> dayPage =
                    table.queryPage(dayQuery, new PageRequest(wanted, cursorIn(day, last)), CapacityIntent.ALERT_LIST);
            found.addAll(dayPage.items());
            if (dayPage.nextCursor() != null) {
                return new Page<>(decode(found), dayPage.nextCursor());
            }
            if (!dayPage.items().isEmpty()) {
                last = PageCursor.encode(dayPage.items().getLast(), dayQuery.keyAttributes());
            }
        }
        return Page.last(decode(found));
    }

    /** The cursor to resume {@code day} from: {@code last} when it points into that day, else none (from its newest). */
    private static String cursorIn(LocalDate day, String last) {
        return last != null && day.equals(TableKeys.alertDayOf(PageCursor.attribute(last, ItemCodec.GSI1PK)))
                ? last
                : null;
    }

    private static SingleTable.Query query(LocalDate day, LocalDate firstDay, Instant since, AlertQuery query) {
        SingleTable.Query q = SingleTable.Query.index(TableKeys.alertsByDay(day), false);
        if (day.equals(firstDay)) {
            // '~' sorts after every character a sort key of the day holds.
            q = q.between(TableKeys.alertSortKeyFrom(since), "~");
        }
        Map<String, String> names = new HashMap<>();
        Map<String, AttributeValue> values = new HashMap<>();
        List<String> clauses = new ArrayList<>();
        if (query.pipelineId() != null) {
            names.put("#alertPipeline", PIPELINE_ID);
            values.put(":alertPipeline", AttributeValue.fromS(query.pipelineId()));
            clauses.add("#alertPipeline = :alertPipeline");
        }
        if (query.kind() != null) {
            names.put("#alertKind", ALERT_KIND);
            values.put(":alertKind", AttributeValue.fromS(query.kind().wireName()));
            clauses.add("#alertKind = :alertKind");
        }
        return clauses.isEmpty()
                ? q
                : q.filtered(SingleTable.Condition.of(String.join(" AND ", clauses), names, values));
    }

    private static List<Alert> decode(List<Map<String, AttributeValue>> items) {
        return items.stream()
                .map(item -> AlertEvent.alertOf(ItemCodec.decode(item, Event.class)))
                .toList();
    }
}
