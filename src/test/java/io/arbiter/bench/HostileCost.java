package io.arbiter.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.decision.Settings;
import io.arbiter.http.ArbiterServer;
import io.arbiter.http.ServerOptions;
import io.arbiter.testing.CostlyRequests;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Measures the costly requests of issue 24 against an in-process server: per request its status, time, request and
 * response size, the heap in use after a full GC, and the worst latency of a small decision sent alongside. Run under
 * the heap to check, e.g. from the project root:
 * <pre>
 * mvn -q -B -o test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java -Xmx512m -cp target/classes:target/test-classes:$(cat target/cp.txt) io.arbiter.bench.HostileCost [rows...]
 * </pre>
 * Rows: chain1000 chain2000 cycle1000 explain leak limits (default: all).
 */
public final class HostileCost {

    private static final String SMALL = "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\", \"revision\": \"0.1.0\"}}";

    private HostileCost() {
    }

    public static void main(String[] args) throws Exception {
        List<String> rows = args.length > 0 ? List.of(args)
                : List.of("chain1000", "chain2000", "cycle1000", "explain", "leak", "limits");
        ArbiterServer server = ArbiterServer.start(new ServerOptions("127.0.0.1", 0, Settings.embedded(), null)
                        .withDecisionDeadline(Duration.ofSeconds(Long.getLong("deadline.seconds", 10))))
                .toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        String base = "http://127.0.0.1:" + server.port();
        System.out.printf("max heap %d MB%n", Runtime.getRuntime().maxMemory() >> 20);
        System.out.printf("%-34s %6s %9s %10s %10s %12s %10s %12s%n", "request", "status", "req KB", "time ms",
                "cpu ms", "resp bytes", "heap MB", "probe max ms");
        try {
            post(client, base, "implementation", SMALL.getBytes()); // warm up
            for (String row : rows) {
                switch (row) {
                    case "chain1000" -> measure(client, base, "dependency chain, 1,000 policies", "dependencies",
                            CostlyRequests.dependencyChain(1_000, false));
                    case "chain2000" -> measure(client, base, "dependency chain, 2,000 policies", "dependencies",
                            CostlyRequests.dependencyChain(2_000, false));
                    case "cycle1000" -> measure(client, base, "dependency cycle, 1,000 policies", "dependencies",
                            CostlyRequests.dependencyChain(1_000, true));
                    case "explain" -> measure(client, base, "explain 300 oneOf x 1,500 impls", "implementation",
                            CostlyRequests.explainRequest(300, 1_500, true));
                    case "leak" -> leak(client, base);
                    case "limits" -> {
                        measure(client, base, "chain at the policy limit", "dependencies",
                                CostlyRequests.dependencyChain(io.arbiter.decision.Limits.POLICIES, false));
                        measure(client, base, "cycle at the policy limit", "dependencies",
                                CostlyRequests.dependencyChain(io.arbiter.decision.Limits.POLICIES, true));
                        measure(client, base, "template dependencies at limit", "dependencies",
                                templateDependenciesAtLimit());
                        // 3 items (+ the embedded global policy's 2) x 1,000 Implementations: 15,025 of the
                        // implementation work budget's 18,000 units, explained
                        measure(client, base, "explain 3 x 1000 (work budget)", "implementation",
                                CostlyRequests.explainRequest(3, io.arbiter.decision.Limits.IMPLEMENTATIONS, true));
                        measure(client, base, "no explain 20 x 250 (work budget)", "implementation",
                                CostlyRequests.explainRequest(20, 250, false));
                    }
                    default -> System.out.println("unknown row " + row);
                }
            }
        } finally {
            server.stop();
        }
    }

