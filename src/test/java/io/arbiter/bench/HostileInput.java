package io.arbiter.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A hostile-input run against a live server (bench/hostile.sh starts one under -Xmx512m): classes of malformed,
 * out-of-range, deep, huge and protocol-level requests, each counted by what came back. What counts as a defect:
 * a 5xx, no answer within {@link #HANG}, an error status without the contract's JSON error body, a decision-log
 * line that is not a whole JSON record, and a log that stops recording well-formed decisions afterwards.
 *
 * <pre>java -cp ... io.arbiter.bench.HostileInput BASE_URL ADMIN_TOKEN DECISION_LOG</pre>
 */
public final class HostileInput {

    static final Duration HANG = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final String IFACE = "cap.interface.database.postgresql.install";

    private final String base;
    private final String token;
    private final Path decisionLog;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Map<String, Tally> tallies = new LinkedHashMap<>();
    private final List<String> defects = new ArrayList<>();

    /** What one class of requests got back. */
    static final class Tally {
        int requests, ok, client, server, hangs, unrendered;
        long worstMillis, worstBytes;
        String worstCase = "";

        @Override
        public String toString() {
            return String.format("%5d %5d %5d %5d %5d %10d %8d ms %10d B  %s", requests, ok, client, server, hangs,
                    unrendered, worstMillis, worstBytes, worstCase);
        }
    }

    HostileInput(String base, String token, Path decisionLog) {
        this.base = base;
        this.token = token;
        this.decisionLog = decisionLog;
    }

    public static void main(String[] args) throws Exception {
        HostileInput run = new HostileInput(args[0], args.length > 1 ? args[1] : "", args.length > 2 ? Path.of(args[2]) : null);
        ProbeLatency probe = new ProbeLatency(run);
        probe.start();
        run.all();
        probe.stop();
        run.report(probe.worstMillis.get());
        System.exit(run.defects.isEmpty() ? 0 : 1);
    }

    void all() throws Exception {
        unicode();
        shapes();
        numbersAndTimes();
        depthAndYaml();
        size();
        concurrent();
        stalled();
        leak();
        http();
        protocol();
        conformance();
        cost();
        auditSurvives();
    }

    // ---- classes -------------------------------------------------------------------------------------------

    void unicode() {
        String[] bad = {"\\ud800", "a\\udc00b", "\\ud800\\ud800", "\\udbff", "x\\ud83d"};
        for (String s : bad) {
            post("unicode", "rollout cluster " + s, "rollout", rollout().toString().replace("\"c1\"", "\"c1" + s + "\""));
            post("unicode", "backend path " + s, "backend", "{\"typeRefs\":[{\"path\":\"cap.type.a" + s + "\"}]}");
            post("unicode", "dependency policy " + s, "dependencies", dependencies(2, false).toString()
                    .replace("\"p0\"", "\"p0" + s + "\""));
            post("unicode", "inline implementation " + s, "implementation", implementationWithInline(1, 1, false)
                    .toString().replace("\"install\"", "\"install" + s + "\""));
            post("unicode", "object key " + s, "implementation", "{\"interface\":{\"path\":\"" + IFACE + "\"},\"k" + s + "\":1}");
            post("unicode", "policy validate " + s, "/v1/policy/validate", "application/json",
                    ("{\"interface\":{\"rules\":[{\"interface\":{\"path\":\"cap.x" + s + "\"},\"oneOf\":[]}]}}").getBytes(StandardCharsets.UTF_8));
            post("unicode", "yaml escape " + s, "/v1/decisions/implementation", "application/yaml",
                    ("interface:\n  path: \"" + IFACE + s + "\"\n").getBytes(StandardCharsets.UTF_8));
        }
        byte[][] raw = {
                {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, // CESU-8 surrogate
                {(byte) 0xc0, (byte) 0xaf},             // overlong '/'
                {(byte) 0xe0, (byte) 0x80, (byte) 0xaf}, // overlong, three bytes
                {(byte) 0xff}, {(byte) 0xfe, (byte) 0xff}, {(byte) 0x80},
                {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // above U+10FFFF
                {(byte) 0xe2, (byte) 0x82}, // truncated
        };
        for (byte[] bytes : raw) {
            String name = "raw " + hex(bytes);
            post("unicode", name + " json", "/v1/decisions/implementation", "application/json",
                    concat("{\"interface\":{\"path\":\"cap.", bytes, "\"}}"));
            post("unicode", name + " yaml", "/v1/decisions/implementation", "application/yaml",
                    concat("interface:\n  path: cap.", bytes, "\n"));
            post("unicode", name + " policy", "/v1/policy/validate", "application/yaml",
                    concat("interface:\n  rules:\n    - interface: {path: cap.", bytes, "}\n      oneOf: []\n"));
        }
    }

    /** Every node of a valid request of every target, replaced by a value of every other JSON type. */
    void shapes() {
        Map<String, JsonNode> valid = new LinkedHashMap<>();
        valid.put("implementation", implementationWithPolicy());
        valid.put("backend", backendWithPolicy());
        valid.put("dependencies", dependencies(3, false));
        valid.put("rollout", rollout());
        valid.put("/v1/policy/validate", policy());
        JsonNode[] replacements = {F.objectNode(), F.arrayNode(), F.textNode(""), F.numberNode(0), F.nullNode(),
                F.booleanNode(true), F.numberNode(-1), F.numberNode(1.5)};
        valid.forEach((target, request) -> {
            post("shapes", target + " valid", target, request.toString());
            for (String pointer : pointers(request, "")) {
                for (JsonNode replacement : replacements) {
                    JsonNode mutated = request.deepCopy();
                    replace(mutated, pointer, replacement);
                    post("shapes", target + " " + pointer + "=" + replacement, target, mutated.toString());
                }
            }
        });
        for (String body : new String[]{"[]", "\"x\"", "1", "null", "", " ", "{", "{}}", "{\"a\":1,\"a\":2}", "{\"\":1}"}) {
            post("shapes", "document " + body, "implementation", body);
            post("shapes", "document " + body, "/v1/policy/validate", "application/json", body.getBytes(StandardCharsets.UTF_8));
        }
        put("shapes", "PUT rules as object", "{\"interface\":{\"rules\":{\"x\":1}}}", Map.of());
    }

    void numbersAndTimes() {
        String[] numbers = {"2147483648", "-2147483649", "9223372036854775808", "1e400", "-1e400", "1e-400", "1.0e2",
                "0.5", "-0", "1" + "0".repeat(1000), "0." + "1".repeat(2000)};
        for (String n : numbers) {
            String label = n.length() > 24 ? n.substring(0, 12) + "…(" + n.length() + " chars)" : n;
            post("numbers", "groupIndex " + label, "rollout", rollout().toString().replace("\"groupIndex\":1", "\"groupIndex\":" + n));
            post("numbers", "maxConcurrency " + label, "rollout", rollout().toString().replace("\"maxConcurrency\":2", "\"maxConcurrency\":" + n));
            post("numbers", "maxFailures " + label, "rollout", rollout().toString().replace("\"maxFailures\":\"10%\"", "\"maxFailures\":" + n));
            post("numbers", "maxFailures % " + label, "rollout", rollout().toString().replace("\"maxFailures\":\"10%\"", "\"maxFailures\":\"" + n + "%\""));
            post("numbers", "totalViolations " + label, "dependencies", dependencies(2, false).toString()
                    .replace("\"totalViolations\":0", "\"totalViolations\":" + n));
        }
        String[] times = {"9999-12-31T23:59:59Z", "0000-01-01T00:00:00Z", "2026-01-01T00:00:00.Z", "2026-13-01T00:00:00Z",
                "2026-02-30T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T00:00:60Z", "2026-01-01T00:00:00+25:00",
                "2026-01-01T00:00:00." + "9".repeat(5000) + "Z", "+1000000-01-01T00:00:00Z", "2026-01-01"};
        for (String t : times) {
            String label = t.length() > 32 ? t.substring(0, 20) + "…" : t;
            post("times", "now " + label, "rollout", rollout().toString().replace("\"2026-01-01T00:10:00Z\"", "\"" + t + "\""));
            post("times", "lastTransitionTime " + label, "rollout", rollout().toString().replace("\"2026-01-01T00:08:00Z\"", "\"" + t + "\""));
        }
        String[] durations = {"1s".repeat(1000), "1s".repeat(100_000), "9999999999999999999h", "2562048h", "-1s", "1.5.5s",
                "1e9h", "s", "", "0", "1" + "0".repeat(500) + "s", ".s", "1..s"};
        for (String d : durations) {
            String label = d.length() > 24 ? d.substring(0, 8) + "…(" + d.length() + " chars)" : d;
            post("times", "minSuccessTime " + label, "rollout", rollout().toString().replace("\"60s\"", "\"" + d + "\""));
            post("times", "progressDeadline " + label, "rollout", rollout().toString().replace("\"10m\"", "\"" + d + "\""));
        }
    }

    void depthAndYaml() {
        for (int depth : new int[]{63, 64, 65, 66, 1_000, 100_000}) {
            String nested = "[".repeat(depth) + "]".repeat(depth);
            post("depth", "json arrays " + depth, "implementation", "{\"interface\":{\"path\":\"" + IFACE + "\"},\"x\":" + nested + "}");
            post("depth", "json objects " + depth, "implementation", "{\"a\":".repeat(depth) + "1" + "}".repeat(depth));
            post("depth", "yaml flow " + depth, "/v1/decisions/implementation", "application/yaml", nested.getBytes(StandardCharsets.UTF_8));
            StringBuilder block = new StringBuilder();
            for (int i = 0; i < Math.min(depth, 2_000); i++) {
                block.append("  ".repeat(i)).append("a:\n");
            }
            post("depth", "yaml block " + Math.min(depth, 2_000), "/v1/decisions/implementation", "application/yaml",
                    block.toString().getBytes(StandardCharsets.UTF_8));
            post("depth", "policy arrays " + depth, "/v1/policy/validate", "application/json",
                    ("{\"interface\":" + nested + "}").getBytes(StandardCharsets.UTF_8));
        }
        StringBuilder laughs = new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        for (char c = 'b'; c <= 'j'; c++) {
            laughs.append(c).append(": &").append(c).append(" [").append(("*" + (char) (c - 1) + ",").repeat(9)).append("*").append((char) (c - 1)).append("]\n");
        }
        String[] yamls = {laughs.toString(), "interface: &x {path: " + IFACE + "}\nother: *x\n", "a: *nothing\n",
                "---\ninterface: {path: " + IFACE + "}\n---\ninterface: {path: " + IFACE + "}\n",
                "!!javax.script.ScriptEngineManager [!!java.net.URLClassLoader [[!!java.net.URL [\"http://127.0.0.1/\"]]]]\n",
                "interface: !!binary aGVsbG8=\n", "? [a, b]\n: c\n", "interface:\n\tpath: x\n", "%YAML 9.9\n---\na: 1\n",
                "a: 1\na: 2\n", "<<: {interface: {path: " + IFACE + "}}\n", "interface: {path: " + IFACE + "}\n...\ngarbage: [\n"};
        for (String yaml : yamls) {
            String label = yaml.length() > 40 ? yaml.substring(0, 40).replace('\n', ' ') + "…" : yaml.replace('\n', ' ');
            post("depth", "yaml " + label, "/v1/decisions/implementation", "application/yaml", yaml.getBytes(StandardCharsets.UTF_8));
            post("depth", "policy yaml " + label, "/v1/policy/validate", "application/yaml", yaml.getBytes(StandardCharsets.UTF_8));
        }
    }

    void size() {
        post("size", "dependency chain 1000", "dependencies", dependencies(1_000, false).toString());
        post("size", "dependency chain 2000", "dependencies", dependencies(2_000, false).toString());
        post("size", "dependency chain 4000", "dependencies", dependencies(4_000, false).toString());
        post("size", "dependency cycle 1000", "dependencies", dependencies(1_000, true).toString());
        post("size", "dependency cycle 2000", "dependencies", dependencies(2_000, true).toString());
        post("size", "explain 300 oneOf x 1500 inline", "implementation", implementationWithInline(300, 1_500, true).toString());
        post("size", "explain 2000 oneOf x 100 inline", "implementation", implementationWithInline(2_000, 100, true).toString());
        post("size", "string of 1000000 chars", "implementation", "{\"interface\":{\"path\":\"cap." + "a".repeat(1_000_000) + "\"}}");
        post("size", "100000 empty objects", "implementation", "{\"interface\":{\"path\":\"" + IFACE + "\"},\"implementations\":["
                + "{},".repeat(99_999) + "{}]}");
        post("size", "2000 policies x 100 empty templates", "dependencies", emptyTemplates());
        post("size", "330000 empty observed objects", "dependencies", emptyObserved());
        post("size", "rollout 20000 clusters", "rollout", rolloutClusters(20_000).toString());
        post("size", "rollout 30000 groups", "rollout", rolloutGroups(30_000).toString());
        post("size", "backend 40000 typeRefs", "backend", backendTypeRefs(40_000).toString());
        post("size", "dependencies 30000 observed", "dependencies", observed(30_000).toString());
        post("size", "2 MiB body", "implementation", "{\"interface\":{\"path\":\"" + IFACE + "\"},\"x\":\"" + "a".repeat(2 << 20) + "\"}");
    }

    /**
     * Large bodies of empty objects, eight at once: each parses into a tree tens of times its size, so the server
     * decides as many as its heap allows and refuses the others (413 with Retry-After) instead of running out of memory.
     */
    void concurrent() {
        eightAtOnce("2000 policies x 100 empty templates", emptyTemplates());
        eightAtOnce("330000 empty observed objects", emptyObserved());
    }

    private void eightAtOnce(String name, String dependencies) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/v1/decisions/dependencies")).timeout(HANG)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(dependencies)).build();
        long started = System.nanoTime();
        List<CompletableFuture<HttpResponse<byte[]>>> answers = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            answers.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()));
        }
        Map<Integer, Integer> statuses = new TreeMap<>();
        for (int i = 0; i < answers.size(); i++) {
            statuses.merge(settle("concurrent", name + " #" + (i + 1) + " of 8", started, answers.get(i)).status(), 1, Integer::sum);
        }
        System.out.printf("%s, eight at once: answered %s (status=count)%n", name, statuses);
    }

    /**
     * Six hundred connections that each announce a 1 MiB body, send all of it but its last bytes and stall: the server
     * holds only as many as its heap allows, and meanwhile still answers a small decision and a large one (decided,
     * or refused for now with 413).
     */
    void stalled() throws IOException {
        int size = 1 << 20;
        byte[] body = ("{\"apiVersion\":\"0.1.0\",\"policies\":[],\"observed\":[" + "{},".repeat(size / 3)).substring(0, size - 10)
                .getBytes(StandardCharsets.US_ASCII);
        URI uri = URI.create(base);
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < 600; i++) {
                Socket socket = new Socket(uri.getHost(), uri.getPort());
                sockets.add(socket);
                OutputStream out = socket.getOutputStream();
                out.write(("POST /v1/decisions/dependencies HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                        + "Content-Length: " + size + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(body);
                out.flush();
            }
            Result small = post("stalled", "small decision beside 600 stalled 1 MiB bodies", "implementation",
                    "{\"interface\":{\"path\":\"" + IFACE + "\"}}");
            if (small.status() != 200) {
                defects.add("stalled: a small decision beside 600 stalled bodies was answered " + small.status());
            }
            post("stalled", "large decision beside 600 stalled 1 MiB bodies", "dependencies", emptyTemplates());
        } finally {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }

    /** Decisions whose inline Implementations carry huge revisions: the heap they leave behind is reported by the script. */
    void leak() {
        for (int i = 0; i < 120; i++) {
            ObjectNode request = implementationWithInline(1, 1, false);
            String revision = "1.0." + i + "-" + "r".repeat(420_000);
            ObjectNode impl = (ObjectNode) request.get("implementations").get(0);
            impl.put("revision", revision);
            post("leak", "revision of 420 KB #" + i, "implementation", request.toString());
        }
    }

    void http() {
        byte[] body = ("{\"interface\":{\"path\":\"" + IFACE + "\"}}").getBytes(StandardCharsets.UTF_8);
        post("http", "form-urlencoded with %", "/v1/decisions/implementation", "application/x-www-form-urlencoded",
                "{\"interface\":{\"path\":\"cap.%zz%\"}}".getBytes(StandardCharsets.UTF_8));
        post("http", "multipart", "/v1/decisions/implementation", "multipart/form-data; boundary=x", body);
        post("http", "text/plain", "/v1/decisions/implementation", "text/plain", body);
        post("http", "no content type", "/v1/decisions/implementation", null, body);
        post("http", "unknown target", "/v1/decisions/no-such-target", "application/json", body);
        post("http", "unknown path", "/v2/x", "application/json", body);
        send("http", "GET on a decision", HttpRequest.newBuilder(URI.create(base + "/v1/decisions/implementation")).GET());
        send("http", "DELETE policy", HttpRequest.newBuilder(URI.create(base + "/v1/policy")).DELETE());
        send("http", "decision by unknown id", HttpRequest.newBuilder(URI.create(base + "/v1/decisions/" + "x".repeat(5_000))).GET());
        send("http", "policy type %", HttpRequest.newBuilder(URI.create(base + "/v1/policy-types/%25zz")).GET());
        String policy = "{\"interface\":{\"rules\":[{\"interface\":{\"path\":\"cap.*\"},\"oneOf\":[{\"implementationConstraints\":{}}]}]}}";
        put("http", "PUT no token", policy, Map.of("Authorization", ""));
        put("http", "PUT wrong token", policy, Map.of("Authorization", "Bearer wrong"));
        put("http", "PUT If-Match *", policy, Map.of("If-Match", "*"));
        put("http", "PUT If-Match stale", policy, Map.of("If-Match", "\"stale\""));
        put("http", "PUT If-Match garbage", policy, Map.of("If-Match", "\"" + "\\".repeat(1000)));
    }

    /** What a client below HTTP can send: each must be answered with a JSON error or the connection closed, in time. */
    void protocol() {
        raw("protocol", "URI of 100 KB", "GET /" + "a".repeat(100_000) + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
        raw("protocol", "header of 100 KB", "GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-A: " + "a".repeat(100_000) + "\r\n\r\n");
        raw("protocol", "5000 headers", "GET /healthz HTTP/1.1\r\nHost: localhost\r\n" + "X-A: a\r\n".repeat(5_000) + "\r\n");
        raw("protocol", "garbage request line", "GARBAGE\r\n\r\n");
        raw("protocol", "bad version", "GET /healthz HTTP/9.9\r\nHost: localhost\r\n\r\n");
        raw("protocol", "bad chunk size", "POST /v1/decisions/implementation HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n");
        raw("protocol", "content-length and chunked", "POST /v1/decisions/implementation HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n");
        raw("protocol", "negative content-length", "POST /v1/decisions/implementation HTTP/1.1\r\nHost: localhost\r\nContent-Length: -1\r\n\r\n");
        raw("protocol", "stalled body", "POST /v1/decisions/implementation HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: 1000\r\n\r\n{\"interface\":");
        raw("protocol", "stalled headers", "POST /v1/decisions/implementation HTTP/1.1\r\nHost: localhost\r\n");
        raw("protocol", "HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
        raw("protocol", "h2c upgrade", "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                + "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n");
        raw("protocol", "HTTP/1.0 no host", "GET /healthz HTTP/1.0\r\n\r\n");
        raw("protocol", "unknown method", "BREW /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n");
    }

    /**
     * Costly requests within every per-field limit, each once found to harm a replica: a 190 KB implementation request repeating one
     * attribute constraint 100 times in each of 100 oneOf items over 100 inline Implementations (it ran a 512 MiB heap
     * out), backend pattern rules 40 and 120 deep over 1,000 typeRefs (a 21 MB answer; out of memory), 1,000 mandatory
     * entries naming 1,000 groups of one name, and dependencies repeating 253-character names (a 43 MB answer), the
     * backend one twenty times (it flushed the decision log). Each must be refused by its work budget, a JSON 4xx in
     * milliseconds, or decided within bounds.
     */
    void cost() {
        post("cost", "implementation: 100 items x 100 repeated constraints x 100 Implementations", "implementation",
                io.arbiter.testing.CostlyRequests.repeatedAttributeRequest(100, 100, 100, false).toString());
        post("cost", "backend: patterns 120 deep x 1,000 typeRefs", "backend",
                io.arbiter.testing.WorkRequests.nestedPatterns(120, 1_000).toString());
        String deep40 = io.arbiter.testing.WorkRequests.nestedPatterns(40, 1_000).toString();
        for (int i = 0; i < 20; i++) {
            post("cost", "backend: patterns 40 deep x 1,000 typeRefs #" + (i + 1), "backend", deep40);
        }
        post("cost", "rollout: 1,000 mandatory entries naming 1,000 groups of one name", "rollout",
                io.arbiter.testing.WorkRequests.sameNamedGroups(1_000, 1_000, 1_000).toString());
        post("cost", "dependencies: 20 x 100 templates on 10 ConfigMaps of 253-character names", "dependencies",
                io.arbiter.testing.WorkRequests.templatesAndObserved(20, 100, 10, 0, 253).toString());
    }

    /**
     * The requests of issue 44 ("one request must never take a replica down"): framing that could smuggle a
     * request, undecodable targets, bodies the server does not read, early refusals. Each must be a JSON 4xx (or,
     * for HEAD, a 2xx) in time.
     */
    void conformance() {
        String json = "Content-Type: application/json\r\n";
        String post = "POST /v1/decisions/implementation HTTP/1.1\r\nHost: localhost\r\n";
        String hidden = "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n";
        raw("conformance", "xchunked", post + json + "Transfer-Encoding: xchunked\r\n\r\n" + hidden);
        raw("conformance", "Transfer-Encoding twice", post + json + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
        raw("conformance", "folded Transfer-Encoding", post + json + "Transfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n");
        raw("conformance", "HTTP/1.1 without Host", "GET /healthz HTTP/1.1\r\n\r\n");
        raw("conformance", "foreign Host", "GET /healthz HTTP/1.1\r\nHost: evil.example\r\n\r\n");
        raw("conformance", "% in the path", "GET /v1/decisions/%zz HTTP/1.1\r\nHost: localhost\r\n\r\n");
        raw("conformance", "% in the query", "POST /v1/policy/validate?as=% HTTP/1.1\r\nHost: localhost\r\n" + json
                + "Content-Length: 2\r\n\r\n{}");
        raw("conformance", "text/plain body", post + "Content-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}");
        raw("conformance", "gzip body", post + json + "Content-Encoding: gzip\r\nContent-Length: 2\r\n\r\n{}");
        raw("conformance", "unknown admin query parameter", "PUT /v1/policy?dry_run=true HTTP/1.1\r\nHost: localhost\r\n"
                + json + "Content-Length: 2\r\n\r\n{}");
        raw("conformance", "unauthenticated Expect: 100-continue", "PUT /v1/policy HTTP/1.1\r\nHost: localhost\r\n" + json
                + "Expect: 100-continue\r\nContent-Length: 2\r\n\r\n");
        raw("conformance", "HEAD", "HEAD /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    }

    /** After everything above, well-formed decisions are answered and every one of them reaches the log whole. */
    void auditSurvives() throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            Result r = post("audit", "well-formed decision", "implementation", "{\"interface\":{\"path\":\"" + IFACE + "\"}}");
            if (r.status == 200) {
                ids.add(JSON.readTree(r.body).path("decisionId").asText());
            }
        }
        if (ids.size() < 50) {
            defects.add("audit: " + (50 - ids.size()) + " of 50 well-formed decisions after the run were not answered 200");
        }
        if (decisionLog == null) {
            return;
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        List<String> missing;
        LogCheck check;
        do {
            check = LogCheck.read(decisionLog);
            List<String> logged = check.ids;
            missing = ids.stream().filter(id -> !logged.contains(id)).toList();
            if (missing.isEmpty()) {
                break;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        System.out.printf("decision log: %d records, %d lines that are not a whole record%n", check.ids.size(), check.broken);
        if (check.broken > 0) {
            defects.add("audit: " + check.broken + " decision-log lines are not a whole JSON record");
        }
        if (!missing.isEmpty()) {
            defects.add("audit: " + missing.size() + " of the final " + ids.size() + " decisions never reached the log");
        }
    }

    record LogCheck(List<String> ids, int broken) {
        static LogCheck read(Path file) throws IOException {
            List<String> ids = new ArrayList<>();
            int broken = 0;
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                try {
                    JsonNode record = JSON.readTree(line);
                    if (record == null || !record.path("decisionId").isTextual()) {
                        broken++;
                    } else {
                        ids.add(record.get("decisionId").asText());
                    }
                } catch (IOException e) {
                    broken++;
                }
            }
            return new LogCheck(ids, broken);
        }
    }

    // ---- sending and counting ---------------------------------------------------------------------------------

    record Result(int status, byte[] body) {
    }

    private Result post(String cls, String name, String target, String json) {
        return post(cls, name, target.startsWith("/") ? target : "/v1/decisions/" + target, "application/json",
                json.getBytes(StandardCharsets.UTF_8));
    }

    private Result post(String cls, String name, String path, String contentType, byte[] body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        return send(cls, name, request);
    }

    private void put(String cls, String name, String policy, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/v1/policy"))
                .PUT(HttpRequest.BodyPublishers.ofString(policy)).header("Content-Type", "application/json");
        if (!headers.containsKey("Authorization")) {
            request.header("Authorization", "Bearer " + token);
        }
        headers.forEach((k, v) -> {
            if (!v.isEmpty()) {
                request.header(k, v);
            }
        });
        send(cls, name, request);
    }

    private Result send(String cls, String name, HttpRequest.Builder request) {
        return settle(cls, name, System.nanoTime(), client.sendAsync(request.timeout(HANG).build(), HttpResponse.BodyHandlers.ofByteArray()));
    }

    /** Counts the answer to a request sent at {@code started}, once it is in. */
    private Result settle(String cls, String name, long started, CompletableFuture<HttpResponse<byte[]>> answer) {
        Tally tally = tallies.computeIfAbsent(cls, k -> new Tally());
        tally.requests++;
        try {
            HttpResponse<byte[]> response = answer.get();
            long millis = (System.nanoTime() - started) / 1_000_000;
            count(tally, cls, name, response.statusCode(), response.body(), millis);
            return new Result(response.statusCode(), response.body());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof java.net.http.HttpTimeoutException) {
                tally.hangs++;
                defects.add(cls + ": no answer within " + HANG.toSeconds() + " s: " + name);
            } else {
                // the server may close a connection it refuses: count it as refused, unless nothing was said at all
                tally.client++;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return new Result(-1, new byte[0]);
    }

    private void count(Tally tally, String cls, String name, int status, byte[] body, long millis) {
        if (millis > tally.worstMillis) {
            tally.worstMillis = millis;
            tally.worstCase = name.length() > 60 ? name.substring(0, 60) + "…" : name;
        }
        tally.worstBytes = Math.max(tally.worstBytes, body.length);
        if (status < 400) {
            tally.ok++;
        } else if (status < 500) {
            tally.client++;
        } else {
            tally.server++;
            defects.add(cls + ": " + status + " for " + name + ": " + new String(body, 0, Math.min(body.length, 300), StandardCharsets.UTF_8));
        }
        if (status >= 400 && !isErrorBody(body)) {
            tally.unrendered++;
            defects.add(cls + ": " + status + " without a JSON error body for " + name);
        }
    }

    private static boolean isErrorBody(byte[] body) {
        try {
            JsonNode error = JSON.readTree(body).path("error");
            return error.path("code").isTextual() && error.path("message").isTextual();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** A raw exchange: the server must answer (a JSON error for a status of 400 or more) or close, within {@link #HANG}. */
    private void raw(String cls, String name, String request) {
        Tally tally = tallies.computeIfAbsent(cls, k -> new Tally());
        tally.requests++;
        URI uri = URI.create(base);
        long started = System.nanoTime();
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            socket.setSoTimeout((int) HANG.toMillis());
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request.getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            } catch (IOException e) {
                // the server closed before reading everything: a refusal, look at what it said
            }
            byte[] answer = readAll(socket.getInputStream());
            long millis = (System.nanoTime() - started) / 1_000_000;
            String text = new String(answer, StandardCharsets.ISO_8859_1);
            if (answer.length == 0) {
                tally.client++; // closed without a word: refused
                tally.worstMillis = Math.max(tally.worstMillis, millis);
                return;
            }
            int status = Integer.parseInt(text.substring(9, 12));
            int bodyAt = text.indexOf("\r\n\r\n");
            byte[] body = bodyAt < 0 ? new byte[0] : text.substring(bodyAt + 4).getBytes(StandardCharsets.ISO_8859_1);
            count(tally, cls, name, status, dechunk(text, body), millis);
        } catch (java.net.SocketTimeoutException e) {
            tally.hangs++;
            defects.add(cls + ": connection held open " + HANG.toSeconds() + " s without an answer: " + name);
        } catch (IOException | RuntimeException e) {
            tally.client++;
        }
    }

    private static byte[] dechunk(String head, byte[] body) {
        if (!head.toLowerCase().contains("transfer-encoding: chunked")) {
            return body;
        }
        String text = new String(body, StandardCharsets.ISO_8859_1);
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (at < text.length()) {
            int eol = text.indexOf("\r\n", at);
            if (eol < 0) {
                break;
            }
            int size = Integer.parseInt(text.substring(at, eol).trim(), 16);
            if (size == 0) {
                break;
            }
            out.append(text, eol + 2, eol + 2 + size);
            at = eol + 2 + size + 2;
        }
        return out.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Reads one response: up to the end of its body by Content-Length or chunks, or until the server closes. */
    private static byte[] readAll(InputStream in) throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        int n;
        while ((n = in.read(buffer)) > 0) {
            out.write(buffer, 0, n);
            String text = out.toString(StandardCharsets.ISO_8859_1);
            int head = text.indexOf("\r\n\r\n");
            if (head >= 0) {
                String lower = text.substring(0, head).toLowerCase();
                int length = lower.indexOf("content-length:");
                if (length >= 0) {
                    int end = lower.indexOf("\r\n", length);
                    int expected = Integer.parseInt(lower.substring(length + 15, end < 0 ? lower.length() : end).trim());
                    if (out.size() >= head + 4 + expected) {
                        break;
                    }
                } else if (lower.contains("transfer-encoding: chunked") && text.endsWith("0\r\n\r\n")) {
                    break;
                }
            }
        }
        return out.toByteArray();
    }

    void report(long probeWorst) {
        System.out.printf("%-10s %5s %5s %5s %5s %5s %10s %11s %12s  %s%n", "class", "reqs", "2xx", "4xx", "5xx", "hangs",
                "unrendered", "worst", "largest", "slowest case");
        tallies.forEach((cls, tally) -> System.out.printf("%-10s %s%n", cls, tally));
        System.out.printf("a small decision sent every 250 ms meanwhile: worst %d ms%n", probeWorst);
        System.out.println(defects.isEmpty() ? "defects: 0" : "defects: " + defects.size());
        defects.stream().limit(60).forEach(d -> System.out.println("  " + d));
    }

    /** Well-formed small decisions sent throughout the run: how long other clients wait while hostile ones are served. */
    static final class ProbeLatency {
        final AtomicLong worstMillis = new AtomicLong();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        ProbeLatency(HostileInput run) {
            HttpClient probe = HttpClient.newHttpClient();
            thread = new Thread(() -> {
                while (running.get()) {
                    long started = System.nanoTime();
                    try {
                        probe.send(HttpRequest.newBuilder(URI.create(run.base + "/v1/decisions/implementation"))
                                .header("Content-Type", "application/json").timeout(HANG)
                                .POST(HttpRequest.BodyPublishers.ofString("{\"interface\":{\"path\":\"" + IFACE + "\"}}")).build(),
                                HttpResponse.BodyHandlers.discarding());
                        worstMillis.accumulateAndGet((System.nanoTime() - started) / 1_000_000, Math::max);
                        Thread.sleep(250);
                    } catch (IOException e) {
                        worstMillis.accumulateAndGet((System.nanoTime() - started) / 1_000_000, Math::max);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "probe");
            thread.setDaemon(true);
        }

        void start() {
            thread.start();
        }

        void stop() throws InterruptedException {
            running.set(false);
            thread.join(HANG.toMillis());
        }
    }

    // ---- requests ----------------------------------------------------------------------------------------------

    static String emptyTemplates() {
        String policy = "{\"name\":\"a\",\"namespace\":\"b\",\"policyTemplates\":[" + "{},".repeat(99) + "{}]}";
        return "{\"apiVersion\":\"0.1.0\",\"policies\":[" + (policy + ",").repeat(1_999) + policy + "]}";
    }

    static String emptyObserved() {
        return "{\"apiVersion\":\"0.1.0\",\"policies\":[],\"observed\":[" + "{},".repeat(329_999) + "{}]}";
    }

    static ObjectNode rollout() {
        ObjectNode r = F.objectNode();
        r.put("apiVersion", "0.1.0");
        r.put("remediationAction", "enforce");
        ObjectNode progressive = r.putObject("strategy").put("type", "Progressive").putObject("progressive");
        progressive.put("minSuccessTime", "60s").put("progressDeadline", "10m").put("maxFailures", "10%").put("maxConcurrency", 2);
        progressive.putArray("mandatoryDecisionGroups").addObject().put("groupName", "canary");
        ArrayNode groups = r.putArray("decisionGroups");
        groups.addObject().put("groupName", "canary").put("groupIndex", 0).putArray("clusters").add("c1").add("c2");
        groups.addObject().put("groupName", "").put("groupIndex", 1).putArray("clusters").add("c3").add("c4");
        r.putArray("clusters").addObject().put("name", "c1").put("status", "Succeeded").put("lastTransitionTime", "2026-01-01T00:08:00Z");
        r.put("now", "2026-01-01T00:10:00Z");
        return r;
    }

    static ObjectNode rolloutClusters(int n) {
        ObjectNode r = rollout();
        ArrayNode clusters = (ArrayNode) r.get("decisionGroups").get(1).get("clusters");
        ArrayNode records = (ArrayNode) r.get("clusters");
        for (int i = 0; i < n; i++) {
            clusters.add("x" + i);
            records.addObject().put("name", "x" + i).put("status", i % 3 == 0 ? "Progressing" : "Succeeded")
                    .put("lastTransitionTime", "2026-01-01T00:0" + (i % 10) + ":00Z");
        }
        return r;
    }

    static ObjectNode rolloutGroups(int n) {
        ObjectNode r = rollout();
        ArrayNode groups = (ArrayNode) r.get("decisionGroups");
        for (int i = 2; i < n; i++) {
            groups.addObject().put("groupName", "g").put("groupIndex", i).putArray("clusters").add("y" + i);
        }
        return r;
    }

    /** A chain p0 <- p1 <- ... (each policy depends on the previous one), closed into a cycle if asked. */
    static ObjectNode dependencies(int n, boolean cycle) {
        ObjectNode r = F.objectNode();
        r.put("apiVersion", "0.1.0");
        ArrayNode policies = r.putArray("policies");
        for (int i = 0; i < n; i++) {
            ObjectNode p = policies.addObject().put("name", "p" + i).put("namespace", "ns");
            ArrayNode deps = p.putArray("dependencies");
            if (i > 0 || cycle) {
                deps.addObject().put("apiVersion", "policy.open-cluster-management.io/v1").put("kind", "Policy")
                        .put("name", "p" + ((i + n - 1) % n)).put("namespace", "ns").put("compliance", "Compliant");
            }
            p.putArray("policyTemplates").addObject().put("name", "t" + i).put("kind", "ConfigurationPolicy");
        }
        r.putArray("observed").addObject().put("apiVersion", "templates.gatekeeper.sh/v1").put("kind", "K8sRequired")
                .put("name", "k").put("compliant", "Compliant").put("totalViolations", 0);
        return r;
    }

    static ObjectNode observed(int n) {
        ObjectNode r = dependencies(2, false);
        ArrayNode observed = (ArrayNode) r.get("observed");
        for (int i = 0; i < n; i++) {
            observed.addObject().put("apiVersion", "v1").put("kind", "ConfigMap").put("name", "c" + i)
                    .put("namespace", "default").put("compliant", "Compliant");
        }
        return r;
    }

    static ObjectNode backendWithPolicy() {
        ObjectNode r = F.objectNode();
        r.putArray("typeRefs").addObject().put("path", "cap.type.database.postgresql.config").put("revision", "0.1.0");
        ObjectNode rule = r.putObject("actionPolicy").putObject("typeInstance").putArray("rules").addObject();
        rule.putObject("typeRef").put("path", "cap.type.database.postgresql.config").put("revision", "0.1.0");
        rule.putObject("backend").put("id", "c268d3f5-8834-434b-bea2-b677793611c5");
        return r;
    }

    static ObjectNode backendTypeRefs(int n) {
        ObjectNode r = F.objectNode();
        ArrayNode refs = r.putArray("typeRefs");
        for (int i = 0; i < n; i++) {
            refs.addObject().put("path", "cap.type.t" + i).put("revision", "0.1.0");
        }
        return r;
    }

    static ObjectNode policy() {
        ObjectNode policy = F.objectNode();
        ObjectNode iface = policy.putObject("interface");
        ObjectNode rule = iface.putArray("rules").addObject();
        rule.putObject("interface").put("path", IFACE).put("revision", "0.1.0");
        ObjectNode item = rule.putArray("oneOf").addObject();
        ObjectNode constraints = item.putObject("implementationConstraints");
        constraints.putArray("attributes").addObject().put("path", "cap.attribute.cloud.provider.aws");
        constraints.putArray("requires").addObject().put("path", "cap.core.type.platform.kubernetes");
        item.putObject("inject").putArray("requiredTypeInstances").addObject()
                .put("id", "c268d3f5-8834-434b-bea2-b677793611c5").put("description", "helm storage");
        return policy;
    }

    static ObjectNode implementationWithPolicy() {
        ObjectNode r = F.objectNode();
        r.putObject("interface").put("path", IFACE).put("revision", "0.1.0");
        r.set("actionPolicy", policy());
        r.putArray("workflowPolicies").add(policy());
        r.putArray("typeInstances").addObject().put("id", "c268d3f5-8834-434b-bea2-b677793611c5")
                .putObject("typeRef").put("path", "cap.type.helm.release.storage").put("revision", "0.1.0");
        r.put("explain", true);
        return r;
    }

    /** {@code oneOf} items × inline Implementations of one Interface, each with attributes the items ask for. */
    static ObjectNode implementationWithInline(int items, int implementations, boolean explain) {
        ObjectNode r = F.objectNode();
        r.putObject("interface").put("path", "cap.interface.x.install").put("revision", "0.1.0");
        ObjectNode rule = r.putObject("actionPolicy").putObject("interface").putArray("rules").addObject();
        rule.putObject("interface").put("path", "cap.interface.x.install");
        ArrayNode list = rule.putArray("oneOf");
        for (int i = 0; i < items; i++) {
            list.addObject().putObject("implementationConstraints").putArray("attributes").addObject().put("path", "cap.attribute.a" + i);
        }
        ArrayNode impls = r.putArray("implementations");
        for (int i = 0; i < implementations; i++) {
            ObjectNode impl = impls.addObject();
            impl.put("ocfVersion", "0.0.1").put("revision", "0.1.0").put("kind", "Implementation");
            impl.putObject("metadata").put("prefix", "cap.implementation.v" + i).put("name", "install")
                    .putObject("attributes").putObject("cap.attribute.b" + i).put("revision", "0.1.0");
            impl.putObject("spec").putArray("implements").addObject().put("path", "cap.interface.x.install").put("revision", "0.1.0");
        }
        r.put("explain", explain);
        return r;
    }

    // ---- small helpers ------------------------------------------------------------------------------------------

    /** JSON pointers of every node below the root. */
    static List<String> pointers(JsonNode node, String at) {
        List<String> out = new ArrayList<>();
        if (node.isObject()) {
            for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                String child = at + "/" + name.replace("~", "~0").replace("/", "~1");
                out.add(child);
                out.addAll(pointers(node.get(name), child));
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                out.add(at + "/" + i);
                out.addAll(pointers(node.get(i), at + "/" + i));
            }
        }
        return out;
    }

    static void replace(JsonNode root, String pointer, JsonNode value) {
        int cut = pointer.lastIndexOf('/');
        JsonNode parent = root.at(pointer.substring(0, cut));
        String last = pointer.substring(cut + 1).replace("~1", "/").replace("~0", "~");
        if (parent instanceof ObjectNode object) {
            object.set(last, value);
        } else if (parent instanceof ArrayNode array) {
            array.set(Integer.parseInt(last), value);
        }
    }

    private static byte[] concat(String before, byte[] middle, String after) {
        byte[] a = before.getBytes(StandardCharsets.UTF_8);
        byte[] c = after.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[a.length + middle.length + c.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(middle, 0, out, a.length, middle.length);
        System.arraycopy(c, 0, out, a.length + middle.length, c.length);
        return out;
    }

    private static String hex(byte[] bytes) {
        StringBuilder s = new StringBuilder();
        for (byte b : bytes) {
            s.append(String.format("\\x%02x", b));
        }
        return s.toString();
    }

}
