package io.arbiter.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.decision.DecisionException;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.runtime.Decisions;
import io.arbiter.testing.CostlyRequests;
import io.arbiter.testing.Fixtures;
import io.arbiter.testing.WorkRequests;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.time.Duration;
import java.util.List;

/**
 * Measures requests near the work budgets of docs/api.md "Limits" (issue 44): per request its size, its work units,
 * CPU time, bytes allocated, the heap's peak while deciding (after a full GC before it), the response's size and
 * firings, or the refusal. Run under the heap to check, e.g. from the project root:
 * <pre>
 * mvn -q -B -o test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java -Xmx512m -cp target/classes:target/test-classes:$(cat target/cp.txt) io.arbiter.bench.WorkBudgets [rows...]
 * </pre>
 * Rows are {@code target:shape:a:b[:c]}, as {@link WorkRequests} builds them, e.g. {@code implementation:attributes:100:100:100}
 * (oneOf items, inline Implementations, attributes per item); each is decided three times, the last measured.
 */
public final class WorkBudgets {

    private WorkBudgets() {
    }

    public static void main(String[] args) {
        Decisions decisions = new Decisions(PolicyTypeRegistry.discover(), Fixtures.snapshot(Fixtures.embeddedPolicy()));
        decisions.setDecisionDeadline(Duration.ofMinutes(10)); // measure the work, not the deadline
        System.out.printf("max heap %d MB%n", Runtime.getRuntime().maxMemory() >> 20);
        System.out.printf("%-44s %8s %9s %9s %10s %9s %11s %9s  %s%n", "request", "req KB", "cpu ms", "alloc MB",
                "peak MB", "firings", "resp KB", "status", "");
        for (String row : args) {
            String[] p = row.split(":");
            int[] n = new int[p.length - 2];
            for (int i = 2; i < p.length; i++) {
                n[i - 2] = Integer.parseInt(p[i]);
            }
            ObjectNode request = WorkRequests.build(p[0], p[1], n);
            byte[] body = CostlyRequests.bytes(request);
            for (int run = 0; run < 3; run++) {
                measure(decisions, row, p[0], body, run == 2);
            }
        }
    }

    private static void measure(Decisions decisions, String row, String target, byte[] body, boolean print) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        List<MemoryPoolMXBean> heap = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(pool -> pool.getType() == MemoryType.HEAP).toList();
        System.gc();
        long before = heap.stream().mapToLong(pool -> pool.getUsage().getUsed()).sum();
        heap.forEach(MemoryPoolMXBean::resetPeakUsage);
        long cpu = threads.getCurrentThreadCpuTime();
        long allocated = threads.getCurrentThreadAllocatedBytes();
        String status;
        long firings = -1;
        long responseBytes = 0;
        try {
            JsonNode response = decisions.decide(target, body, "application/json");
            firings = response.path("firedRules").size();
            responseBytes = response.toString().length();
            status = "200";
        } catch (DecisionException e) {
            status = "400";
            responseBytes = e.getMessage().length();
            if (print) {
                System.out.println("    " + e.getMessage());
            }
        } catch (OutOfMemoryError e) {
            status = "OOM";
        }
        cpu = threads.getCurrentThreadCpuTime() - cpu;
        allocated = threads.getCurrentThreadAllocatedBytes() - allocated;
        // the sum of the pools' peaks overstates a peak the pools did not reach at once: an upper bound
        long peak = heap.stream().mapToLong(pool -> pool.getPeakUsage().getUsed()).sum() - before;
        if (print) {
            System.out.printf("%-44s %8d %9d %9d %10d %9d %11d %9s%n", row, body.length >> 10, cpu / 1_000_000,
                    allocated >> 20, peak >> 20, firings, responseBytes >> 10, status);
        }
    }
}
