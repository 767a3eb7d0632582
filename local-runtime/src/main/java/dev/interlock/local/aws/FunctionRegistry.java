package dev.interlock.local.aws;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/** The functions the local Lambda endpoint and the local Step Functions service can invoke, by name. */
public final class FunctionRegistry {

    private final Map<String, LocalFunction> functions = new ConcurrentHashMap<>();
    private final Map<String, Instant> registeredAt = new ConcurrentHashMap<>();

    public FunctionRegistry register(String name, LocalFunction function) {
        functions.put(name, function);
        registeredAt.put(name, Instant.now());
        return this;
    }

    /** Finds a function by name, full ARN or partial ARN. */
    public Optional<LocalFunction> find(String nameOrArn) {
        return Optional.ofNullable(functions.get(LocalArns.functionName(nameOrArn)));
    }

    /** When the function was registered: its LastModified, as a deployment sets it on Lambda. */
    public Optional<Instant> registeredAt(String nameOrArn) {
        return Optional.ofNullable(registeredAt.get(LocalArns.functionName(nameOrArn)));
    }

    public Set<String> names() {
        return new TreeSet<>(functions.keySet());
    }
}
