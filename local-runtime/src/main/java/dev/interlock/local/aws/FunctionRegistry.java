package dev.interlock.local.aws;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/** The functions the local Lambda endpoint and the local Step Functions service can invoke, by name. */
public final class FunctionRegistry {

    private final Map<String, LocalFunction> functions = new ConcurrentHashMap<>();

    public FunctionRegistry register(String name, LocalFunction function) {
        functions.put(name, function);
        return this;
    }

    /** Finds a function by name, full ARN or partial ARN. */
    public Optional<LocalFunction> find(String nameOrArn) {
        return Optional.ofNullable(functions.get(LocalArns.functionName(nameOrArn)));
    }

    public Set<String> names() {
        return new TreeSet<>(functions.keySet());
    }
}
