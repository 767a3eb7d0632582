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
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The local Step Functions service over HTTP on 127.0.0.1, speaking the AWS JSON 1.0 protocol
 * ({@code X-Amz-Target: AWSStepFunctions.<Operation>}), so the real SDK client in the stream router and the AWS CLI
 * with {@code --endpoint-url} work unchanged. Operations: StartExecution, DescribeExecution, ListExecutions,
 * GetExecutionHistory, StopExecution, and DescribeStateMachine / ListStateMachines for discovery. Executions of any
 * other state machine are job fakes ({@link StepFunctionsJobs}) when the runtime serves them.
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
    public static LocalStepFunctionsServer start(int port, StepFunctionsJobs jobs, StateMachine... machines) throws IOException {
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
                error(exchange, 400, "UnknownOperationException", "expected POST with X-Amz-Target AWSStepFunctions.<Operation>");
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
            } catch (IllegalArgumentException e) {
                error(exchange, 400, "ValidationException", e.getMessage());
            }
        }
    }

    private Object dispatch(String operation, JsonNode r) {
        return switch (operation) {
            case "StartExecution" -> isJob(required(r, "stateMachineArn"))
                    ? jobs.start(required(r, "stateMachineArn"), text(r, "name"), text(r, "input"))
                    : machine(required(r, "stateMachineArn")).startExecution(text(r, "name"), text(r, "input"));
            case "DescribeExecution" -> isJobExecution(required(r, "executionArn"))
                    ? jobs.describe(required(r, "executionArn"))
                    : machineOfExecution(required(r, "executionArn")).describeExecution(required(r, "executionArn"));
            case "ListExecutions" -> {
                if (isJob(required(r, "stateMachineArn"))) {
                    yield Map.of("executions", jobs.list(required(r, "stateMachineArn")));
                }
                Page<?> page = machine(required(r, "stateMachineArn")).listExecutions(
                        r.hasNonNull("statusFilter") ? ExecutionStatus.valueOf(r.get("statusFilter").asText()) : null,
                        r.path("maxResults").asInt(0), text(r, "nextToken"));
                yield page("executions", page);
            }
            case "GetExecutionHistory" -> {
                String arn = required(r, "executionArn");
                Page<?> page = machineOfExecution(arn).getExecutionHistory(arn, r.path("maxResults").asInt(0),
                        r.path("reverseOrder").asBoolean(false), text(r, "nextToken"));
                yield page("events", page);
            }
            case "StopExecution" -> isJobExecution(required(r, "executionArn"))
                    ? jobs.stop(required(r, "executionArn"), text(r, "error"), text(r, "cause"))
                    : machineOfExecution(required(r, "executionArn"))
                            .stopExecution(required(r, "executionArn"), text(r, "error"), text(r, "cause"));
            case "SendTaskSuccess" -> {
                machineWaitingFor(required(r, "taskToken")).sendTaskSuccess(required(r, "taskToken"), required(r, "output"));
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
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("stateMachineArn", m.arn());
                out.put("name", m.name());
                out.put("status", "ACTIVE");
                out.put("type", "STANDARD");
                out.put("roleArn", "arn:aws:iam::000000000000:role/interlock-local");
                out.put("creationDate", startedAt);
                yield out;
            }
            case "ListStateMachines" -> Map.of("stateMachines", machines.values().stream().map(m -> Map.of(
                    "stateMachineArn", m.arn(), "name", m.name(), "type", "STANDARD", "creationDate", startedAt)).toList());
            default -> throw new IllegalArgumentException("operation " + operation + " is not supported by the local Step Functions service");
        };
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
        StateMachine m = machines.get(arn);
        if (m == null) {
            throw new UnknownMachine("State Machine Does Not Exist: '" + arn + "'");
        }
        return m;
    }

    /** The machine whose callback task waits under {@code taskToken}; a token nobody waits for is refused. */
    private StateMachine machineWaitingFor(String taskToken) {
        return machines.values().stream().filter(m -> m.waitsFor(taskToken)).findFirst().orElseThrow(
                () -> new StepFunctionsException(StepFunctionsException.Code.TaskDoesNotExist,
                        "Task does not exist anymore (unknown or closed task token)"));
    }

    private StateMachine machineOfExecution(String executionArn) {
        // arn:aws:states:<region>:<account>:execution:<machine>:<name>
        String[] parts = executionArn.split(":");
        if (parts.length != 8 || !"execution".equals(parts[5])) {
            throw new StepFunctionsException(StepFunctionsException.Code.InvalidArn, "Invalid Arn: '" + executionArn + "'");
        }
        String machineArn = String.join(":", parts[0], parts[1], parts[2], parts[3], parts[4], "stateMachine", parts[6]);
        StateMachine m = machines.get(machineArn);
        if (m == null) {
            throw new StepFunctionsException(StepFunctionsException.Code.ExecutionDoesNotExist, "Execution Does Not Exist: '" + executionArn + "'");
        }
        return m;
    }

    private static String required(JsonNode r, String field) {
        try {
            return AwsJson.required(r, field);
        } catch (AwsJson.Failure f) {
            throw new IllegalArgumentException(f.getMessage());
        }
    }

    private static String text(JsonNode r, String field) {
        return AwsJson.text(r, field);
    }

    private static void error(HttpExchange exchange, int status, String type, String message) throws IOException {
        AwsJson.error(exchange, status, type, message, AwsJson.JSON_1_0);
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
