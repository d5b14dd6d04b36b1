package io.arbiter.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.decision.Limits;
import io.arbiter.document.Documents;
import io.arbiter.testing.CostlyRequests;
import io.arbiter.testing.WorkRequests;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The worst-case search of issue 44, run by {@code bench/worst-case.sh} against a served jar: per decision target, a
 * greedy climb over the dimensions of the target's cost model (docs/api.md, "Work budgets"). From a small request it
 * raises one dimension at a time (doubling, then bisecting between the last request decided and the first refused,
 * so that it ends just under the work budget or at the field limit or the 1 MiB body), keeps the step that cost the
 * most, and climbs again from there; then it sends each target's pathological requests (repeated constraints, deep
 * patterns, duplicate names, long names). Each request is measured on the server: status, time to the answer, CPU
 * time of the server process ({@code /proc/<pid>/stat}), the heap it held (the highest heap after a collection while
 * it ran, over the heap after a full collection before it; the server runs with a fixed young generation so that a
 * decision that allocates more than it is collected while it runs), and the worst latency of a small decision sent
 * every 50 ms alongside. A request's cost is the larger of its CPU time over 2 s and its heap over 64 MiB, the issue's
 * targets.
 *
 * <pre>java -cp ... io.arbiter.bench.WorstCase BASE_URL SERVER_PID GC_LOG OUT_DIR [targets...]</pre>
 */
public final class WorstCase {

    private static final String SMALL = "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\", \"revision\": \"0.1.0\"}}";
    private static final int BODY_LIMIT = 1 << 20;
    private static final Pattern GC_LINE = Pattern.compile("GC\\(\\d+\\) Pause .*?(\\d+)M->(\\d+)M\\(\\d+M\\)");
    private static final long TICK_MS = 10; // USER_HZ 100

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    private final long pid;
    private final Path gcLog;
    private final PrintWriter csv;
    private int serverErrors;
    private int lostConnections;
    private int requests;

    /** One measured request. */
    record Measured(String target, String shape, int status, int bytes, long wallMs, long cpuMs, long heapMiB,
                    boolean heapFromGc, long probeMs, long responseBytes, String problem) {
        boolean decided() {
            return status >= 200 && status < 300;
        }

        boolean refused() {
            return status >= 400 && status < 500;
        }

        /** How close to the targets: 1 is 2 s of CPU or 64 MiB of heap. */
        double cost() {
            return Math.max(cpuMs / 2000.0, heapMiB / 64.0);
        }

        String row() {
            return "%-14s %-58s %6d %7d %8d %7d %9s %9d %s".formatted(target, shape, status, bytes >> 10, wallMs, cpuMs,
                    (heapFromGc ? "" : "≤") + heapMiB, probeMs, refused() ? (wallMs < 100 ? "refused <100 ms" : "REFUSED SLOWLY")
                            : decided() ? (cpuMs <= 2000 && heapMiB <= 64 ? "within" : "OVER TARGET") : "ERROR");
        }
    }

    /** A target's request shape: its dimensions, where the climb starts, their limits, and how to build a request. */
    record Shape(String target, Map<String, Integer> start, Map<String, Integer> limits,
                 Function<Map<String, Integer>, ObjectNode> build) {
    }

