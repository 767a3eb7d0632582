package dev.interlock.local.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.local.aws.AwsJson;
import dev.interlock.model.trigger.JobStateRule;
import dev.interlock.statemachine.engine.EngineClock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Amazon EMR's step API on the local runtime (JSON 1.1, {@code ElasticMapReduce.*}): {@code AddJobFlowSteps},
 * {@code DescribeStep}, {@code ListSteps} and {@code CancelSteps} run job fakes on any cluster id, and each step's
 * start and end are published as {@code EMR Step Status Change} events. Steps are journaled ({@link FakeRunJournal}),
 * so they outlive a restart.
 */
public final class EmrSteps implements AwsJson.Service {

    private static final String ID_CHARACTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

    private record Step(
            String clusterId, String name, String jar, List<String> args, String actionOnFailure, FakeRun fake) {}

    private final EngineClock clock;
    private final JobEvents events;
    private final Map<String, Step> steps = new ConcurrentHashMap<>();
    private final FakeRunJournal journal;
    private final StartHolds holds;
    private Runnable resumption;

    EmrSteps(EngineClock clock, JobEvents events, FakeRunJournal journal, StartHolds holds) {
        this.clock = clock;
        this.events = events;
        this.journal = journal;
        this.holds = holds;
        this.resumption = restore();
    }

    /** Reads the journaled runs back (at construction: the API answers for them from its first call). */
    private Runnable restore() {
        return journal.restore(
                clock,
                (restored, fake) -> {
                    JsonNode r = restored.record();
                    List<String> args = new ArrayList<>();
                    r.path("args").forEach(a -> args.add(a.asText()));
                    Step step = new Step(
                            r.path("clusterId").asText(),
                            r.hasNonNull("name") ? r.get("name").asText() : null,
                            r.hasNonNull("jar") ? r.get("jar").asText() : null,
                            List.copyOf(args),
                            r.path("actionOnFailure").asText("CONTINUE"),
                            fake);
                    steps.put(restored.id(), step);
                    return step;
                },
                Step::fake,
                this::ended);
    }

    /**
     * Lets the restored runs go on once the event bus and the executions are up: a running one ends at its due time, an
     * unpublished end is published now.
     */
    void resume() {
        Runnable goOn = resumption;
        resumption = () -> {};
        goOn.run();
    }

    private void ended(Step step) {
        publish(step);
        journal.endPublished(step.fake());
    }

    @Override
    public String targetPrefix() {
        return "ElasticMapReduce.";
    }

    @Override
    public String contentType() {
        return AwsJson.JSON_1_1;
    }

    @Override
    public Object call(String operation, JsonNode request) {
        return switch (operation) {
            case "AddJobFlowSteps" -> add(request);
            case "DescribeStep" ->
                Map.of(
                        "Step",
                        describe(find(AwsJson.required(request, "ClusterId"), AwsJson.required(request, "StepId"))));
            case "ListSteps" -> list(request);
            case "CancelSteps" -> cancel(request);
            default ->
                throw AwsJson.Failure.of(
                        "UnknownOperationException",
                        "operation " + operation + " is not supported by the local EMR job fakes");
        };
    }

    private Map<String, Object> add(JsonNode request) {
        String clusterId = AwsJson.required(request, "JobFlowId");
        holds.beforeAccepting(clusterId);
        List<Step> added = new ArrayList<>();
        int index = 0;
        for (JsonNode config : request.path("Steps")) {
            List<String> args = new ArrayList<>();
            config.path("HadoopJarStep").path("Args").forEach(a -> args.add(a.asText()));
            FakeJob fake;
            try {
                fake = FakeJob.fromArgs(args);
            } catch (IllegalArgumentException e) {
                throw AwsJson.Failure.of(
                        "ValidationException", "Steps[" + index + "].HadoopJarStep.Args: " + e.getMessage());
            }
            String id = "s-" + id(13);
            added.add(new Step(
                    clusterId,
                    AwsJson.text(config, "Name"),
                    AwsJson.text(config.path("HadoopJarStep"), "Jar"),
                    List.copyOf(args),
                    config.path("ActionOnFailure").asText("CONTINUE"),
                    FakeRun.create(clock, id, fake)));
            index++;
        }
        List<String> ids = new ArrayList<>();
        for (Step step : added) {
            ObjectNode record = AwsJson.JSON
                    .createObjectNode()
                    .put("clusterId", step.clusterId())
                    .put("name", step.name())
                    .put("jar", step.jar())
                    .put("actionOnFailure", step.actionOnFailure());
            step.args().forEach(record.putArray("args")::add);
            journal.started(step.fake(), record);
            steps.put(step.fake().id(), step);
            ids.add(step.fake().id());
            publish(step);
            step.fake().begin(clock, ended -> ended(step));
        }
        holds.afterAccepting(clusterId);
        return Map.of("StepIds", ids);
    }

