package dev.interlock.deps.trigger;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The metadata keys each job type writes at trigger time and reads back at poll time (R§5.3). */
final class Metadata {

    static final String GLUE_JOB_NAME = "glue_job_name";
    static final String GLUE_JOB_RUN_ID = "glue_job_run_id";
    static final String EMR_CLUSTER_ID = "emr_cluster_id";
    static final String EMR_STEP_ID = "emr_step_id";
    static final String EMR_SL_APPLICATION_ID = "emr_sl_application_id";
    static final String EMR_SL_JOB_RUN_ID = "emr_sl_job_run_id";
    static final String SFN_EXECUTION_ARN = "sfn_execution_arn";
    static final String AIRFLOW_DAG_RUN_ID = "airflow_dag_run_id";
    static final String AIRFLOW_DAG_ID = "airflow_dag_id";
    static final String AIRFLOW_URL = "airflow_url";
    static final String DATABRICKS_WORKSPACE_URL = "databricks_workspace_url";
    static final String DATABRICKS_RUN_ID = "databricks_run_id";
    static final String HTTP_STATUS = "http_status";
    static final String LAMBDA_FUNCTION_NAME = "lambda_function_name";
    static final String LAMBDA_EXECUTED_VERSION = "lambda_executed_version";
    static final String COMMAND_EXIT_CODE = "command_exit_code";

    private Metadata() {
    }

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
