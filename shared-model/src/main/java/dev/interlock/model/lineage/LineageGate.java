package dev.interlock.model.lineage;

import dev.interlock.model.json.ConfigText;
import dev.interlock.model.json.JsonPath;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.sensor.SensorPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a {@code builtin:lineage-complete} trait waits for, read from its config: the COMPLETE event of a job
 * ({@code namespace} + {@code job}) or of a run that wrote a dataset ({@code dataset}, in {@code datasetNamespace},
 * which defaults to {@code namespace}); with both, a COMPLETE of that job that wrote that dataset. {@code partition} is
 * the day the event must be for, a template like a sensor's, {@code ${date}} unless given.
 */
public record LineageGate(LineageSubject job, LineageSubject dataset, String partitionTemplate) {

    public static final String NAMESPACE = "namespace";
    public static final String JOB = "job";
    public static final String DATASET = "dataset";
    public static final String DATASET_NAMESPACE = "datasetNamespace";
    /** An event counts for the day it is for, unless the trait's {@code partition} names another. */
    public static final String DEFAULT_PARTITION = "${date}";

    /** The subject whose stored completions the trait reads: the dataset when it names one, else the job. */
    public LineageSubject subject() {
        return dataset != null ? dataset : job;
    }

    /** The gate a config describes, or empty when it names no job nor dataset (see {@link #configErrors}). */
    public static Optional<LineageGate> of(Map<String, Object> config) {
        if (config == null) {
            return Optional.empty();
        }
        String namespace = ConfigText.of(config, NAMESPACE);
        String jobName = ConfigText.of(config, JOB);
        String datasetName = ConfigText.of(config, DATASET);
        String datasetNamespace = ConfigText.of(config, DATASET_NAMESPACE);
        if (datasetNamespace == null) {
            datasetNamespace = namespace;
        }
        LineageSubject job = namespace != null && jobName != null ? LineageSubject.job(namespace, jobName) : null;
        LineageSubject dataset = datasetNamespace != null && datasetName != null
                ? LineageSubject.dataset(datasetNamespace, datasetName)
                : null;
        if (job == null && dataset == null) {
            return Optional.empty();
        }
        String template = ConfigText.of(config, SensorPartition.CONFIG_KEY);
        return Optional.of(new LineageGate(job, dataset, template == null ? DEFAULT_PARTITION : template));
    }

    /** What is wrong with a {@code lineage-complete} config (paths below {@code configPath}). */
    public static List<ValidationError> configErrors(Map<String, Object> config, String configPath) {
        List<ValidationError> errors = new ArrayList<>();
        boolean job = config.get(JOB) != null;
        boolean dataset = config.get(DATASET) != null;
        if (!job && !dataset) {
            errors.add(new ValidationError(
                    JsonPath.field(configPath, JOB),
                    "job or dataset is required: the OpenLineage job (or output dataset) whose COMPLETE event the "
                            + "trait waits for"));
        }
        for (String key : List.of(JOB, DATASET, NAMESPACE, DATASET_NAMESPACE, SensorPartition.CONFIG_KEY)) {
            Object value = config.get(key);
            if (value != null && (!(value instanceof String text) || text.isBlank())) {
                errors.add(new ValidationError(JsonPath.field(configPath, key), key + " must be a non-empty text"));
            }
        }
        if (!(config.get(NAMESPACE) instanceof String) && (job || !(config.get(DATASET_NAMESPACE) instanceof String))) {
            errors.add(new ValidationError(
                    JsonPath.field(configPath, NAMESPACE),
                    "namespace is required: the OpenLineage namespace of the job (e.g. dbt://analytics)"));
        }
        if (config.get(SensorPartition.CONFIG_KEY) instanceof String template) {
            SensorPartition.templateProblem(template)
                    .ifPresent(problem -> errors.add(
                            new ValidationError(JsonPath.field(configPath, SensorPartition.CONFIG_KEY), problem)));
        }
        return errors;
    }
}
