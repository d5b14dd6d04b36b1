package io.arbiter.engine;

/** A value a thread holds while it runs one piece of work: what the thread held before is restored after it. */
public final class PerThread<T> extends ThreadLocal<T> {

    public interface Work<R, E extends Exception> {
        R run() throws E;
    }

    public <R, E extends Exception> R with(T value, Work<R, E> work) throws E {
        T outer = get();
        set(value);
        try {
            return work.run();
        } finally {
            if (outer == null) {
                remove();
            } else {
                set(outer);
            }
        }
    }
}