    /** ListSteps: the cluster's steps, newest first, optionally only those in {@code StepStates} (one page). */
    private Map<String, Object> list(JsonNode request) {
        String clusterId = AwsJson.required(request, "ClusterId");
        List<String> states = new ArrayList<>();
        request.path("StepStates").forEach(s -> states.add(s.asText()));
        var now = clock.now();
        List<Map<String, Object>> out = steps.values().stream()
                .filter(s -> s.clusterId().equals(clusterId))
                .filter(s -> states.isEmpty() || states.contains(state(s.fake().phase(now))))
                .sorted((a, b) -> b.fake().startedAt().compareTo(a.fake().startedAt()))
                .map(this::describe)
                .toList();
        return Map.of("Steps", out);
    }

    private Step find(String clusterId, String stepId) {
        Step step = steps.get(stepId);
        if (step == null || !step.clusterId().equals(clusterId)) {
            throw AwsJson.Failure.of(
                    "InvalidRequestException", "Step id '" + stepId + "' is not valid for cluster " + clusterId);
        }
        return step;
    }

    private Map<String, Object> describe(Step step) {
        FakeRun fake = step.fake();
        var now = clock.now();
        FakeRun.Phase phase = fake.phase(now);
        Map<String, Object> timeline = new LinkedHashMap<>();
        timeline.put("CreationDateTime", fake.startedAt());
        timeline.put("StartDateTime", fake.startedAt());
        if (fake.ended(now)) {
            timeline.put("EndDateTime", fake.endsAt());
        }
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("State", state(phase));
        status.put("StateChangeReason", Map.of());
        if (phase == FakeRun.Phase.FAILED) {
            status.put("FailureDetails", Map.of("Reason", "Fake step failure", "Message", fake.failureMessage()));
        }
        status.put("Timeline", timeline);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("Id", fake.id());
        out.put("Name", step.name());
        out.put(
                "Config",
                Map.of("Jar", step.jar() == null ? "" : step.jar(), "Args", step.args(), "Properties", Map.of()));
        out.put("ActionOnFailure", step.actionOnFailure());
        out.put("Status", status);
        return out;
    }

    private Map<String, Object> cancel(JsonNode request) {
        String clusterId = AwsJson.required(request, "ClusterId");
        List<Map<String, Object>> infos = new ArrayList<>();
        for (JsonNode id : request.path("StepIds")) {
            Step step = steps.get(id.asText());
            if (step == null || !step.clusterId().equals(clusterId)) {
                infos.add(Map.of(
                        "StepId", id.asText(), "Status", "FAILED", "Reason", "step not found on cluster " + clusterId));
            } else if (step.fake().stop(clock.now())) {
                journal.stopped(step.fake(), step.fake().endsAt());
                infos.add(Map.of("StepId", id.asText(), "Status", "SUBMITTED", "Reason", ""));
                ended(step);
            } else {
                infos.add(Map.of("StepId", id.asText(), "Status", "FAILED", "Reason", "the step has ended"));
            }
        }
        return Map.of("CancelStepsInfoList", infos);
    }

    private void publish(Step step) {
        var now = clock.now();
        FakeRun.Phase phase = step.fake().phase(now);
        String state = state(phase);
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("severity", phase == FakeRun.Phase.FAILED ? "ERROR" : "INFO");
        detail.put("actionOnFailure", step.actionOnFailure());
        detail.put("stepId", step.fake().id());
        detail.put("name", step.name());
        detail.put("clusterId", step.clusterId());
        detail.put("state", state);
        detail.put(
                "message",
                "Step " + step.fake().id() + " (" + step.name() + ") in Amazon EMR cluster " + step.clusterId() + " is "
                        + state
                        + (phase == FakeRun.Phase.FAILED ? ": " + step.fake().failureMessage() : "") + ".");
        events.publish(
                JobStateRule.EMR_STEP,
                List.of(),
                detail,
                phase == FakeRun.Phase.RUNNING
                        ? step.fake().startedAt()
                        : step.fake().endsAt());
    }

    private static String state(FakeRun.Phase phase) {
        return switch (phase) {
            case RUNNING -> "RUNNING";
            case SUCCEEDED -> "COMPLETED";
            case FAILED -> "FAILED";
            case STOPPED -> "CANCELLED";
        };
    }

    private static String id(int length) {
        StringBuilder id = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            id.append(ID_CHARACTERS.charAt(ThreadLocalRandom.current().nextInt(ID_CHARACTERS.length())));
        }
        return id.toString();
    }
}
