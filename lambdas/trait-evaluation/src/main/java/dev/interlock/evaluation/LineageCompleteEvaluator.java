package dev.interlock.evaluation;

import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.lineage.LineageGate;
import dev.interlock.model.lineage.LineageSubject;
import dev.interlock.model.sensor.SensorPartition;
import dev.interlock.model.sensor.SensorValue;
import dev.interlock.model.trait.ResolvedTrait;
import dev.interlock.store.Provider;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@code builtin:lineage-complete}: a gate on another tool's OpenLineage COMPLETE event (docs/openlineage.md). */
final class LineageCompleteEvaluator {

    private final Provider provider;

    LineageCompleteEvaluator(Provider provider) {
        this.provider = provider;
    }

    /**
     * Passes when a COMPLETE OpenLineage event of the gate's job (or of a run that wrote its dataset, and with both: of
     * that job) arrived for the day its {@code partition} template names ({@code ${date}}: the day being evaluated).
     * {@code POST /lineage} keeps each subject's latest COMPLETE per day on its reserved sensor.
     */
    Verdict evaluate(ResolvedTrait trait) throws BuiltinConfig.Invalid {
        List<ValidationError> problems = LineageGate.configErrors(trait.config(), "config");
        if (!problems.isEmpty()) {
            throw new BuiltinConfig.Invalid("builtin:lineage-complete "
                    + problems.getFirst().path() + ": " + problems.getFirst().message());
        }
        LineageGate gate = LineageGate.of(trait.config())
                .orElseThrow(() -> new BuiltinConfig.Invalid("builtin:lineage-complete config missing: job"));
        LineageSubject subject = gate.subject();
        String template = gate.partitionTemplate();
        String partition = SensorPartition.expand(template, trait.pipelineId(), trait.scheduleId(), trait.date());
        if (!SensorPartition.isValid(partition)) {
            throw new BuiltinConfig.Invalid("builtin config 'partition' " + template + " expands to '" + partition
                    + "' for " + trait.scheduleId() + " of " + trait.date() + ", which is not a partition");
        }
        Map<String, Object> value = new LinkedHashMap<>();
        if (gate.job() != null) {
            value.put("namespace", gate.job().namespace());
            value.put("job", gate.job().name());
        }
        if (gate.dataset() != null) {
            value.put("datasetNamespace", gate.dataset().namespace());
            value.put("dataset", gate.dataset().name());
        }
        value.put(SensorPartition.CONFIG_KEY, partition);
        Optional<SensorValue> stored = provider.sensors().get(subject.sensorName(), partition);
        if (stored.isEmpty()) {
            return Verdict.fail("no OpenLineage COMPLETE event of " + subject.label() + " for " + partition, value);
        }
        Map<String, Object> event = stored.get().fields();
        if (gate.job() != null
                && gate.dataset() != null
                && !(gate.job().namespace().equals(event.get("jobNamespace"))
                        && gate.job().name().equals(event.get("job")))) {
            value.put("completedBy", event.get("jobNamespace") + "/" + event.get("job"));
            return Verdict.fail(
                    subject.label() + " for " + partition + " was last completed by job " + event.get("jobNamespace")
                            + "/" + event.get("job") + ", not by " + gate.job().label(),
                    value);
        }
        value.put("runId", event.get("runId"));
        value.put("eventTime", event.get("eventTime"));
        if (event.get("producer") != null) {
            value.put("producer", event.get("producer"));
        }
        if (stored.get().updatedAt() != null) {
            // When the event arrived: when the trait's input last changed (quietPeriod reads it).
            value.put("updatedAt", InterlockJson.timestamp(stored.get().updatedAt()));
        }
        return Verdict.pass(
                value,
                "OpenLineage COMPLETE of " + subject.label() + " for " + partition + " (run " + event.get("runId")
                        + ")");
    }
}
