package dev.interlock.local.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.aws.AwsJson;
import dev.interlock.statemachine.engine.EngineClock;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Lambda functions other than Interlock's own, on the local runtime: the local Invoke API hands any other function
 * name to these job fakes, which answer after the fake's duration with the fake's outcome (a failure is an unhandled
 * function error, as a function that raised). Lambda publishes no job-state events.
 */
public final class LambdaJobs {

    /** An invocation's answer: the payload, and the function error type when it failed. */
    public record Answer(String payload, String functionError) {}

    private final EngineClock clock;

    LambdaJobs(EngineClock clock) {
        this.clock = clock;
    }

    /**
     * Runs function {@code name} on {@code payload}, blocking for the fake's duration (engine time). Bad fake arguments
     * are answered as the function's own error, like a function that validates its input.
     */
    public Answer invoke(String name, byte[] payload) throws InterruptedException {
        JsonNode input;
        try {
            input = payload.length == 0 ? AwsJson.JSON.createObjectNode() : AwsJson.JSON.readTree(payload);
        } catch (IOException e) {
            input = AwsJson.JSON.createObjectNode();
        }
        FakeJob fake;
        try {
            fake = FakeJob.fromJson(input);
        } catch (IllegalArgumentException e) {
            return failed("FakeJobArgumentsInvalid", "payload: " + e.getMessage());
        }
        FakeRun run = FakeRun.create(clock, name + "-" + UUID.randomUUID(), fake);
        clock.newGate().await(run.endsAt());
        if (fake.outcome() == FakeJob.Outcome.FAILED) {
            return failed("FakeJobFailed", run.failureMessage());
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("function", name);
        out.put("outcome", fake.outcome().name());
        out.put("durationSeconds", fake.duration().toMillis() / 1000.0);
        return new Answer(write(out), null);
    }

    private static Answer failed(String type, String message) {
        return new Answer(write(Map.of("errorType", type, "errorMessage", message)), "Unhandled");
    }

    private static String write(Object value) {
        try {
            return AwsJson.JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
