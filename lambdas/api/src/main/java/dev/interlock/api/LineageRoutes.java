package dev.interlock.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.lineage.LineageRunEvent;
import dev.interlock.model.lineage.LineageSubject;
import dev.interlock.model.sensor.SensorValue;
import dev.interlock.store.Provider;
import dev.interlock.store.SensorStore;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code POST /lineage}: OpenLineage run events from other tools (dbt-ol, Spark, Airflow, Dagster). A COMPLETE event is
 * kept, for the day it is for, on the reserved sensor of its job and of each dataset it wrote
 * ({@link LineageSubject#sensorName()}); like a sensor write, it then starts the evaluation of the pipeline days whose
 * {@code builtin:lineage-complete} trait waits for one of them. Any other event is accepted and stored nowhere: each
 * day it concerns is skipped with its reason. Unknown facets are accepted and ignored.
 */
final class LineageRoutes {

    private final Provider provider;
    private final RequestBody body;
    private final Clock clock;
    private final SensorArrivals arrivals;

    LineageRoutes(Provider provider, RequestBody body, Clock clock, SensorArrivals arrivals) {
        this.provider = provider;
        this.body = body;
        this.clock = clock;
        this.arrivals = arrivals;
    }

    /** A job or dataset the event named, as the answer names it. */
    record Subject(String kind, String namespace, String name) {
        static Subject of(LineageSubject subject) {
            return new Subject(subject.kind().wireName(), subject.namespace(), subject.name());
        }
    }

    /**
     * The answer: the event as read, the day it counts for, the subjects it completed (none unless COMPLETE), the
     * evaluations it started and the pipeline days it left with why; {@code reason} says why it started nothing.
     */
    record Received(
            String eventType,
            String runId,
            Subject job,
            LocalDate day,
            List<Subject> completed,
            List<SensorArrivals.Evaluation> evaluations,
            List<SensorArrivals.Skip> skipped,
            String reason) {}

    /** {@code POST /lineage}. */
    ApiResponse post(ApiRequest request, Map<String, String> path) {
        JsonNode document = body.readObject(request, false);
        LineageRunEvent.Parsed parsed = LineageRunEvent.parse(document);
        if (!parsed.errors().isEmpty()) {
            throw ProblemException.invalid(
                    "the OpenLineage run event has " + parsed.errors().size() + " problem(s)", parsed.errors());
        }
        LineageRunEvent event = parsed.event();
        List<LineageSubject> subjects = new ArrayList<>();
        subjects.add(event.job());
        event.outputs().stream().distinct().forEach(subjects::add);
        boolean complete = event.eventType() == LineageRunEvent.EventType.COMPLETE;
        String partition = event.day().toString();
        List<Subject> completed = new ArrayList<>();
        List<SensorArrivals.Evaluation> evaluations = new ArrayList<>();
        List<SensorArrivals.Skip> skipped = new ArrayList<>();
        for (LineageSubject subject : subjects) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("eventType", event.eventType().name());
            details.put("runId", event.runId());
            details.put("eventTime", event.eventTime().toString());
            details.put(subject.kind().wireName() + "Namespace", subject.namespace());
            details.put(subject.kind().wireName(), subject.name());
            details.put("day", partition);
            String label = "OpenLineage " + event.eventType().name() + " of " + subject.label() + " for " + partition;
            SensorArrivals.Outcome outcome;
            if (complete) {
                SensorStore.SensorWrite write = provider.sensors()
                        .write(new SensorValue(
                                subject.sensorName(), partition, event.storedFields(), clock.instant(), 0));
                completed.add(Subject.of(subject));
                details.put("revision", write.stored().revision());
                outcome = arrivals.after(
                        subject.sensorName(),
                        partition,
                        Optional.of(write.stored()),
                        new SensorArrivals.Arrival(
                                EventKind.LINEAGE_RECEIVED, label, "arrived", details, write.changed(), null));
            } else {
                outcome = arrivals.after(
                        subject.sensorName(),
                        partition,
                        Optional.empty(),
                        new SensorArrivals.Arrival(
                                EventKind.LINEAGE_RECEIVED,
                                label,
                                "arrived",
                                details,
                                // A failed or aborted run is worth an event on each day waiting for it; START and
                                // RUNNING are routine, told in the answer only.
                                event.eventType() == LineageRunEvent.EventType.FAIL
                                        || event.eventType() == LineageRunEvent.EventType.ABORT,
                                "a " + event.eventType().name() + " event does not complete " + subject.label()
                                        + "; lineage-complete waits for COMPLETE"));
            }
            evaluations.addAll(outcome.evaluations());
            skipped.addAll(outcome.skipped());
        }
        String reason = null;
        if (!complete) {
            reason = "a " + event.eventType().name() + " event completes nothing; only COMPLETE counts for "
                    + "builtin:lineage-complete";
        } else if (evaluations.isEmpty() && skipped.isEmpty()) {
            reason = "no registered pipeline waits for " + event.job().label()
                    + (event.outputs().isEmpty() ? "" : " or its outputs") + " on " + partition;
        }
        return ApiResponse.json(
                200,
                new Received(
                        event.eventType().name(),
                        event.runId(),
                        Subject.of(event.job()),
                        event.day(),
                        completed,
                        evaluations,
                        skipped,
                        reason));
    }
}
