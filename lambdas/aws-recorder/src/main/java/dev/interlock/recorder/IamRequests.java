package dev.interlock.recorder;

import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.SdkRequest;

/**
 * What IAM authorises for one SDK request: the action(s) and the resource ARN each acts on, as AWS evaluates them —
 * a {@code TransactWriteItems} is authorised per contained item ({@code Update} needs {@code dynamodb:UpdateItem}, a
 * {@code ConditionCheck} needs {@code dynamodb:ConditionCheckItem}), a {@code Query} on an index needs the action on
 * {@code table/T/index/I}, Lambda's {@code Invoke} is {@code lambda:InvokeFunction}, and an EMR Serverless
 * {@code StartJobRun} also passes its execution role ({@code iam:PassRole} to {@code emr-serverless.amazonaws.com}).
 *
 * <p>Fields are read by their model names through {@link SdkRequest#getValueForField} and {@link SdkPojo#sdkFields()}, so
 * this class names no service class and loads in a function that ships only some service jars. A request whose
 * resource this class does not know is returned with a {@code null} resource: the IAM conformance check refuses it by
 * name rather than guessing.
 */
public final class IamRequests {

    /** A resource ARN that stands for "some resource of this shape", for requests that name theirs only opaquely. */
    public static final String ANY = "*";

    private IamRequests() {}

    /** One authorisation: an IAM action on a resource ARN (or a pattern), with the condition keys the request sets. */
    public record IamRequest(String action, String resource, Map<String, String> context) {
        public IamRequest {
            context = Map.copyOf(context);
        }

        static IamRequest of(String action, String resource) {
            return new IamRequest(action, resource, Map.of());
        }
    }

    /**
     * The IAM service prefix of an SDK client, by the SDK's service name ({@code SdkExecutionAttribute.SERVICE_NAME}: the client's name, {@code DynamoDb}, {@code Sfn}, …),
     * or empty for a service this class does not know.
     */
    public static Optional<String> servicePrefix(String sdkServiceName) {
        String prefix = switch (sdkServiceName) {
            case "DynamoDb", "DynamoDbStreams" -> "dynamodb";
            case "Sfn" -> "states";
            case "Glue" -> "glue";
            case "CloudWatchLogs" -> "logs";
            case "Emr" -> "elasticmapreduce";
            case "EmrServerless" -> "emr-serverless";
            case "Lambda" -> "lambda";
            case "Sns" -> "sns";
            case "Sqs" -> "sqs";
            case "SecretsManager" -> "secretsmanager";
            case "Ssm" -> "ssm";
            case "EventBridge" -> "events";
            case "Sts" -> "sts";
            case "Kms" -> "kms";
            default -> null;
        };
        return Optional.ofNullable(prefix);
    }

    /**
     * The authorisations of one request made in {@code region}; names without an ARN resolve to {@code account}, the
     * caller's. {@code service} is the IAM prefix ({@link #servicePrefix}), {@code operation} the API call.
     */
    public static List<IamRequest> of(
            String service, String operation, SdkRequest request, String region, String account) {
        Arns arns = new Arns(region, account);
        return switch (service) {
            case "dynamodb" -> dynamoDb(operation, request, arns);
            case "states" -> stepFunctions(operation, request, arns);
            case "glue" ->
                List.of(IamRequest.of(
                        "glue:" + operation,
                        string(request, "JobName")
                                .map(name -> arns.of("glue", "job/" + name))
                                .orElse(null)));
            // Log events are read by their group: log-group:NAME:* (the group's streams).
            case "logs" ->
                List.of(IamRequest.of(
                        "logs:" + operation,
                        string(request, "logGroupName")
                                .map(name -> arns.of("logs", "log-group:" + name + ":*"))
                                .orElse(null)));
            case "elasticmapreduce" ->
                List.of(IamRequest.of(
                        "elasticmapreduce:" + operation,
                        string(request, "JobFlowId")
                                .or(() -> string(request, "ClusterId"))
                                .map(id -> arns.of("elasticmapreduce", "cluster/" + id))
                                .orElse(null)));
            case "emr-serverless" -> emrServerless(operation, request, arns);
            case "lambda" -> List.of(IamRequest.of("lambda:" + lambdaAction(operation), lambdaFunction(request, arns)));
            case "sns" ->
                List.of(IamRequest.of(
                        "sns:" + operation,
                        string(request, "TopicArn")
                                .or(() -> string(request, "TargetArn"))
                                .orElse(null)));
            case "sqs" ->
                List.of(IamRequest.of(
                        "sqs:" + operation,
                        string(request, "QueueUrl").map(IamRequests::queueArn).orElse(null)));
            case "secretsmanager" ->
                List.of(IamRequest.of(
                        "secretsmanager:" + operation,
                        string(request, "SecretId")
                                .map(id -> secretArn(id, arns))
                                .orElse(null)));
            case "ssm" -> ssm(operation, request, arns);
            case "events" -> events(operation, request, arns);
            case "sts" -> List.of(IamRequest.of("sts:" + operation, ANY));
            default -> List.of(IamRequest.of(service + ":" + operation, null));
        };
    }

