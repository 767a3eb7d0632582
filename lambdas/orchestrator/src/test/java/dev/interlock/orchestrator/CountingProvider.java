package dev.interlock.orchestrator;

import dev.interlock.store.Provider;
import dev.interlock.store.StoreException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A Provider that passes every call through, counting the calls made on its stores (each one is at least one request
 * to the table), and that can fail the n-th call of one store method with a {@link StoreException}, like a DynamoDB
 * outage in the middle of a tick.
 */
final class CountingProvider {

    private final Provider delegate;
    private final AtomicLong calls = new AtomicLong();
    private final List<String> names = new CopyOnWriteArrayList<>();
    private final AtomicLong matching = new AtomicLong();
    private String failing;
    private long failAt;
    private final Provider provider;

    private CountingProvider(Provider delegate) {
        this.delegate = delegate;
        this.provider = (Provider) Proxy.newProxyInstance(
                Provider.class.getClassLoader(), new Class<?>[] {Provider.class}, (proxy, method, args) -> {
                    Object store = invoke(delegate, method, args);
                    // The accessors hand out stores; what a store does is what costs.
                    return method.getParameterCount() == 0
                                    && method.getReturnType().isInterface()
                            ? wrap(method.getName(), method.getReturnType(), store)
                            : store;
                });
    }

    static CountingProvider around(Provider delegate) {
        return new CountingProvider(delegate);
    }

    /** The {@code nth} call (from 1) of a store method named {@code method} throws a StoreException instead. */
    CountingProvider failingOnce(String method, long nth) {
        this.failing = method;
        this.failAt = nth;
        return this;
    }

    Provider provider() {
        return provider;
    }

    /** How many store calls {@code work} made. */
    long callsDuring(Runnable work) {
        long before = calls.get();
        work.run();
        return calls.get() - before;
    }

    /** The store calls {@code work} made, each as {@code store.method} (e.g. {@code runLogs.get}), in order. */
    List<String> storeCallsDuring(Runnable work) {
        int before = names.size();
        work.run();
        return List.copyOf(names.subList(before, names.size()));
    }

    private Object wrap(String store, Class<?> type, Object target) {
        InvocationHandler handler = (proxy, method, args) -> {
            if (method.getDeclaringClass() != Object.class) {
                calls.incrementAndGet();
                names.add(store + "." + method.getName());
                if (method.getName().equals(failing) && matching.incrementAndGet() == failAt) {
                    throw new StoreException(method.getName() + " failed (test outage)", null);
                }
            }
            return invoke(target, method, args);
        };
        return Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler);
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @Override
    public String toString() {
        return "CountingProvider(" + delegate + ", " + calls.get() + " calls)";
    }
}
