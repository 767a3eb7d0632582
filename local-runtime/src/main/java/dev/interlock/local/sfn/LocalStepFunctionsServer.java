package dev.interlock.local.sfn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import dev.interlock.local.aws.AwsJson;
import dev.interlock.local.http.LoopbackHttpServer;
import dev.interlock.local.jobs.StepFunctionsJobs;
import dev.interlock.statemachine.engine.ExecutionStatus;
import dev.interlock.statemachine.engine.Page;
import dev.interlock.statemachine.engine.StateMachine;
import dev.interlock.statemachine.engine.StepFunctionsException;
import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The local Step Functions service over HTTP on 127.0.0.1, speaking the AWS JSON 1.0 protocol
 * ({@code X-Amz-Target: AWSStepFunctions.<Operation>}), so the real SDK client in the stream router and the AWS CLI
 * with {@code --endpoint-url} work unchanged. Operations: StartExecution, DescribeExecution, ListExecutions,
 * GetExecutionHistory, StopExecution, and DescribeStateMachine / ListStateMachines for discovery. Executions of any
 * other state machine are job fakes ({@link StepFunctionsJobs}) when the runtime serves them. Errors carry AWS's codes
 * and messages (a client never sees one of our class names); LocalEndpointsConformanceTest compares every operation's
 * answers with an independent emulator's.
 */
public final class LocalStepFunctionsServer implements AutoCloseable {

    private static final String TARGET_PREFIX = "AWSStepFunctions.";
    private static final ObjectMapper JSON = AwsJson.JSON;

    private LoopbackHttpServer server;
    private final Map<String, StateMachine> machines = new LinkedHashMap<>();
    private final StepFunctionsJobs jobs;
    private final java.time.Instant startedAt = java.time.Instant.now();

    private LocalStepFunctionsServer(StepFunctionsJobs jobs) {
        this.jobs = jobs;
    }

    public static LocalStepFunctionsServer start(int port, StateMachine... machines) throws IOException {
        return start(port, null, machines);
    }

    /** Serves {@code machines}; executions of any other state machine are {@code jobs} (null: they do not exist). */
    public static LocalStepFunctionsServer start(int port, StepFunctionsJobs jobs, StateMachine... machines)
            throws IOException {
        LocalStepFunctionsServer s = new LocalStepFunctionsServer(jobs);
        for (StateMachine m : machines) {
            s.machines.put(m.arn(), m);
        }
        s.server = LoopbackHttpServer.start(port, s::handle);
        return s;
    }

    public int port() {
        return server.port();
    }

