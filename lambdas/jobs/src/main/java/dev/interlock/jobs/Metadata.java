package dev.interlock.jobs;

import dev.interlock.model.run.JobMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The metadata keys each job type writes at trigger time and reads back at poll time (their home: {@link JobMetadata}). */
final class Metadata {

    static final String GLUE_JOB_NAME = JobMetadata.GLUE_JOB_NAME;
    static final String GLUE_JOB_RUN_ID = JobMetadata.GLUE_JOB_RUN_ID;
    static final String GLUE_ERROR_LOG_PATTERN = JobMetadata.GLUE_ERROR_LOG_PATTERN;
    static final String EMR_CLUSTER_ID = JobMetadata.EMR_CLUSTER_ID;
    static final String EMR_STEP_ID = JobMetadata.EMR_STEP_ID;
    static final String EMR_SL_APPLICATION_ID = JobMetadata.EMR_SL_APPLICATION_ID;
    static final String EMR_SL_JOB_RUN_ID = JobMetadata.EMR_SL_JOB_RUN_ID;
    static final String SFN_EXECUTION_ARN = JobMetadata.SFN_EXECUTION_ARN;
    static final String AIRFLOW_DAG_RUN_ID = JobMetadata.AIRFLOW_DAG_RUN_ID;
    static final String AIRFLOW_DAG_ID = JobMetadata.AIRFLOW_DAG_ID;
    static final String AIRFLOW_URL = JobMetadata.AIRFLOW_URL;
    static final String AIRFLOW_FAILED_TASK_CHECK = JobMetadata.AIRFLOW_FAILED_TASK_CHECK;
    static final String DATABRICKS_WORKSPACE_URL = JobMetadata.DATABRICKS_WORKSPACE_URL;
    static final String DATABRICKS_RUN_ID = JobMetadata.DATABRICKS_RUN_ID;
    static final String HTTP_STATUS = JobMetadata.HTTP_STATUS;
    static final String LAMBDA_FUNCTION_NAME = JobMetadata.LAMBDA_FUNCTION_NAME;
    static final String LAMBDA_EXECUTED_VERSION = JobMetadata.LAMBDA_EXECUTED_VERSION;

    private Metadata() {}

    /**
     * The values of {@code keys}, in order.
     *
     * @throws JobFailure (PERMANENT) naming every missing key: polling again would never find them
     */
    static List<String> require(Map<String, String> metadata, String type, String... keys) throws JobFailure {
        List<String> missing = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (String key : keys) {
            String v = metadata.get(key);
            if (v == null || v.isBlank()) {
                missing.add(key);
            }
            values.add(v);
        }
        if (!missing.isEmpty()) {
            throw JobFailure.permanent("missing " + type + " metadata: " + String.join(", ", missing));
        }
        return values;
    }

    /** A required configuration field. */
    static String requireField(String value, String type, String field) throws JobFailure {
        if (value == null || value.isBlank()) {
            throw JobFailure.permanent(type + " trigger needs '" + field + "'");
        }
        return value.trim();
    }
}
