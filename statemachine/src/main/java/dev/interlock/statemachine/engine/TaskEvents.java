package dev.interlock.statemachine.engine;

import static dev.interlock.statemachine.engine.StepSupport.NOT_TRUNCATED;

import com.fasterxml.jackson.databind.JsonNode;

/** The history events of a Task call: Task* for service integrations, LambdaFunction* for function ARNs. */
sealed interface TaskEvents {

    /** The events of a call to {@code task} as it resolved. */
    static TaskEvents of(TaskResources.ResolvedTask task, String region) {
        return task.directLambda() ? new LambdaFunctionEvents(task) : new ServiceTaskEvents(task, region);
    }

    HistoryEventType scheduled();

    HistoryEventType started();

    HistoryEventType succeeded();

    HistoryEventType failed();

    HistoryEventType timedOut();

    EventDetails scheduledDetails(JsonNode parameters, Long timeout, Integer heartbeat);

    EventDetails startedDetails();

    EventDetails succeededDetails(JsonNode output);

    EventDetails errorDetails(String error, String cause);

    record ServiceTaskEvents(TaskResources.ResolvedTask task, String region) implements TaskEvents {
        public HistoryEventType scheduled() {
            return HistoryEventType.TaskScheduled;
        }

        public HistoryEventType started() {
            return HistoryEventType.TaskStarted;
        }

        public HistoryEventType succeeded() {
            return HistoryEventType.TaskSucceeded;
        }

        public HistoryEventType failed() {
            return HistoryEventType.TaskFailed;
        }

        public HistoryEventType timedOut() {
            return HistoryEventType.TaskTimedOut;
        }

        public EventDetails scheduledDetails(JsonNode parameters, Long timeout, Integer heartbeat) {
            return new EventDetails.TaskScheduled(
                    task.resourceType(),
                    task.resourceName(),
                    region,
                    parameters.toString(),
                    timeout,
                    heartbeat == null ? null : Long.valueOf(heartbeat));
        }

        public EventDetails startedDetails() {
            return new EventDetails.TaskStarted(task.resourceType(), task.resourceName());
        }

        public EventDetails succeededDetails(JsonNode output) {
            return new EventDetails.TaskSucceeded(
                    task.resourceType(), task.resourceName(), output.toString(), NOT_TRUNCATED);
        }

        public EventDetails errorDetails(String error, String cause) {
            return new EventDetails.TaskError(task.resourceType(), task.resourceName(), error, cause);
        }
    }

    record LambdaFunctionEvents(TaskResources.ResolvedTask task) implements TaskEvents {
        public HistoryEventType scheduled() {
            return HistoryEventType.LambdaFunctionScheduled;
        }

        public HistoryEventType started() {
            return HistoryEventType.LambdaFunctionStarted;
        }

        public HistoryEventType succeeded() {
            return HistoryEventType.LambdaFunctionSucceeded;
        }

        public HistoryEventType failed() {
            return HistoryEventType.LambdaFunctionFailed;
        }

        public HistoryEventType timedOut() {
            return HistoryEventType.LambdaFunctionTimedOut;
        }

        public EventDetails scheduledDetails(JsonNode parameters, Long timeout, Integer heartbeat) {
            return new EventDetails.LambdaFunctionScheduled(
                    task.target(), parameters.toString(), NOT_TRUNCATED, timeout);
        }

        public EventDetails startedDetails() {
            return null;
        }

        public EventDetails succeededDetails(JsonNode output) {
            return new EventDetails.LambdaFunctionSucceeded(output.toString(), NOT_TRUNCATED);
        }

        public EventDetails errorDetails(String error, String cause) {
            return new EventDetails.Failure(error, cause);
        }
    }
}