    public URI endpoint() {
        return server.endpoint();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
            if (!"POST".equals(exchange.getRequestMethod()) || target == null || !target.startsWith(TARGET_PREFIX)) {
                error(
                        exchange,
                        400,
                        "UnknownOperationException",
                        "expected POST with X-Amz-Target AWSStepFunctions.<Operation>");
                return;
            }
            JsonNode request;
            try {
                byte[] body = exchange.getRequestBody().readAllBytes();
                request = body.length == 0 ? JSON.createObjectNode() : JSON.readTree(body);
            } catch (IOException e) {
                error(exchange, 400, "SerializationException", "request body is not JSON");
                return;
            }
            try {
                Object result = dispatch(target.substring(TARGET_PREFIX.length()), request);
                byte[] out = JSON.writeValueAsBytes(result);
                exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.0");
                exchange.sendResponseHeaders(200, out.length);
                exchange.getResponseBody().write(out);
            } catch (StepFunctionsException e) {
                error(exchange, 400, e.code().name(), e.getMessage());
            } catch (UnknownMachine e) {
                error(exchange, 400, "StateMachineDoesNotExist", e.getMessage());
            } catch (ValidationFailed e) {
                error(exchange, 400, "ValidationException", e.getMessage());
            } catch (UnknownOperation e) {
                error(exchange, 400, "UnknownOperationException", e.getMessage());
            } catch (RuntimeException e) {
                // A client sees AWS's opaque internal error, never a class name; the runtime's log has the cause.
                System.err.println("local Step Functions: " + target + " failed: " + e);
                error(
                        exchange,
                        500,
                        "InternalFailure",
                        "The request processing has failed because of an unknown error.");
            }
        }
    }

    private Object dispatch(String operation, JsonNode r) {
        return switch (operation) {
            case "StartExecution" ->
                isJob(required(r, "stateMachineArn"))
                        ? jobs.start(required(r, "stateMachineArn"), text(r, "name"), text(r, "input"))
                        : machine(required(r, "stateMachineArn")).startExecution(text(r, "name"), text(r, "input"));
            case "DescribeExecution" ->
                isJobExecution(required(r, "executionArn"))
                        ? jobs.describe(required(r, "executionArn"))
                        : machineOfExecution(required(r, "executionArn"))
                                .describeExecution(required(r, "executionArn"));
            case "ListExecutions" -> {
                if (isJob(required(r, "stateMachineArn"))) {
                    List<Map<String, Object>> listed = jobs.list(required(r, "stateMachineArn"));
                    if (listed.isEmpty()) {
                        // No job was ever started there: as far as this account knows, it does not exist.
                        throw new UnknownMachine(
                                "State Machine Does Not Exist: '" + required(r, "stateMachineArn") + "'");
                    }
                    yield Map.of("executions", listed);
                }
                StateMachine m = machine(required(r, "stateMachineArn"));
                Page<?> page = m.listExecutions(statusFilter(r), maxResults(r), text(r, "nextToken"));
                yield page("executions", page);
            }
            case "GetExecutionHistory" -> {
                String arn = required(r, "executionArn");
                Page<?> page = machineOfExecution(arn)
                        .getExecutionHistory(
                                arn, maxResults(r), r.path("reverseOrder").asBoolean(false), text(r, "nextToken"));
                ObjectNode out = page("events", page);
                if (!r.path("includeExecutionData").asBoolean(true)) {
                    out.get("events").forEach(LocalStepFunctionsServer::withoutExecutionData);
                }
                yield out;
            }
            case "StopExecution" ->
                isJobExecution(required(r, "executionArn"))
                        ? jobs.stop(required(r, "executionArn"), text(r, "error"), text(r, "cause"))
                        : machineOfExecution(required(r, "executionArn"))
                                .stopExecution(required(r, "executionArn"), text(r, "error"), text(r, "cause"));
            case "SendTaskSuccess" -> {
                machineWaitingFor(required(r, "taskToken"))
                        .sendTaskSuccess(required(r, "taskToken"), required(r, "output"));
                yield Map.of();
            }
            case "SendTaskFailure" -> {
                machineWaitingFor(required(r, "taskToken"))
                        .sendTaskFailure(required(r, "taskToken"), text(r, "error"), text(r, "cause"));
                yield Map.of();
            }
            case "SendTaskHeartbeat" -> {
                machineWaitingFor(required(r, "taskToken")).sendTaskHeartbeat(required(r, "taskToken"));
                yield Map.of();
            }
            case "DescribeStateMachine" -> {
                StateMachine m = machine(required(r, "stateMachineArn"));
                ObjectNode out = JSON.createObjectNode();
                out.put("stateMachineArn", m.arn());
                out.put("name", m.name());
                out.put("status", "ACTIVE");
                out.put("definition", m.source());
                out.put("roleArn", m.roleArn());
                out.put("type", "STANDARD");
                out.set("creationDate", JSON.valueToTree(startedAt));
                // What a machine deployed without logging, tracing or a customer key reports.
                out.putObject("loggingConfiguration").put("level", "OFF");
                out.putObject("tracingConfiguration").put("enabled", false);
                out.putObject("encryptionConfiguration").put("type", "AWS_OWNED_KEY");
                yield out;
            }
            case "ListStateMachines" ->
                Map.of(
                        "stateMachines",
                        machines.values().stream()
                                .map(m -> Map.of(
                                        "stateMachineArn",
                                        m.arn(),
                                        "name",
                                        m.name(),
                                        "type",
                                        "STANDARD",
                                        "creationDate",
                                        startedAt))
                                .toList());
            default -> throw new UnknownOperation(operation);
        };
    }

    /** An event's input and output, dropped as AWS drops them when the caller asks for no execution data. */
    private static void withoutExecutionData(JsonNode event) {
        event.forEach(details -> {
            if (details instanceof ObjectNode d) {
                d.remove(java.util.List.of("input", "output", "inputDetails", "outputDetails"));
            }
        });
    }

    private static ExecutionStatus statusFilter(JsonNode r) {
        String filter = text(r, "statusFilter");
        if (filter == null) {
            return null;
        }
        try {
            return ExecutionStatus.valueOf(filter);
        } catch (IllegalArgumentException e) {
            throw new ValidationFailed("1 validation error detected: Value '" + filter
                    + "' at 'statusFilter' failed to satisfy" + " constraint: Member must satisfy enum value set: "
                    + java.util.Arrays.toString(ExecutionStatus.values()));
        }
    }

    private static int maxResults(JsonNode r) {
        JsonNode n = r.get("maxResults");
        if (n == null || n.isNull()) {
            return 0;
        }
        if (!n.canConvertToInt() || n.asInt() < 0 || n.asInt() > Page.MAX_SIZE) {
            throw new ValidationFailed("1 validation error detected: Value '" + n.asText()
                    + "' at 'maxResults' failed to" + " satisfy constraint: Member must have value "
                    + (n.asInt() < 0 ? "greater than or equal to 0" : "less than or equal to " + Page.MAX_SIZE));
        }
        return n.asInt();
    }

    /** A state machine this service does not run: a job fake's, when job fakes are served. */
    private boolean isJob(String stateMachineArn) {
        return jobs != null && !machines.containsKey(stateMachineArn);
    }

    private boolean isJobExecution(String executionArn) {
        return jobs != null && jobs.knows(executionArn);
    }

    private static ObjectNode page(String field, Page<?> page) {
        ObjectNode out = JSON.createObjectNode();
        out.set(field, JSON.valueToTree(page.items()));
        if (page.nextToken() != null) {
            out.put("nextToken", page.nextToken());
        }
        return out;
    }

    private StateMachine machine(String arn) {
        String[] parts = arn.split(":", -1);
        if (parts.length != 7
                || !"arn".equals(parts[0])
                || !"states".equals(parts[2])
                || !"stateMachine".equals(parts[5])) {
            throw new StepFunctionsException(
                    StepFunctionsException.Code.InvalidArn,
                    "Invalid Arn: 'Resource type not valid in this context: " + arn + "'");
        }
        StateMachine m = machines.get(arn);
        if (m == null) {
            throw new UnknownMachine("State Machine Does Not Exist: '" + arn + "'");
        }
        return m;
    }

    /** The machine whose callback task waits under {@code taskToken}; a token nobody waits for is refused. */
    private StateMachine machineWaitingFor(String taskToken) {
        return machines.values().stream()
                .filter(m -> m.waitsFor(taskToken))
                .findFirst()
                .orElseThrow(() -> new StepFunctionsException(
                        StepFunctionsException.Code.TaskDoesNotExist,
                        "Task does not exist anymore (unknown or closed task token)"));
    }

    private StateMachine machineOfExecution(String executionArn) {
        // arn:aws:states:<region>:<account>:execution:<machine>:<name>
        String[] parts = executionArn.split(":");
        if (parts.length != 8 || !"execution".equals(parts[5])) {
            throw new StepFunctionsException(
                    StepFunctionsException.Code.InvalidArn, "Invalid Arn: '" + executionArn + "'");
        }
        String machineArn =
                String.join(":", parts[0], parts[1], parts[2], parts[3], parts[4], "stateMachine", parts[6]);
        StateMachine m = machines.get(machineArn);
        if (m == null) {
            throw new StepFunctionsException(
                    StepFunctionsException.Code.ExecutionDoesNotExist,
                    "Execution Does Not Exist: '" + executionArn + "'");
        }
        return m;
    }

    private static String required(JsonNode r, String field) {
        try {
            return AwsJson.required(r, field);
        } catch (AwsJson.Failure f) {
            throw new ValidationFailed(f.getMessage());
        }
    }

    private static String text(JsonNode r, String field) {
        return AwsJson.text(r, field);
    }

    private static void error(HttpExchange exchange, int status, String type, String message) throws IOException {
        AwsJson.error(exchange, status, type, message, AwsJson.JSON_1_0);
    }

    /** A request AWS would refuse before looking at any resource (a member's constraint). */
    private static final class ValidationFailed extends RuntimeException {
        ValidationFailed(String message) {
            super(message);
        }
    }

    /** An operation this service does not offer. */
    private static final class UnknownOperation extends RuntimeException {
        UnknownOperation(String operation) {
            super("operation " + operation + " is not supported by the local Step Functions service");
        }
    }

    /** A state machine ARN that is not served here. */
    private static final class UnknownMachine extends RuntimeException {
        UnknownMachine(String message) {
            super(message);
        }
    }

    @Override
    public void close() {
        server.close();
    }
}