    private static List<IamRequest> dynamoDb(String operation, SdkRequest request, Arns arns) {
        switch (operation) {
            case "TransactWriteItems" -> {
                List<IamRequest> out = new ArrayList<>();
                for (Object item : list(request, "TransactItems")) {
                    for (Map.Entry<String, String> kind : Map.of(
                                    "Put",
                                    "PutItem",
                                    "Update",
                                    "UpdateItem",
                                    "Delete",
                                    "DeleteItem",
                                    "ConditionCheck",
                                    "ConditionCheckItem")
                            .entrySet()) {
                        field(item, kind.getKey())
                                .ifPresent(write -> out.add(IamRequest.of(
                                        "dynamodb:" + kind.getValue(),
                                        tableArn(
                                                field(write, "TableName")
                                                        .map(String::valueOf)
                                                        .orElse(null),
                                                arns))));
                    }
                }
                return out;
            }
            case "TransactGetItems" -> {
                List<IamRequest> out = new ArrayList<>();
                for (Object item : list(request, "TransactItems")) {
                    field(item, "Get")
                            .ifPresent(get -> out.add(IamRequest.of(
                                    "dynamodb:GetItem",
                                    tableArn(
                                            field(get, "TableName")
                                                    .map(String::valueOf)
                                                    .orElse(null),
                                            arns))));
                }
                return out;
            }
            case "BatchGetItem", "BatchWriteItem" -> {
                List<IamRequest> out = new ArrayList<>();
                Object items =
                        request.getValueForField("RequestItems", Object.class).orElse(Map.of());
                if (items instanceof Map<?, ?> byTable) {
                    byTable.keySet()
                            .forEach(table -> out.add(
                                    IamRequest.of("dynamodb:" + operation, tableArn(String.valueOf(table), arns))));
                }
                return out;
            }
            case "ListTables", "ListStreams", "DescribeLimits", "DescribeEndpoints" -> {
                return List.of(IamRequest.of("dynamodb:" + operation, ANY));
            }
            case "GetRecords", "GetShardIterator", "DescribeStream" -> {
                // A shard iterator names its stream only opaquely: any stream of the account's tables.
                return List.of(IamRequest.of(
                        "dynamodb:" + operation,
                        string(request, "StreamArn").orElse(arns.of("dynamodb", "table/" + ANY + "/stream/" + ANY))));
            }
            default -> {
                String table = tableArn(string(request, "TableName").orElse(null), arns);
                Optional<String> index = string(request, "IndexName");
                return List.of(IamRequest.of(
                        "dynamodb:" + operation,
                        table == null
                                ? null
                                : index.map(i -> table + "/index/" + i).orElse(table)));
            }
        }
    }

    private static List<IamRequest> stepFunctions(String operation, SdkRequest request, Arns arns) {
        String resource = switch (operation) {
            // A task token names its state machine only opaquely: any state machine of the account.
            case "SendTaskSuccess", "SendTaskFailure", "SendTaskHeartbeat" -> arns.of("states", "stateMachine:" + ANY);
            case "CreateStateMachine" ->
                string(request, "name")
                        .map(n -> arns.of("states", "stateMachine:" + n))
                        .orElse(null);
            case "ListStateMachines", "ListActivities" -> ANY;
            default ->
                string(request, "executionArn")
                        .or(() -> string(request, "stateMachineArn"))
                        .orElse(null);
        };
        return List.of(IamRequest.of("states:" + operation, resource));
    }

    private static List<IamRequest> emrServerless(String operation, SdkRequest request, Arns arns) {
        Optional<String> application = string(request, "applicationId");
        Optional<String> jobRun = string(request, "jobRunId");
        String resource = application
                .map(a -> arns.of(
                        "emr-serverless",
                        "/applications/" + a + jobRun.map(r -> "/jobruns/" + r).orElse("")))
                .orElse(null);
        List<IamRequest> out = new ArrayList<>();
        out.add(IamRequest.of("emr-serverless:" + operation, resource));
        if (operation.equals("StartJobRun")) {
            string(request, "executionRoleArn")
                    .ifPresent(role -> out.add(new IamRequest(
                            "iam:PassRole", role, Map.of("iam:PassedToService", "emr-serverless.amazonaws.com"))));
        }
        return out;
    }

