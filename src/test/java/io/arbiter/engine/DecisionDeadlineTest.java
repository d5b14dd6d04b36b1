package io.arbiter.engine;

import org.junit.jupiter.api.Test;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DecisionDeadlineTest {

    @Test
    void aHaltRunsWhenTheDeadlinePassesAndCannotBeCancelledAfterwards() throws InterruptedException {
        CountDownLatch ran = new CountDownLatch(1);
        DecisionDeadline.Halt halt = DecisionDeadline.after(Duration.ofMillis(1)).atDeadline(ran::countDown);

        assertTrue(ran.await(10, TimeUnit.SECONDS), "the halt ran at the deadline");
        assertFalse(halt.cancel(), "a halt that ran reports it halted");
    }

    // A halt cancelled while it is still halting its session would send that session back to the pool halted.
    @Test
    void aHaltStillRunningCannotBeCancelled() throws InterruptedException {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        DecisionDeadline.Halt halt = DecisionDeadline.after(Duration.ofMillis(1)).atDeadline(() -> {
            running.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertTrue(running.await(10, TimeUnit.SECONDS), "the halt is running");
        try {
            assertFalse(halt.cancel(), "a halt that is halting reports it halted");
        } finally {
            release.countDown();
        }
    }

    @Test
    void aCancelledHaltDoesNothingWhenItsTaskRuns() {
        AtomicInteger runs = new AtomicInteger();
        DecisionDeadline.Halt halt = DecisionDeadline.after(Duration.ofHours(1)).atDeadline(runs::incrementAndGet);

        assertTrue(halt.cancel());
        halt.run();
        assertEquals(0, runs.get());
    }

    @Test
    void aCancelledHaltLetsGoOfWhatItWouldHaveHaltedThoughItStaysQueued() throws InterruptedException {
        Object session = new byte[1 << 20];
        ReferenceQueue<Object> collected = new ReferenceQueue<>();
        WeakReference<Object> held = new WeakReference<>(session, collected);
        Runnable halt = session::hashCode;
        DecisionDeadline.Halt queued = DecisionDeadline.after(Duration.ofHours(1)).atDeadline(halt);
        session = null;
        halt = null;

        assertTrue(queued.cancel());
        // A collection clears the reference and then queues it: wait for that, asking for another collection now and
        // then, since one request may not reach the session.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        boolean cleared = false;
        while (!cleared && System.nanoTime() < deadline) {
            System.gc();
            cleared = collected.remove(100) != null;
        }
        assertTrue(held.get() == null, "the session is collectable while its cancelled halt waits for the deadline");
    }
}
