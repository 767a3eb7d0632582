package dev.interlock.model.runtime;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A value created on first use and then reused, safely from many threads. Lambda cold start pays only for the
 * clients a function actually touches, and nothing is created during class initialisation (SnapStart-safe).
 */
public final class Lazy<T> implements Supplier<T> {

    private final Supplier<? extends T> factory;
    private volatile T value;

    private Lazy(Supplier<? extends T> factory) {
        this.factory = Objects.requireNonNull(factory, "factory");
    }

    /** Wrap a factory; it runs at most once, on the first {@link #get()}. */
    public static <T> Lazy<T> of(Supplier<? extends T> factory) {
        return new Lazy<>(factory);
    }

    @Override
    public T get() {
        T v = value;
        if (v == null) {
            synchronized (this) {
                v = value;
                if (v == null) {
                    v = Objects.requireNonNull(factory.get(), "lazy factory returned null");
                    value = v;
                }
            }
        }
        return v;
    }

    /** Whether the value has been created (for tests of laziness and for closing only what was opened). */
    public boolean isCreated() {
        return value != null;
    }
}
