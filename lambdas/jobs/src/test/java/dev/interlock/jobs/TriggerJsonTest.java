package dev.interlock.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.run.FailureCategory;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The trigger and run-checker outputs as the state machine reads them (statemachine/CONTRACT.md §5). */
class TriggerJsonTest {

    @Test
    void resultsSerialiseWithWireNamesAndWithoutNulls() throws Exception {
        assertThat(InterlockJson.json().writeValueAsString(TriggerResult.running(Map.of("glue_job_run_id", "jr_1"))))
                .isEqualTo("{\"status\":\"running\",\"metadata\":{\"glue_job_run_id\":\"jr_1\"}}");
        assertThat(InterlockJson.json().writeValueAsString(TriggerResult.failed("boom", FailureCategory.PERMANENT)))
                .isEqualTo(
                        "{\"status\":\"failed\",\"metadata\":{},\"error\":\"boom\",\"failureCategory\":\"PERMANENT\"}");
        assertThat(InterlockJson.json().writeValueAsString(RunCheck.running("RUNNING")))
                .isEqualTo("{\"state\":\"running\",\"message\":\"RUNNING\"}");
        assertThat(InterlockJson.json().writeValueAsString(RunCheck.failed("TIMEOUT", FailureCategory.TIMEOUT)))
                .isEqualTo("{\"state\":\"failed\",\"message\":\"TIMEOUT\",\"failureCategory\":\"TIMEOUT\"}");
    }

    @Test
    void aFailedResultAlwaysCarriesACategory() {
        assertThat(new TriggerResult(TriggerStatus.FAILED, null, "x", null).failureCategory())
                .isEqualTo(FailureCategory.TRANSIENT);
        assertThat(new RunCheck(RunCheckState.FAILED, "x", null).failureCategory())
                .isEqualTo(FailureCategory.TRANSIENT);
    }

    @Test
    void aTriggerRequestReadsItsTypedTrigger() {
        TriggerRequest request = InterlockJson.read(
                "{\"pipelineId\":\"orders\",\"scheduleId\":\"h07\",\"date\":\"2026-03-01\","
                        + "\"runId\":\"r1\",\"trigger\":{\"type\":\"glue\",\"jobName\":\"etl\",\"arguments\":{\"--hour\":\"07\"}}}",
                TriggerRequest.class);
        assertThat(request.trigger())
                .isEqualTo(new dev.interlock.model.trigger.GlueTrigger("etl", Map.of("--hour", "07")));
        assertThat(request.scheduleId()).isEqualTo("h07");
    }

    @Test
    void requestsReadFromTheirJsonShape() {
        RunCheckRequest request = InterlockJson.read(
                "{\"pipelineID\":\"orders\",\"runId\":\"r1\",\"triggerType\":\"emr-serverless\","
                        + "\"metadata\":{\"emr_sl_application_id\":\"a\"},\"unknown\":1}",
                RunCheckRequest.class);
        assertThat(request.pipelineId()).isEqualTo("orders");
        assertThat(request.triggerType().wireName()).isEqualTo("emr-serverless");
        assertThat(request.metadata()).containsExactly(Map.entry("emr_sl_application_id", "a"));
        assertThat(request.headers()).isEmpty();
    }
}
