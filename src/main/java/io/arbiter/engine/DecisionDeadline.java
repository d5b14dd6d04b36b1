package io.arbiter.engine;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * How long one decision may take, and at most how many rule firings it may record. The deadline is kept for the
 * thread that decides ({@link #within}); {@link CompiledRuleBase} halts a session still firing when it passes, and
 * refuses a decision whose firings reach the limit, so a costly request ends with {@link ExceededException} instead of
 * holding a worker thread and the heap.
 */
public record DecisionDeadline(long endNanos, Duration budget, int maxFirings) {

    /** What a decision gets unless the server is configured otherwise ({@code serve --decision-deadline}). */
    public static final Duration DEFAULT_BUDGET = Duration.ofSeconds(10);
    /**
     * Firings one decision may record. Each is kept until the response is written (about 150 bytes of it), so this
     * bounds what a decision holds: the largest request under the request limits fires about a tenth of it.
     */
    public static final int MAX_FIRINGS = 500_000;

    private static final PerThread<DecisionDeadline> CURRENT = new PerThread<>();
    private static final AtomicInteger THREADS = new AtomicInteger();
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "arbiter-deadline-" + THREADS.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    });

    /** A decision past its deadline or its firings limit; the message says which and names the limit. */
    public static final class ExceededException extends RuntimeException {
        private final boolean deadline;

        ExceededException(String message, boolean deadline) {
            super(message);
            this.deadline = deadline;
        }

        /** True for the deadline (time), false for the firings limit (the request's size). */
        public boolean isDeadline() {
            return deadline;
        }
    }

    public static DecisionDeadline after(Duration budget) {
        return new DecisionDeadline(System.nanoTime() + budget.toNanos(), budget, MAX_FIRINGS);
    }

    /** Runs {@code decision} on this thread with this deadline in force. */
    public <T> T within(Supplier<T> decision) {
        return CURRENT.with(this, decision::get);
    }

    /** The deadline in force on this thread: the default budget from now when none is. */
    public static DecisionDeadline current() {
        DecisionDeadline deadline = CURRENT.get();
        return deadline != null ? deadline : after(DEFAULT_BUDGET);
    }

    /** Throws when the deadline has passed. */
    public void check() {
        if (System.nanoTime() - endNanos >= 0) {
            throw new ExceededException("the decision did not finish within its deadline of " + describe(budget)
                    + " and was abandoned; retry later or send a smaller request", true);
        }
    }

    ExceededException firingsExceeded() {
        return new ExceededException("the decision needs more than " + maxFirings
                + " rule firings, the limit for one decision; send a smaller request", false);
    }

    /** Runs {@code action} on the timer thread when the deadline passes, unless the returned halt is cancelled first. */
    Halt atDeadline(Runnable action) {
        Halt halt = new Halt(action);
        TIMER.schedule(halt, Math.max(0, endNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        return halt;
    }

    /**
     * A session's halt, queued on the timer until the deadline. Removing a cancelled task from the timer's queue
     * wakes the timer thread on every decision, so a cancelled halt stays queued until its deadline instead; it lets
     * go of its session when cancelled, so what stays queued is this small object, not the session and its facts.
     * Running and cancelling race to take the action: exactly one of them gets it, so a session the halt reached is
     * never taken for one it did not.
     */
    static final class Halt implements Runnable {
        private final AtomicReference<Runnable> action;

        private Halt(Runnable action) {
            this.action = new AtomicReference<>(action);
        }

        @Override
        public void run() {
            Runnable pending = action.getAndSet(null);
            if (pending != null) {
                pending.run();
            }
        }

        /** Cancels the halt; false when the deadline has already halted the session, or is halting it. */
        boolean cancel() {
            return action.getAndSet(null) != null;
        }
    }

    private static String describe(Duration budget) {
        long millis = budget.toMillis();
        return millis > 0 && millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }
}
