package dev.interlock.recorder;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.runtime.Environment;
import dev.interlock.recorder.IamRequests.IamRequest;
import dev.interlock.runtime.aws.AwsRequestHook;
import dev.interlock.runtime.priming.OfflineMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.awscore.AwsExecutionAttribute;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.regions.Region;

/**
 * Records every AWS request one function makes — the function, the IAM action and the resource ARN it acts on (see
 * {@link IamRequests}) — as JSON lines in {@code <dir>/aws-requests-<pid>.jsonl}, for the IAM conformance check that
 * evaluates them against the function's role in the synthesized CDK template ({@code infra-cdk/README.md}).
 *
 * <p>Only tests and the local runtime turn it on, never a deployment: this module is in no function's jar, and
 * {@link RecordingHook} attaches it to the clients through {@link AwsRequestHook} when the directory is set
 * ({@code INTERLOCK_AWS_REQUEST_LOG_DIR}, or the JVM property {@value AwsRequestHook#DIR_PROPERTY}, how a test JVM turns
 * it on for every client it builds) and a function is named ({@code AWS_LAMBDA_FUNCTION_NAME}, or
 * {@value AwsRequestHook#FUNCTION_PROPERTY}, a test JVM that is one function's tests); without both nothing is
 * recorded. Requests answered locally while priming never reach AWS and are not recorded. Each line also carries the
 * function's configuration ({@link EnvVar} values such as {@code TABLE_NAME}): the CDK template sets those from its
 * resources, which is how the check knows which template resource a recorded name stands for.
 */
public final class AwsRequestRecorder implements ExecutionInterceptor {

    /**
     * The account that resources named without an ARN (a table name, a Glue job name) are recorded in: the caller's,
     * which no local endpoint knows. The conformance check resolves {@code AWS::AccountId} to the account on each line.
     */
    public static final String CALLER_ACCOUNT = "000000000000";

    private static final Object WRITE_LOCK = new Object();
    private static final Set<String> WRITTEN = ConcurrentHashMap.newKeySet();

    private final Path file;
    private final String function;
    private final Map<String, String> configuration;
    private final OfflineMode offline;

    AwsRequestRecorder(Path directory, String function, Map<String, String> configuration, OfflineMode offline) {
        this.file = directory.resolve("aws-requests-" + ProcessHandle.current().pid() + ".jsonl");
        this.function = function;
        this.configuration = new TreeMap<>(configuration);
        this.offline = offline;
    }

    /**
     * The recorder this environment (or this JVM's properties) asks for, if any; it records nothing a thread sends
     * while {@code offline} primes it.
     */
    static Optional<AwsRequestRecorder> configured(Environment environment, OfflineMode offline) {
        Optional<String> dir = AwsRequestHook.directory(environment);
        Optional<String> function = AwsRequestHook.function(environment);
        if (dir.isEmpty() || function.isEmpty()) {
            return Optional.empty();
        }
        Map<String, String> configuration = new TreeMap<>();
        for (EnvVar v : EnvVar.values()) {
            if (!v.name().startsWith("INTERLOCK_ENDPOINT_")
                    && v != EnvVar.INTERLOCK_AWS_REQUEST_LOG_DIR
                    && v != EnvVar.AWS_LAMBDA_FUNCTION_NAME) {
                environment.find(v).ifPresent(value -> configuration.put(v.name(), value));
            }
        }
        return Optional.of(new AwsRequestRecorder(Path.of(dir.get()), function.get(), configuration, offline));
    }

    /** Recorded before the request is sent, so a request that fails or never connects still counts. */
    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        if (offline.active()) {
            return;
        }
        String sdkService = attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME);
        String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
        Region region = attributes.getAttribute(AwsExecutionAttribute.AWS_REGION);
        String regionName = region == null ? "us-east-1" : region.id();
        String service = IamRequests.servicePrefix(sdkService).orElse(sdkService);
        for (IamRequest request : IamRequests.of(service, operation, context.request(), regionName, CALLER_ACCOUNT)) {
            write(service, operation, regionName, request);
        }
    }

    private void write(String service, String operation, String region, IamRequest request) {
        ObjectNode line = InterlockJson.json().createObjectNode();
        line.put("function", function);
        line.put("service", service);
        line.put("operation", operation);
        line.put("action", request.action());
        line.put("resource", request.resource());
        line.put("region", region);
        line.put("account", CALLER_ACCOUNT);
        if (!request.context().isEmpty()) {
            ObjectNode conditionKeys = line.putObject("context");
            new TreeMap<>(request.context()).forEach(conditionKeys::put);
        }
        ObjectNode env = line.putObject("configuration");
        configuration.forEach(env::put);
        String json = line.toString();
        if (!WRITTEN.add(file + "\n" + json)) {
            return;
        }
        synchronized (WRITE_LOCK) {
            try {
                Files.createDirectories(file.getParent());
                Files.writeString(
                        file,
                        json + "\n",
                        StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
            } catch (IOException e) {
                // Loud on purpose: a request missing from the recording would let the IAM check pass on too little.
                throw new UncheckedIOException("cannot record the AWS request in " + file, e);
            }
        }
    }
}
