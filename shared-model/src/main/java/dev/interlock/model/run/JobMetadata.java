package dev.interlock.model.run;

import dev.interlock.model.trigger.TriggerType;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The metadata keys each job type writes into its run at trigger time and reads back at poll time, and how
 * a person finds the job from them: its id, and a link where the reported values are enough to build one.
 */
public final class JobMetadata {

    public static final String GLUE_JOB_NAME = "glue_job_name";
    public static final String GLUE_JOB_RUN_ID = "glue_job_run_id";
    /**
     * The CloudWatch Logs filter pattern the run's driver-log check uses (the trigger's {@code errorLogPattern} when it
     * started the run); empty: the log check is off; absent: a run started before the check existed.
     */
    public static final String GLUE_ERROR_LOG_PATTERN = "glue_error_log_pattern";

    public static final String EMR_CLUSTER_ID = "emr_cluster_id";
    public static final String EMR_STEP_ID = "emr_step_id";
    public static final String EMR_SL_APPLICATION_ID = "emr_sl_application_id";
    public static final String EMR_SL_JOB_RUN_ID = "emr_sl_job_run_id";
    public static final String SFN_EXECUTION_ARN = "sfn_execution_arn";
    public static final String AIRFLOW_DAG_RUN_ID = "airflow_dag_run_id";
    public static final String AIRFLOW_DAG_ID = "airflow_dag_id";
    public static final String AIRFLOW_URL = "airflow_url";
    /**
     * Whether a DAG run that ends {@code success} has its task instances checked for failed ones ({@code true} or
     * {@code false}, the trigger's {@code failedTaskCheck} when it started the run); absent: a run started before the
     * check existed, whose {@code success} stands.
     */
    public static final String AIRFLOW_FAILED_TASK_CHECK = "airflow_failed_task_check";

    public static final String DATABRICKS_WORKSPACE_URL = "databricks_workspace_url";
    public static final String DATABRICKS_RUN_ID = "databricks_run_id";
    public static final String HTTP_STATUS = "http_status";
    public static final String LAMBDA_FUNCTION_NAME = "lambda_function_name";
    public static final String LAMBDA_EXECUTED_VERSION = "lambda_executed_version";

    private JobMetadata() {}

    /** The job system's own id of the run, null when the type has none (or it was not reported). */
    public static String jobId(TriggerType type, Map<String, String> metadata) {
        if (type == null) {
            return null;
        }
        return switch (type) {
            case GLUE -> metadata.get(GLUE_JOB_RUN_ID);
            case EMR -> metadata.get(EMR_STEP_ID);
            case EMR_SERVERLESS -> metadata.get(EMR_SL_JOB_RUN_ID);
            case STEP_FUNCTION -> metadata.get(SFN_EXECUTION_ARN);
            case AIRFLOW -> metadata.get(AIRFLOW_DAG_RUN_ID);
            case DATABRICKS -> metadata.get(DATABRICKS_RUN_ID);
            case LAMBDA -> metadata.get(LAMBDA_FUNCTION_NAME);
            case HTTP -> null;
        };
    }

    /**
     * A link to the job's page, when the reported values name where it lives (Airflow's and Databricks' own URLs, a
     * Step Functions execution ARN with its region); null otherwise, never a guess.
     */
    public static String link(TriggerType type, Map<String, String> metadata) {
        if (type == null) {
            return null;
        }
        return switch (type) {
            case AIRFLOW ->
                present(metadata, AIRFLOW_URL, AIRFLOW_DAG_ID, AIRFLOW_DAG_RUN_ID)
                        ? trim(metadata.get(AIRFLOW_URL)) + "/dags/" + encode(metadata.get(AIRFLOW_DAG_ID))
                                + "/grid?dag_run_id=" + encode(metadata.get(AIRFLOW_DAG_RUN_ID))
                        : null;
            case DATABRICKS ->
                present(metadata, DATABRICKS_WORKSPACE_URL, DATABRICKS_RUN_ID)
                        ? trim(metadata.get(DATABRICKS_WORKSPACE_URL)) + "/#job/run/"
                                + encode(metadata.get(DATABRICKS_RUN_ID))
                        : null;
            case STEP_FUNCTION -> stepFunctionsLink(metadata.get(SFN_EXECUTION_ARN));
            default -> null;
        };
    }

    private static String stepFunctionsLink(String arn) {
        // arn:aws:states:<region>:<account>:execution:<machine>:<name>
        String[] parts = arn == null ? new String[0] : arn.split(":");
        if (parts.length < 8 || !"states".equals(parts[2]) || parts[3].isBlank()) {
            return null;
        }
        String region = parts[3];
        return "https://" + region + ".console.aws.amazon.com/states/home?region=" + region + "#/v2/executions/details/"
                + encode(arn);
    }

    private static boolean present(Map<String, String> metadata, String... keys) {
        for (String key : keys) {
            String v = metadata.get(key);
            if (v == null || v.isBlank()) {
                return false;
            }
        }
        return true;
    }

    private static String trim(String url) {
        String t = url.trim();
        return t.endsWith("/") ? t.substring(0, t.length() - 1) : t;
    }

    private static String encode(String raw) {
        return URLEncoder.encode(raw, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
