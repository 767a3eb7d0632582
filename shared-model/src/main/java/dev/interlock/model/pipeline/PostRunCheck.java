package dev.interlock.model.pipeline;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.interlock.model.json.Frozen;
import java.util.Map;

/**
 * One post-run check of a pipeline ({@code postRun[i]}, docs/post-run-checks.md): a trait evaluated after the job
 * reported success and before the day is COMPLETED, with the same evaluators and config as a readiness trait.
 *
 * @param name      what the check is called (the trait type of its verdict; unique within {@code postRun})
 * @param evaluator the evaluator locator ({@code builtin:sensor-threshold}, a Lambda, an HTTP URL or path)
 * @param config    the evaluator's config; {@code date} and {@code scheduleId} are injected as for a readiness trait
 * @param timeout   the evaluator's timeout in seconds (0: the default)
 * @param headers   an HTTP evaluator's header templates
 * @param required  whether a check that does not pass fails the run ({@code VERIFICATION}); default true. An optional
 *                  one that fails is recorded and shown, never failing the day
 */
public record PostRunCheck(
        String name,
        String evaluator,
        Map<String, Object> config,
        int timeout,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> headers,
        boolean required) {

    public PostRunCheck {
        config = Frozen.map(config);
        headers = Frozen.map(headers);
    }

    @JsonCreator
    static PostRunCheck fromJson(
            @JsonProperty("name") String name,
            @JsonProperty("evaluator") String evaluator,
            @JsonProperty("config") Map<String, Object> config,
            @JsonProperty("timeout") Integer timeout,
            @JsonProperty("headers") Map<String, String> headers,
            @JsonProperty("required") Boolean required) {
        return new PostRunCheck(
                name, evaluator, config, timeout == null ? 0 : timeout, headers, required == null || required);
    }
}
