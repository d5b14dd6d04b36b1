package io.arbiter.engine;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class ParallelTest {

    /** Generous: only a deadlock would take this long. */
    private static final Duration NO_DEADLOCK = Duration.ofSeconds(60);

    @Test
    void returnsEveryResultInTaskOrderAndRunsEachTaskOnce() {
        AtomicInteger[] runs = new AtomicInteger[12];
        List<Supplier<Integer>> tasks = new ArrayList<>();
        for (int i = 0; i < runs.length; i++) {
            int task = i;
            runs[i] = new AtomicInteger();
            tasks.add(() -> {
                runs[task].incrementAndGet();
                return task * task;
            });
        }
        List<Integer> results = Parallel.all(tasks);
        for (int i = 0; i < runs.length; i++) {
            assertEquals(i * i, results.get(i));
            assertEquals(1, runs[i].get(), "task " + i + " ran once");
        }
    }

    @Test
    void rethrowsTheFirstFailureInTaskOrderAfterEveryTaskFinished() {
        IllegalStateException first = new IllegalStateException("first");
        AtomicInteger finished = new AtomicInteger();
        List<Supplier<Integer>> tasks = List.of(
                () -> finished.incrementAndGet(),
                () -> {
                    throw first;
                },
                () -> finished.incrementAndGet(),
                () -> {
                    throw new IllegalArgumentException("second");
                },
                () -> finished.incrementAndGet());
        assertSame(first, assertThrows(IllegalStateException.class, () -> Parallel.all(tasks)));
        assertEquals(3, finished.get(), "the tasks that do not fail all ran");
    }

    @Test
    void nestedCallsAndManyCallersAtOnceAllComplete() throws Exception {
        ExecutorService callers = Executors.newFixedThreadPool(16);
        try {
            List<Future<List<List<Integer>>>> calls = new ArrayList<>();
            for (int c = 0; c < 64; c++) {
                int caller = c;
                calls.add(callers.submit(() -> Parallel.all(List.<Supplier<List<Integer>>>of(
                        () -> Parallel.all(List.<Supplier<Integer>>of(() -> caller, () -> caller + 1)),
                        () -> Parallel.all(List.<Supplier<Integer>>of(() -> caller + 2, () -> caller + 3))))));
            }
            assertTimeoutPreemptively(NO_DEADLOCK, () -> {
                for (int c = 0; c < calls.size(); c++) {
                    assertEquals(List.of(List.of(c, c + 1), List.of(c + 2, c + 3)), calls.get(c).get());
                }
            });
        } finally {
            callers.shutdownNow();
        }
    }
}
