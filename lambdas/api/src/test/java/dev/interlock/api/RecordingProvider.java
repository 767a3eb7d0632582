package dev.interlock.api;

import dev.interlock.store.Provider;
import dev.interlock.store.Registration;
import dev.interlock.store.RerunAcceptance;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A Provider that passes every call through and records the ones that could change the store, so a test can prove
 * a refused request wrote nothing. Any method not known to be a read counts as a write (the safe side), except
 * the all-or-nothing operations, which count only when they wrote: {@code acceptRerun} when it accepted,
 * {@code moveRerun} when it moved, a checked registration or deletion when it was not refused. It can also answer
 * {@code reruns().count} with a stale value, as a request racing another sees it between its cheap pre-check and its
 * write.
 */
final class RecordingProvider {

    private static final Set<String> READS = Set.of(
            "get",
            "getAll",
            "list",
            "listByPipeline",
            "listByDate",
            "listNonTerminal",
            "count",
            "forExecution",
            "read",
            "latest",
            "markers",
            "downstreamOf",
            "holder",
            "holders",
            "ofDay",
            "ping",
            "dependants",
            "readersOf",
            "pipelines",
            "archetypes",
            "calendars",
            "traits",
            "sensors",
            "runs",
            "runLogs",
            "events",
            "reruns",
            "cascade",
            "lateArrivals",
            "alerts",
            "mutes",
            "pauses",
            "forces",
            "covering",
            "alertHistory",
            "locks",
            "watchdog",
            "watches",
            "due",
            "lowWater",
            "toString",
            "hashCode",
            "equals");

    private final List<String> writes = new CopyOnWriteArrayList<>();
    private final Provider provider;
    private volatile Integer staleRerunCount;

    RecordingProvider(Provider delegate) {
        this.provider = wrap(Provider.class, delegate);
    }

    Provider provider() {
        return provider;
    }

    /** The writes seen so far, as {@code Store.method}. */
    List<String> writes() {
        return List.copyOf(writes);
    }

    void clear() {
        writes.clear();
    }

    /** From now on {@code reruns().count} answers {@code count}, whatever the store holds. */
    void answerRerunCountWith(int count) {
        staleRerunCount = count;
    }

    @SuppressWarnings("unchecked")
    private <T> T wrap(Class<T> type, T target) {
        InvocationHandler handler = (proxy, method, args) -> {
            String name = type.getSimpleName() + "." + method.getName();
            boolean allOrNothing = method.getName().equals("acceptRerun")
                    || method.getName().equals("moveRerun")
                    || Registration.class.equals(method.getReturnType());
            if (!READS.contains(method.getName()) && !allOrNothing) {
                writes.add(name);
            }
            if (name.equals("RerunStore.count") && staleRerunCount != null) {
                return staleRerunCount;
            }
            Object result;
            try {
                result = method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            if (allOrNothing
                    && (result instanceof RerunAcceptance acceptance && acceptance.accepted()
                            || Boolean.TRUE.equals(result)
                            || result instanceof Registration registration && registration.wrote())) {
                writes.add(name);
            }
            Class<?> returned = method.getReturnType();
            // Stores are wrapped to record their writes; sealed results (outcomes) are values and pass through.
            if (result != null
                    && returned.isInterface()
                    && !returned.isSealed()
                    && returned.getPackageName().equals(Provider.class.getPackageName())) {
                return wrap((Class<Object>) returned, result);
            }
            return result;
        };
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler);
    }
}