    private static String lambdaAction(String operation) {
        return switch (operation) {
            case "Invoke", "InvokeWithResponseStream" -> "InvokeFunction";
            default -> operation;
        };
    }

    /** Lambda accepts a name, a partial ARN or an ARN, optionally with a qualifier; IAM sees the full (qualified) ARN. */
    private static String lambdaFunction(SdkRequest request, Arns arns) {
        Optional<String> given = string(request, "FunctionName");
        if (given.isEmpty()) {
            return null;
        }
        String name = given.get();
        String arn;
        if (name.startsWith("arn:")) {
            arn = name;
        } else if (name.contains(":function:")) {
            // A partial ARN: 123456789012:function:my-function
            arn = "arn:aws:lambda:" + arns.region + ":" + name;
        } else {
            arn = arns.of("lambda", "function:" + name);
        }
        Optional<String> qualifier = string(request, "Qualifier");
        return qualifier.map(q -> arn + ":" + q).orElse(arn);
    }

    private static List<IamRequest> ssm(String operation, SdkRequest request, Arns arns) {
        List<String> names = new ArrayList<>();
        string(request, "Name").ifPresent(names::add);
        string(request, "Path").ifPresent(names::add);
        list(request, "Names").forEach(n -> names.add(String.valueOf(n)));
        if (names.isEmpty()) {
            return List.of(IamRequest.of("ssm:" + operation, null));
        }
        return names.stream()
                .map(n -> IamRequest.of(
                        "ssm:" + operation,
                        n.startsWith("arn:")
                                ? n
                                : arns.of("ssm", "parameter/" + (n.startsWith("/") ? n.substring(1) : n))))
                .toList();
    }

    private static List<IamRequest> events(String operation, SdkRequest request, Arns arns) {
        if (!operation.equals("PutEvents")) {
            return List.of(IamRequest.of(
                    "events:" + operation,
                    string(request, "EventBusName")
                            .map(bus -> eventBusArn(bus, arns))
                            .orElse(null)));
        }
        List<IamRequest> out = new ArrayList<>();
        for (Object entry : list(request, "Entries")) {
            String bus = field(entry, "EventBusName").map(String::valueOf).orElse("default");
            IamRequest put = IamRequest.of("events:PutEvents", eventBusArn(bus, arns));
            if (!out.contains(put)) {
                out.add(put);
            }
        }
        return out;
    }

    private static String eventBusArn(String nameOrArn, Arns arns) {
        return nameOrArn.startsWith("arn:") ? nameOrArn : arns.of("events", "event-bus/" + nameOrArn);
    }

    /**
     * A secret named without its ARN: IAM evaluates the full ARN, whose name ends in a six-character random suffix, so
     * the recording keeps that part a pattern.
     */
    private static String secretArn(String nameOrArn, Arns arns) {
        return nameOrArn.startsWith("arn:") ? nameOrArn : arns.of("secretsmanager", "secret:" + nameOrArn + "-??????");
    }

    /** {@code https://sqs.<region>.amazonaws.com/<account>/<name>} to {@code arn:aws:sqs:<region>:<account>:<name>}. */
    private static String queueArn(String url) {
        try {
            URI uri = URI.create(url);
            String[] path = uri.getPath().split("/");
            String[] host = uri.getHost().split("\\.");
            String region = host.length > 1 ? host[1] : "";
            return "arn:aws:sqs:" + region + ":" + path[1] + ":" + path[2];
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static String tableArn(String nameOrArn, Arns arns) {
        if (nameOrArn == null) {
            return null;
        }
        return nameOrArn.startsWith("arn:") ? nameOrArn : arns.of("dynamodb", "table/" + nameOrArn);
    }

    private static Optional<String> string(SdkRequest request, String field) {
        return request.getValueForField(field, Object.class)
                .map(String::valueOf)
                .filter(s -> !s.isEmpty());
    }

    private static Collection<?> list(SdkRequest request, String field) {
        Object value = request.getValueForField(field, Object.class).orElse(List.of());
        return value instanceof Collection<?> c ? c : List.of();
    }

    /** A member of a nested model object (a transaction item, a batch entry), by its model name. */
    private static Optional<Object> field(Object pojo, String name) {
        if (!(pojo instanceof SdkPojo model)) {
            return Optional.empty();
        }
        for (SdkField<?> f : model.sdkFields()) {
            if (f.memberName().equals(name)) {
                return Optional.ofNullable(f.getValueOrDefault(pojo));
            }
        }
        return Optional.empty();
    }

    /** ARNs of resources given by name in the caller's account and region. */
    private record Arns(String region, String account) {
        String of(String service, String resource) {
            return "arn:aws:" + service + ":" + region + ":" + account + ":" + resource;
        }
    }
}
