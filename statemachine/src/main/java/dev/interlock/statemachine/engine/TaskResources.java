package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Maps Task {@code Resource} strings to {@link TaskResource}s: exact resource ARNs (e.g.
 * {@value #SNS_PUBLISH}), Lambda functions called directly by ARN, and {@value #LAMBDA_INVOKE} whose
 * {@code FunctionName} parameter (name, ARN or partial ARN) picks a registered function.
 */
public final class TaskResources {

    public static final String LAMBDA_INVOKE = "arn:aws:states:::lambda:invoke";
    public static final String SNS_PUBLISH = "arn:aws:states:::sns:publish";
    /** The callback pattern: the task passes {@code $$.Task.Token} and waits for SendTaskSuccess/Failure. */
    public static final String WAIT_FOR_TASK_TOKEN = ".waitForTaskToken";

    private final Map<String, TaskResource> resources;
    private final Map<String, TaskResource> functions;

    private TaskResources(Map<String, TaskResource> resources, Map<String, TaskResource> functions) {
        this.resources = Map.copyOf(resources);
        this.functions = Map.copyOf(functions);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** No resources: every Task fails. Useful for machines made of Pass/Choice/Wait only. */
    public static TaskResources none() {
        return builder().build();
    }

    /** The call a Task state makes, resolved; empty when nothing is registered for it. */
    Optional<ResolvedTask> resolve(String resource, JsonNode parameters) {
        if (resource != null && resource.startsWith("arn:aws:states:::") && resource.endsWith(WAIT_FOR_TASK_TOKEN)) {
            return resolve(resource.substring(0, resource.length() - WAIT_FOR_TASK_TOKEN.length()), parameters)
                    .map(ResolvedTask::waitingForTaskToken);
        }
        if (LAMBDA_INVOKE.equals(resource)) {
            JsonNode name = parameters == null ? null : parameters.get("FunctionName");
            if (name == null || !name.isTextual()) {
                return Optional.empty();
            }
            return function(name.asText())
                    .map(f -> new ResolvedTask("lambda", "invoke", name.asText(), f, true, false));
        }
        TaskResource exact = resources.get(resource);
        if (exact != null) {
            String[] typeAndName = typeAndName(resource);
            return Optional.of(new ResolvedTask(typeAndName[0], typeAndName[1], resource, exact, false, false));
        }
        if (resource != null && resource.startsWith("arn:aws:lambda:")) {
            return function(resource).map(f -> new ResolvedTask("lambda", resource, resource, f, false, false));
        }
        return Optional.empty();
    }

    private Optional<TaskResource> function(String nameOrArn) {
        TaskResource exact = functions.get(nameOrArn);
        if (exact != null) {
            return Optional.of(exact);
        }
        return Optional.ofNullable(functions.get(functionName(nameOrArn)));
    }

    /** {@code my-fn}, {@code my-fn:alias}, {@code 123:function:my-fn} and full ARNs all name {@code my-fn}. */
    static String functionName(String nameOrArn) {
        String name = nameOrArn;
        int marker = name.indexOf("function:");
        if (marker >= 0) {
            name = name.substring(marker + "function:".length());
        }
        int colon = name.indexOf(':');
        return colon >= 0 ? name.substring(0, colon) : name;
    }

    /** {@code arn:aws:states:::sns:publish} → ("sns", "publish"), as GetExecutionHistory reports it. */
    private static String[] typeAndName(String resource) {
        String prefix = "arn:aws:states:::";
        if (resource.startsWith(prefix)) {
            String rest = resource.substring(prefix.length());
            int colon = rest.indexOf(':');
            if (colon > 0) {
                return new String[] {rest.substring(0, colon), rest.substring(colon + 1)};
            }
        }
        return new String[] {"custom", resource};
    }

    /**
     * A Task's call target and how to shape its result. {@code waitForTaskToken}: the call only hands the token
     * over; the task's result is what SendTaskSuccess sends.
     */
    record ResolvedTask(
            String resourceType,
            String resourceName,
            String target,
            TaskResource invoker,
            boolean lambdaIntegration,
            boolean waitForTaskToken) {

        ResolvedTask waitingForTaskToken() {
            return new ResolvedTask(
                    resourceType, resourceName + WAIT_FOR_TASK_TOKEN, target, invoker, lambdaIntegration, true);
        }

        /** A Lambda function named directly as the Resource (not through the lambda:invoke integration). */
        boolean directLambda() {
            return !lambdaIntegration && target.startsWith("arn:aws:lambda:");
        }

        /** What the resource receives: lambda:invoke passes only {@code Payload}. */
        JsonNode payload(JsonNode parameters) {
            if (!lambdaIntegration) {
                return parameters;
            }
            JsonNode payload = parameters.get("Payload");
            return payload == null ? JsonNodeFactory.instance.objectNode() : payload;
        }

        /** lambda:invoke wraps the function's result the way the service integration does. */
        JsonNode result(JsonNode output) {
            if (!lambdaIntegration) {
                return output;
            }
            ObjectNode wrapped = JsonNodeFactory.instance.objectNode();
            wrapped.put("ExecutedVersion", "$LATEST");
            wrapped.set("Payload", output);
            wrapped.put("StatusCode", 200);
            return wrapped;
        }
    }

    /** Collects registrations; later registrations of the same key replace earlier ones. */
    public static final class Builder {
        private final Map<String, TaskResource> resources = new LinkedHashMap<>();
        private final Map<String, TaskResource> functions = new LinkedHashMap<>();

        /** A Lambda function, by name or ARN; reachable through lambda:invoke and as a direct Resource ARN. */
        public Builder function(String nameOrArn, TaskResource function) {
            functions.put(nameOrArn, function);
            functions.put(functionName(nameOrArn), function);
            return this;
        }

        /** Any other resource, matched exactly (e.g. {@link #SNS_PUBLISH}). */
        public Builder resource(String resourceArn, TaskResource resource) {
            resources.put(resourceArn, resource);
            return this;
        }

        public TaskResources build() {
            return new TaskResources(resources, functions);
        }
    }
}
