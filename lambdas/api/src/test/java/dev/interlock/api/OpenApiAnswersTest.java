package dev.interlock.api;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The check every test's answers go through refuses what openapi.yaml does not document, naming where. */
class OpenApiAnswersTest {

    private static final String PAUSE =
            "{\"pipelineId\":\"silver\",\"reason\":\"maintenance\",\"pausedBy\":\"api\",\"pausedAt\":\"%s\"}";

    private final OpenApiAnswers document = OpenApiAnswers.document();

    @Test
    void aDocumentedAnswerPasses() {
        assertThatCode(() -> document.check(
                        "POST",
                        "/pipelines/silver/pause",
                        200,
                        "application/json",
                        PAUSE.formatted("2026-03-10T09:00:00.000Z")))
                .doesNotThrowAnyException();
    }

    @Test
    void aBodyThatDoesNotMatchTheSchemaNamesTheOperationStatusAndJsonPath() {
        assertThatThrownBy(() -> document.check(
                        "POST", "/pipelines/silver/pause", 200, "application/json", PAUSE.formatted("yesterday")))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("POST /pipelines/{id}/pause -> 200")
                .hasMessageContaining("$.pausedAt");
        assertThatThrownBy(() -> document.check(
                        "POST", "/pipelines/silver/pause", 200, "application/json", "{\"pipelineId\":\"silver\"}"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("reason");
    }

    @Test
    void anUndocumentedStatusOrMediaTypeFails() {
        assertThatThrownBy(() -> document.check("GET", "/pauses", 418, "application/json", "{}"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("GET /pauses answered 418, which openapi.yaml does not document");
        assertThatThrownBy(() -> document.check(
                        "POST", "/pipelines/silver/pause", 200, "text/html", PAUSE.formatted("2026-03-10T09:00:00Z")))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Content-Type 'text/html'");
    }

    @Test
    void pathsMatchTheMostLiteralTemplateAndUnknownRoutesMayOnlyBeRefused() {
        String problem = "{\"type\":\"urn:interlock:problem:not-found\",\"title\":\"Not found\",\"status\":404,"
                + "\"detail\":\"no resource at /nowhere\",\"errors\":[]}";
        assertThatCode(() -> document.check("GET", "/nowhere", 404, "application/problem+json", problem))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> document.check("GET", "/nowhere", 200, "application/json", "{}"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("no documented operation");
        assertThatThrownBy(
                        () -> document.check("GET", "/pipelines/silver/status?date=x", 200, "application/json", "{}"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("GET /pipelines/{id}/status -> 200");
    }
}