    private static void measure(HttpClient client, String base, String what, String target, ObjectNode body) throws Exception {
        byte[] bytes = CostlyRequests.bytes(body);
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong worstProbe = new AtomicLong();
        Thread probe = new Thread(() -> {
            while (running.get()) {
                long started = System.nanoTime();
                try {
                    post(client, base, "implementation", SMALL.getBytes());
                } catch (Exception e) {
                    worstProbe.set(Long.MAX_VALUE);
                    return;
                }
                worstProbe.accumulateAndGet((System.nanoTime() - started) / 1_000_000, Math::max);
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        probe.start();
        long started = System.nanoTime();
        long cpu = processCpuMillis();
        HttpResponse<byte[]> response;
        try {
            response = post(client, base, target, bytes);
        } finally {
            running.set(false);
            probe.join();
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        long cpuMillis = processCpuMillis() - cpu;
        String status = String.valueOf(response.statusCode());
        if (response.statusCode() >= 400) {
            String text = new String(response.body());
            System.out.println("    " + text.substring(0, Math.min(300, text.length())));
        }
        System.out.printf("%-34s %6s %9d %10d %10d %12d %10d %12d%n", what, status, bytes.length / 1024, millis,
                cpuMillis, response.body().length, heapAfterGc(), worstProbe.get());
    }

    /** 120 decisions whose two inline Implementations carry 210 KB revisions each (420 KB a request). */
    private static void leak(HttpClient client, String base) throws Exception {
        long before = heapAfterGc();
        List<Integer> statuses = new ArrayList<>();
        long started = System.nanoTime();
        int length = Math.min(210_000, io.arbiter.decision.Limits.REVISION_LENGTH);
        for (int i = 0; i < 120; i++) {
            statuses.add(post(client, base, "implementation",
                    CostlyRequests.bytes(CostlyRequests.longRevisionsRequest(length, "r" + i + "."))).statusCode());
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        System.out.printf("%-34s %6s %9d %10d %10s %12s %10d %12s%n", "120 x long revisions (" + length + " chars)",
                statuses.stream().distinct().toList(), 2 * length / 1024, millis, "-", "-", heapAfterGc() - before, "-");
        // past the limit: refused, nothing kept
        HttpResponse<byte[]> refused = post(client, base, "implementation",
                CostlyRequests.bytes(CostlyRequests.longRevisionsRequest(210_000, "past")));
        System.out.println("    210,000-character revision: " + refused.statusCode() + " "
                + new String(refused.body()).substring(0, Math.min(300, refused.body().length)));
    }

    /** 20 policies of 100 templates, each policy depending on a PolicySet of 10 members: 20,000 template dependencies. */
    private static ObjectNode templateDependenciesAtLimit() {
        ObjectNode body = io.arbiter.document.Documents.jsonMapper().createObjectNode();
        var members = body.putArray("policySets").addObject().put("name", "all").put("namespace", "ns").putArray("policies");
        for (int m = 0; m < 10; m++) {
            members.add("m" + m);
        }
        var policies = body.putArray("policies");
        for (int p = 0; p < 20; p++) {
            ObjectNode policy = policies.addObject().put("name", "p" + p).put("namespace", "ns");
            policy.putArray("dependencies").addObject().put("apiVersion", "policy.open-cluster-management.io/v1beta1")
                    .put("kind", "PolicySet").put("name", "all").put("compliance", "Compliant");
            var templates = policy.putArray("policyTemplates");
            for (int t = 0; t < 100; t++) {
                templates.addObject().put("name", "p" + p + "t" + t).put("kind", "ConfigurationPolicy");
            }
        }
        return body;
    }

    private static HttpResponse<byte[]> post(HttpClient client, String base, String target, byte[] body) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(base + "/v1/decisions/" + target))
                .header("Content-Type", "application/json").timeout(Duration.ofMinutes(5))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    /** CPU time of the whole process (the decision, the probe, GC): wall time on a shared machine says little. */
    private static long processCpuMillis() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime()
                / 1_000_000;
    }

    private static long heapAfterGc() {
        for (int i = 0; i < 2; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() >> 20;
    }
}
