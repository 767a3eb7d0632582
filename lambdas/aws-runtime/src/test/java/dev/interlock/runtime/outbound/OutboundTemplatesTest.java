package dev.interlock.runtime.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.trigger.TemplateValues;
import dev.interlock.testing.TestTemplates;
import java.net.URI;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OutboundTemplatesTest {

    private static final TemplateValues RUN = new TemplateValues("orders", "h07", LocalDate.of(2026, 3, 1), "run-1");
    private static final URI AIRFLOW = URI.create("https://airflow.example.com/api/v1/dags/d/dagRuns");

    private final OutboundTemplates templates = TestTemplates.of(Map.of(
            "INTERLOCK_AIRFLOW_TOKEN",
            "af-token-value",
            "INTERLOCK_SHORT",
            "abc",
            "INTERLOCK_SECRET_HOSTS",
            "INTERLOCK_AIRFLOW_*=airflow.example.com;INTERLOCK_SHORT=airflow.example.com"));

    @Test
    void headersAreRenderedForTheirTargetAndRestrictTheRequestToHostsAllowedForWhatTheyCarry() throws Exception {
        OutboundTemplates.Rendering rendering = templates.rendering(RUN);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", "Bearer ${INTERLOCK_AIRFLOW_TOKEN}");
        headers.put("X-Hour", "${hour}");

        assertThat(rendering.headers(headers, AIRFLOW))
                .containsExactly(Map.entry("Authorization", "Bearer af-token-value"), Map.entry("X-Hour", "07"));
        assertThat(rendering.hosts().refusal("airflow.example.com")).isEmpty();
        assertThat(rendering.hosts().refusal("evil.example.com"))
                .contains("${INTERLOCK_AIRFLOW_TOKEN} may not be sent to "
                        + "host 'evil.example.com': INTERLOCK_SECRET_HOSTS allows it only to airflow.example.com");
        // A rendering that carries no credential may go anywhere the URL guard accepts.
        OutboundTemplates.Rendering plain = templates.rendering(RUN);
        plain.headers(Map.of("X-Hour", "${hour}"), AIRFLOW);
        assertThat(plain.hosts().refusal("evil.example.com")).isEmpty();
    }

    @Test
    void aCredentialForAnotherHostIsRefusedBeforeItIsRead() {
        assertThatThrownBy(() -> templates
                        .rendering(RUN)
                        .text("${INTERLOCK_AIRFLOW_TOKEN}", URI.create("https://collector.example.net/x"), "body"))
                .isInstanceOf(OutboundException.Refused.class)
                .hasMessage("${INTERLOCK_AIRFLOW_TOKEN} may not be sent to host 'collector.example.net': "
                        + "INTERLOCK_SECRET_HOSTS allows it only to airflow.example.com");
    }

    @Test
    void aUrlTakesExecutionValuesOnly() throws Exception {
        OutboundTemplates.Rendering rendering = templates.rendering(RUN);
        assertThat(rendering.plain("https://jobs.example.com/${date}/${hour}", "url"))
                .isEqualTo("https://jobs.example.com/2026-03-01/07");
        assertThatThrownBy(() -> rendering.plain("https://jobs.example.com/?k=${INTERLOCK_AIRFLOW_TOKEN}", "url"))
                .isInstanceOf(OutboundException.Refused.class)
                .hasMessage("url: ${INTERLOCK_AIRFLOW_TOKEN}: credentials may only be sent in headers and bodies");
    }

    @Test
    void messagesAreScrubbedOfTheValuesRenderedLongestFirstButNotOfTrivialOnes() throws Exception {
        OutboundTemplates.Rendering rendering = templates.rendering(RUN);
        rendering.text("${INTERLOCK_AIRFLOW_TOKEN} ${INTERLOCK_SHORT}", AIRFLOW, "body");
        assertThat(rendering.scrub("401: bad token af-token-value (abc)")).isEqualTo("401: bad token *** (abc)");
        assertThat(templates.rendering(RUN).scrub("af-token-value")).isEqualTo("af-token-value");
    }

    @Test
    void theFunctionsOwnSettingsAreNeverSent() {
        OutboundTemplates permissive = TestTemplates.of(Map.of("INTERLOCK_SECRET_HOSTS", "*=*"));
        assertThatThrownBy(() -> permissive.rendering(RUN).text("${INTERLOCK_SECRET_HOSTS}", AIRFLOW, "body"))
                .isInstanceOf(OutboundException.CredentialUnavailable.class)
                .hasMessage("${INTERLOCK_SECRET_HOSTS}: INTERLOCK_SECRET_HOSTS is a setting of the functions, not a "
                        + "credential to send");
    }
}