    WorstCase(String base, long pid, Path gcLog, PrintWriter csv) {
        this.base = base;
        this.pid = pid;
        this.gcLog = gcLog;
        this.csv = csv;
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[3]);
        Files.createDirectories(out);
        List<String> targets = args.length > 4 ? List.of(args).subList(4, args.length)
                : List.of("implementation", "backend", "rollout", "dependencies");
        try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(out.resolve("requests.tsv")))) {
            csv.println("target\tshape\tstatus\tbytes\twall_ms\tcpu_ms\theap_mib\theap_from_gc\tprobe_ms\tresponse_bytes\tproblem");
            WorstCase search = new WorstCase(args[0], Long.parseLong(args[1]), Path.of(args[2]), csv);
            search.run(targets);
        }
    }

    void run(List<String> targets) throws Exception {
        warmUp();
        Map<String, List<Measured>> all = new LinkedHashMap<>();
        for (String target : targets) {
            List<Measured> measured = new ArrayList<>();
            Shape shape = shape(target);
            System.out.println("== " + target + ": climbing " + shape.start().keySet());
            measured.addAll(climb(shape));
            System.out.println("== " + target + ": pathological requests");
            for (Map.Entry<String, ObjectNode> request : pathological(target).entrySet()) {
                measured.add(measure(target, request.getKey(), request.getValue()));
            }
            all.put(target, measured);
        }
        summary(all);
    }

    // ---- the search ------------------------------------------------------------------------------------------------

    List<Measured> climb(Shape shape) throws Exception {
        List<Measured> measured = new ArrayList<>();
        Map<String, Integer> state = new LinkedHashMap<>(shape.start());
        Measured current = measureShape(shape, state, measured);
        for (int round = 0; round < 3; round++) {
            Map<String, Integer> bestState = null;
            Measured best = current;
            for (String dimension : shape.start().keySet()) {
                Map<String, Integer> tried = new LinkedHashMap<>(state);
                Measured top = null;
                int good = state.get(dimension);
                int bad = -1;
                int limit = shape.limits().get(dimension);
                // double while decided, then bisect between the last decided and the first refused
                while (good < limit) {
                    int next = bad < 0 ? (int) Math.min(limit, Math.max(good + 1, (long) good * 2)) : (good + bad) / 2;
                    if (next <= good || (bad >= 0 && bad - good <= Math.max(1, good / 16))) {
                        break;
                    }
                    tried.put(dimension, next);
                    Measured m = measureShape(shape, tried, measured);
                    if (m != null && m.decided()) {
                        good = next;
                        top = m;
                    } else {
                        bad = next;
                    }
                }
                if (top != null && top.cost() > best.cost()) {
                    best = top;
                    bestState = new LinkedHashMap<>(state);
                    bestState.put(dimension, good);
                }
            }
            if (bestState == null) {
                break;
            }
            state = bestState;
            current = best;
            System.out.println("   round " + (round + 1) + ": climbed to " + state + " (cost " + "%.2f".formatted(current.cost()) + ")");
        }
        return measured;
    }

    /** Builds and measures one point of a shape; null when the body would be over 1 MiB (not sent: the body limit). */
    private Measured measureShape(Shape shape, Map<String, Integer> dims, List<Measured> into) throws Exception {
        ObjectNode request = shape.build().apply(dims);
        byte[] body = CostlyRequests.bytes(request);
        if (body.length >= BODY_LIMIT) {
            return null;
        }
        Measured m = measure(shape.target(), dims.toString().replace(" ", ""), body);
        into.add(m);
        return m;
    }

    Measured measure(String target, String shape, ObjectNode request) throws Exception {
        return measure(target, shape, CostlyRequests.bytes(request));
    }

    Measured measure(String target, String shapeName, byte[] body) throws Exception {
        requests++;
        jcmd("GC.run");
        long gcStart = Files.size(gcLog);
        long baseline = lastAfter(gcStart);
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong worstProbe = new AtomicLong();
        Thread probe = new Thread(() -> {
            while (running.get()) {
                long started = System.nanoTime();
                try {
                    int status = post("implementation", SMALL.getBytes(StandardCharsets.UTF_8)).statusCode();
                    if (status >= 500) {
                        synchronized (this) {
                            serverErrors++;
                        }
                    }
                } catch (Exception e) {
                    synchronized (this) {
                        lostConnections++;
                    }
                }
                worstProbe.accumulateAndGet((System.nanoTime() - started) / 1_000_000, Math::max);
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        long cpu = cpuMs();
        long started = System.nanoTime();
        probe.start();
        int status;
        long responseBytes = 0;
        String problem = "";
        try {
            HttpResponse<byte[]> response = post(target, body);
            status = response.statusCode();
            responseBytes = response.body().length;
            if (status >= 400) {
                String text = new String(response.body(), StandardCharsets.UTF_8);
                Matcher units = Pattern.compile("is ([0-9,]+) units of work").matcher(text);
                problem = units.find() ? "work " + units.group(1) : text.substring(0, Math.min(160, text.length()));
            }
        } catch (IOException e) {
            status = -1;
            problem = "lost connection: " + e;
            lostConnections++;
        }
        long wallMs = (System.nanoTime() - started) / 1_000_000;
        long cpuMs = cpuMs() - cpu;
        running.set(false);
        probe.join();
        if (status >= 500) {
            serverErrors++;
        }
        // the heap the request held: the highest heap after a collection while it ran, over the baseline; when none
        // ran, what it allocated at most: the heap in use now, over the baseline
        long highest = -1;
        for (String line : linesFrom(gcStart)) {
            Matcher m = GC_LINE.matcher(line);
            if (m.find() && !line.contains("System.gc()")) {
                highest = Math.max(highest, Long.parseLong(m.group(2)));
            }
        }
        boolean fromGc = highest >= 0;
        long heap = fromGc ? highest - baseline : Math.max(0, usedMiB() - baseline);
        Measured measured = new Measured(target, shapeName, status, body.length, wallMs, cpuMs, Math.max(0, heap), fromGc,
                worstProbe.get(), responseBytes, problem.replace('\t', ' ').replace('\n', ' '));
        csv.println(String.join("\t", target, shapeName, String.valueOf(status), String.valueOf(body.length),
                String.valueOf(wallMs), String.valueOf(cpuMs), String.valueOf(measured.heapMiB()), String.valueOf(fromGc),
                String.valueOf(measured.probeMs()), String.valueOf(responseBytes), measured.problem()));
        csv.flush();
        System.out.println("   " + measured.row() + (problem.isEmpty() ? "" : "  " + problem));
        return measured;
    }

    // ---- the shapes --------------------------------------------------------------------------------------------------

    static Shape shape(String target) {
        return switch (target) {
            // oneOf items (in one rule), inline Implementations, distinct attribute constraints per item, each repeated;
            // matchAll: items without constraints, which every Implementation matches; explain
            case "implementation" -> new Shape(target,
                    dims("items", 2, "implementations", 100, "attributes", 1, "repeats", 1, "matchAll", 0, "explain", 0),
                    dims("items", Limits.ONE_OF_ITEMS, "implementations", Limits.IMPLEMENTATIONS, "attributes", 100,
                            "repeats", 100, "matchAll", 1, "explain", 1),
                    WorstCase::implementation);
            // pattern depth (two rules per depth, with and without revision), typeRefs, path segments below the deepest
            // pattern, copies of the deepest pattern (the same typeRef repeated), patterns of every length covering none
            case "backend" -> new Shape(target,
                    dims("depth", 2, "typeRefs", 500, "below", 0, "copies", 0, "lengths", 0),
                    dims("depth", 120, "typeRefs", Limits.TYPE_REFS, "below", 120, "copies", Limits.RULES_PER_POLICY,
                            "lengths", 120),
                    WorstCase::backend);
            case "rollout" -> new Shape(target,
                    dims("groups", 10, "entries", 1, "clusters", 1_000, "nameLength", 8),
                    dims("groups", Limits.DECISION_GROUPS, "entries", Limits.DECISION_GROUPS, "clusters", Limits.CLUSTERS,
                            "nameLength", Limits.NAME_LENGTH),
                    WorstCase::rollout);
            case "dependencies" -> new Shape(target,
                    dims("policies", 10, "templates", 10, "dependencies", 2, "observed", 0, "nameLength", 8),
                    dims("policies", Limits.POLICIES, "templates", Limits.TEMPLATES_PER_POLICY, "dependencies",
                            Limits.DEPENDENCIES_PER_OWNER, "observed", Limits.DEPENDENCIES_PER_OWNER, "nameLength",
                            Limits.NAME_LENGTH),
                    d -> WorkRequests.templatesAndObserved(d.get("policies"), d.get("templates"), d.get("dependencies"),
                            Math.min(d.get("observed"), d.get("dependencies")), d.get("nameLength")));
            default -> throw new IllegalArgumentException("no target " + target);
        };
    }

    /** Requests the climb may not reach by itself: the findings of issue 44 and their neighbours. */
    static Map<String, ObjectNode> pathological(String target) {
        Map<String, ObjectNode> requests = new LinkedHashMap<>();
        switch (target) {
            case "implementation" -> {
                requests.put("issue 44: 100 items x cap.a 100 times, 100 impls", CostlyRequests.repeatedAttributeRequest(100, 100, 100, false));
                requests.put("100 items x cap.a 100 times, 1,000 impls", CostlyRequests.repeatedAttributeRequest(100, 100, 1_000, false));
                requests.put("explain 50 items x 192 impls (explain limit)", CostlyRequests.explainRequest(50, 192, true));
                requests.put("20 items all matching x 800 impls", implementation(dims("items", 20, "implementations", 800,
                        "attributes", 0, "repeats", 1, "matchAll", 1, "explain", 0)));
            }
            case "backend" -> {
                requests.put("issue 44: patterns 1..120 deep, 1,000 typeRefs", CostlyRequests.backendPatterns(120, 1_000));
                requests.put("patterns 40 deep, 1,000 typeRefs", CostlyRequests.backendPatterns(40, 1_000));
                requests.put("1,000 copies of cap.*, 1,000 typeRefs", backend(dims("depth", 1, "typeRefs", 1_000, "below", 0,
                        "copies", 999, "lengths", 0)));
                requests.put("1,000 typeRefs 124 deep, 1 pattern", WorkRequests.nestedPatterns(1, 1_000, 120));
                requests.put("1,000 typeRefs under 8 covering patterns", WorkRequests.nestedPatterns(4, 1_000));
                requests.put("1,000 typeRefs 70 deep, 70 patterns of every length", WorkRequests.patternsOfEveryLength(70, 1_000));
            }
            case "rollout" -> {
                requests.put("issue 44: 1,000 groups g, 1,000 entries g", WorkRequests.sameNamedGroups(1_000, 1_000, 1_000));
                requests.put("1,000 groups g, 29 entries g, 20,000 clusters", WorkRequests.sameNamedGroups(1_000, 29, Limits.CLUSTERS));
                requests.put("20,000 clusters in one group", WorkRequests.sameNamedGroups(1, 1, Limits.CLUSTERS));
                requests.put("1,000 groups g, 3 entries g, 7,000 clusters", WorkRequests.sameNamedGroups(1_000, 3, 7_000));
            }
            case "dependencies" -> {
                requests.put("issue 44: 20 x 100 templates, 10 ConfigMaps of 253 chars", WorkRequests.templatesAndObserved(20, 100, 10, 0, 253));
                requests.put("20 x 100 templates, 10 unobserved ConfigMaps", WorkRequests.templatesAndObserved(20, 100, 10, 0, 0));
                requests.put("chain of 2,000 policies", CostlyRequests.dependencyChain(Limits.POLICIES, false));
                requests.put("cycle of 1,300 policies", CostlyRequests.dependencyChain(1_300, true));
                requests.put("9 x 100 templates, 10 unobserved ConfigMaps", WorkRequests.templatesAndObserved(9, 100, 10, 0, 0));
            }
            default -> throw new IllegalArgumentException("no target " + target);
        }
        return requests;
    }

    static ObjectNode implementation(Map<String, Integer> d) {
        ObjectNode body = CostlyRequests.explainRequest(0, d.get("implementations"), d.get("explain") == 1);
        ArrayNode oneOf = (ArrayNode) body.get("actionPolicy").get("interface").get("rules").get(0).get("oneOf");
        for (int i = 0; i < d.get("items"); i++) {
            ObjectNode constraints = oneOf.addObject().putObject("implementationConstraints");
            if (d.get("matchAll") == 0) {
                if (d.get("attributes") == 0) {
                    constraints.put("path", "cap.implementation.none.n" + i);
                }
                ArrayNode attributes = constraints.putArray("attributes");
                for (int a = 0; a < d.get("attributes"); a++) {
                    for (int r = 0; r < Math.max(1, d.get("repeats")); r++) {
                        attributes.addObject().put("path", "cap.a" + a);
                    }
                }
            }
        }
        return body;
    }

    static ObjectNode backend(Map<String, Integer> d) {
        int depth = Math.min(d.get("depth"), 124 - d.get("below"));
        ObjectNode body = WorkRequests.nestedPatterns(Math.max(1, depth), d.get("typeRefs"), Math.max(0, d.get("below")));
        ArrayNode rules = (ArrayNode) body.get("actionPolicy").get("typeInstance").get("rules");
        ObjectNode deepest = (ObjectNode) rules.get(rules.size() - 1);
        for (int c = 0; c < d.get("copies") && rules.size() < Limits.RULES_PER_POLICY; c++) {
            rules.add(deepest.deepCopy());
        }
        for (int l = 0; l < d.get("lengths") && rules.size() < Limits.RULES_PER_POLICY; l++) {
            rules.addObject().<ObjectNode>set("typeRef", Documents.jsonMapper().createObjectNode()
                    .put("path", "cap.z" + ".a".repeat(l) + ".*")).putObject("backend").put("id", WorkRequests.HELM_STORAGE);
        }
        return body;
    }

    static ObjectNode rollout(Map<String, Integer> d) {
        ObjectNode body = WorkRequests.sameNamedGroups(d.get("groups"), d.get("entries"), d.get("clusters"));
        String pad = "c".repeat(Math.max(0, d.get("nameLength") - 7));
        body.get("clusters").forEach(c -> ((ObjectNode) c).put("name", pad + c.get("name").asText()));
        body.get("decisionGroups").forEach(g -> {
            ArrayNode members = (ArrayNode) g.get("clusters");
            for (int i = 0; i < members.size(); i++) {
                members.set(i, pad + members.get(i).asText());
            }
        });
        return body;
    }

    private static Map<String, Integer> dims(Object... pairs) {
        Map<String, Integer> dims = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            dims.put((String) pairs[i], (Integer) pairs[i + 1]);
        }
        return dims;
    }

    // ---- the report --------------------------------------------------------------------------------------------------

    void summary(Map<String, List<Measured>> all) throws IOException {
        System.out.println();
        System.out.println("| target | worst request decided (shape) | CPU ms | heap MiB | small decision worst ms | "
                + "slowest refusal ms | requests (decided / refused) |");
        System.out.println("| --- | --- | --- | --- | --- | --- | --- |");
        int overTarget = 0;
        int slowRefusals = 0;
        long worstProbe = 0;
        for (Map.Entry<String, List<Measured>> target : all.entrySet()) {
            Measured worst = null;
            long slowestRefusal = 0;
            int decided = 0;
            int refused = 0;
            for (Measured m : target.getValue()) {
                worstProbe = Math.max(worstProbe, m.probeMs());
                if (m.decided()) {
                    decided++;
                    if (worst == null || m.cost() > worst.cost()) {
                        worst = m;
                    }
                    if (m.cpuMs() > 2000 || m.heapMiB() > 64) {
                        overTarget++;
                    }
                } else if (m.refused()) {
                    refused++;
                    slowestRefusal = Math.max(slowestRefusal, m.wallMs());
                    if (m.wallMs() >= 100) {
                        slowRefusals++;
                    }
                }
            }
            long probe = target.getValue().stream().mapToLong(Measured::probeMs).max().orElse(0);
            System.out.printf("| %s | %s | %s | %s | %d | %d | %d / %d |%n", target.getKey(),
                    worst == null ? "-" : worst.shape() + " (" + (worst.bytes() >> 10) + " KB)",
                    worst == null ? "-" : String.valueOf(worst.cpuMs()),
                    worst == null ? "-" : (worst.heapFromGc() ? "" : "≤") + worst.heapMiB(), probe, slowestRefusal,
                    decided, refused);
        }
        long ooms = 0; // counted by the script from the server's log
        System.out.println();
        System.out.printf("requests %d, decided over 2 s CPU or 64 MiB heap %d, refused in 100 ms or more %d, 5xx %d, "
                + "lost connections %d, small decision worst %d ms%n", requests, overTarget, slowRefusals, serverErrors,
                lostConnections, worstProbe);
    }

    // ---- the server ---------------------------------------------------------------------------------------------------

    private void warmUp() throws Exception {
        for (int i = 0; i < 20; i++) {
            post("implementation", SMALL.getBytes(StandardCharsets.UTF_8));
            for (String target : List.of("implementation", "backend", "rollout", "dependencies")) {
                Shape shape = shape(target);
                post(target, CostlyRequests.bytes(shape.build().apply(shape.start())));
            }
        }
    }

    private HttpResponse<byte[]> post(String target, byte[] body) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create(base + "/v1/decisions/" + target))
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    /** User and system CPU time of the server process, from /proc (10 ms ticks). */
    private long cpuMs() throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * TICK_MS;
    }

    private String jcmd(String command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("jcmd", String.valueOf(pid), command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        return output;
    }

    private long usedMiB() throws IOException, InterruptedException {
        Matcher used = Pattern.compile("used (\\d+)K").matcher(jcmd("GC.heap_info"));
        return used.find() ? Long.parseLong(used.group(1)) >> 10 : 0;
    }

    /** The heap after the last collection logged before {@code end} (the full collection just run). */
    private long lastAfter(long end) throws IOException {
        long after = 0;
        try (RandomAccessFile file = new RandomAccessFile(gcLog.toFile(), "r")) {
            long from = Math.max(0, end - 4096);
            file.seek(from);
            byte[] tail = new byte[(int) (end - from)];
            file.readFully(tail);
            for (String line : new String(tail, StandardCharsets.UTF_8).split("\n")) {
                Matcher m = GC_LINE.matcher(line);
                if (m.find()) {
                    after = Long.parseLong(m.group(2));
                }
            }
        }
        return after;
    }

    private List<String> linesFrom(long offset) throws IOException {
        try (RandomAccessFile file = new RandomAccessFile(gcLog.toFile(), "r")) {
            file.seek(offset);
            byte[] rest = new byte[(int) (file.length() - offset)];
            file.readFully(rest);
            return List.of(new String(rest, StandardCharsets.UTF_8).split("\n"));
        }
    }
}
