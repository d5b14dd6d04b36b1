package io.arbiter.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Runs the independent parts of one large decision on several cores. The calling thread always takes part: it runs
 * the first task, then every task no helper thread has started yet, so a busy (or single-core) machine degrades to
 * running them one after the other, never to waiting on a queue.
 */
public final class Parallel {

    /** One helper per core beyond the caller's; daemon threads, so they never keep the JVM alive. */
    private static final int HELPERS = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);

    private static final AtomicInteger THREADS = new AtomicInteger();
    private static final ExecutorService HELPER_POOL = Executors.newFixedThreadPool(HELPERS, task -> {
        Thread thread = new Thread(task, "arbiter-partition-" + THREADS.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    });

    private Parallel() {
    }

    /**
     * Runs every task and returns their results in task order. A task's exception is rethrown (the first one, in task
     * order) once every task has finished, so no task outlives the call.
     */
    public static <T> List<T> all(List<Supplier<T>> tasks) {
        List<FutureTask<T>> futures = new ArrayList<>(tasks.size());
        for (Supplier<T> task : tasks) {
            futures.add(new FutureTask<>(task::get));
        }
        for (int i = 1; i < futures.size(); i++) {
            HELPER_POOL.execute(futures.get(i));
        }
        // FutureTask.run does nothing once a helper has started the task, so each task runs exactly once
        futures.forEach(FutureTask::run);
        List<T> results = new ArrayList<>(futures.size());
        RuntimeException failure = null;
        for (FutureTask<T> future : futures) {
            try {
                results.add(getUninterruptibly(future));
            } catch (ExecutionException e) {
                if (failure == null) {
                    failure = e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
                }
                if (e.getCause() instanceof Error error) {
                    throw error;
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
        return results;
    }

    private static <T> T getUninterruptibly(FutureTask<T> future) throws ExecutionException {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return future.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
