package io.arbiter.testing;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * What a test waits for, fired by the code under test through a hook it offers (a reload, a settled decision record,
 * request bytes given back): the test looks at its condition again each time the signal fires, so it goes on as soon
 * as the condition holds, and never sleeps for a time it guessed. The deadline only bounds a test whose condition
 * never comes true.
 */
public final class Signal implements Runnable {

    private long fired;

    /** Fires the signal: whoever waits looks at its condition again. A hook calls it after the change it reports. */
    @Override
    public synchronized void run() {
        fired++;
        notifyAll();
    }

    /** Fails with {@code state} unless {@code condition} holds now or after a firing within {@code timeout}. */
    public void await(BooleanSupplier condition, Duration timeout, Supplier<String> state) throws InterruptedException {
        await(condition::getAsBoolean, Boolean::booleanValue, timeout, holds -> state.get());
    }

    /**
     * Reads {@code read} now and after each firing until {@code until} holds for what it read, and returns that;
     * fails, describing the last value read, when it still does not {@code timeout} from now. {@code read} runs
     * outside the signal's lock, so it may block (an HTTP request, say).
     */
    public <T> T await(Supplier<T> read, Predicate<? super T> until, Duration timeout, Function<? super T, String> describe)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long seen = fired();
            T value = read.get();
            if (until.test(value)) {
                return value;
            }
            if (!firedAfter(seen, deadline)) {
                value = read.get();
                if (until.test(value)) {
                    return value;
                }
                throw new AssertionError("timed out after " + timeout + ": " + describe.apply(value));
            }
        }
    }

    private synchronized long fired() {
        return fired;
    }

    /** Waits until the signal has fired since it had fired {@code seen} times; false at the deadline. */
    private synchronized boolean firedAfter(long seen, long deadline) throws InterruptedException {
        while (fired == seen) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }
}
