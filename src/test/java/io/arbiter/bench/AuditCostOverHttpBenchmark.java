package io.arbiter.bench;

import io.arbiter.runtime.Decisions;
import io.arbiter.decision.Settings;
import io.arbiter.http.ArbiterServer;
import io.arbiter.http.ServerOptions;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What auditing costs in the service's decision throughput: {@link AuditCostInterleavedBenchmark}'s three cases, each
 * served over HTTP by the service's routes ({@link ArbiterServer#router}) in one Vert.x instance, as {@code serve}
 * serves them: the request parsed on the event loop, decided on a worker, the response rendered and written on the
 * event loop. The client keeps {@value #IN_FLIGHT} requests in flight (one keep-alive connection each), so the two
 * cores are busy with the service and the decision log's thread competes with it, as under load. An invocation is a
 * turn of {@value #REQUESTS_PER_TURN} requests of each case, the order rotating; each case's time goes to an auxiliary
 * counter with the names {@link AuditCostSummary} reads. The client is a few socket writes and reads per request, so
 * nearly all the time measured is the service's. Run {@code bash bench/audit-cost.sh --http}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = BenchData.AS_DEPLOYED)
@Warmup(iterations = 20, time = 3)
@Measurement(iterations = 20, time = 3)
@State(Scope.Benchmark)
public class AuditCostOverHttpBenchmark {

    static final int REQUESTS_PER_TURN = 100;
    static final int IN_FLIGHT = 4;

    private final AuditCostBenchmark cases = new AuditCostBenchmark();
    private Vertx vertx;
    /** Per case (without recording or log, recording only, recording and log): its connections. */
    private final List<List<Connection>> connections = new ArrayList<>();

    /** Nanoseconds each case took in this iteration, over the same number of requests. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Turns {
        public long withoutRecordingOrLogNanos;
        public long withRecordingOnlyNanos;
        public long withRecordingAndLogNanos;
        private int rotation;
        private long logged = 1; // AuditCostBenchmark.setUp decided once with the log

        @Setup(Level.Iteration)
        public void reset() {
            withoutRecordingOrLogNanos = 0;
            withRecordingOnlyNanos = 0;
            withRecordingAndLogNanos = 0;
        }
    }

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        cases.setUp();
        vertx = Vertx.vertx();
        ServerOptions options = new ServerOptions("127.0.0.1", 0, Settings.embedded(), null);
        for (Decisions decisions : List.of(cases.unaudited(), cases.recordedOnly(), cases.audited())) {
            HttpServer server = vertx.createHttpServer().requestHandler(ArbiterServer.router(vertx, decisions, options))
                    .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            List<Connection> open = new ArrayList<>();
            for (int i = 0; i < IN_FLIGHT; i++) {
                open.add(new Connection(server.actualPort(), cases.request()));
            }
            connections.add(open);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        for (List<Connection> open : connections) {
            for (Connection connection : open) {
                connection.close();
            }
        }
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        cases.tearDown();
    }

    @Benchmark
    public long turnOfEachCase(Turns turns) throws IOException {
        long bytes = 0;
        for (int k = 0; k < 3; k++) {
            int c = (k + turns.rotation) % 3;
            List<Connection> open = connections.get(c);
            long started = System.nanoTime();
            for (int sent = 0; sent < REQUESTS_PER_TURN; sent += IN_FLIGHT) {
                for (Connection connection : open) {
                    connection.send();
                }
                for (Connection connection : open) {
                    bytes += connection.receive();
                }
            }
            if (c == 2) {
                turns.logged += REQUESTS_PER_TURN;
                cases.awaitLogged(turns.logged);
            }
            long nanos = System.nanoTime() - started;
            switch (c) {
                case 0 -> turns.withoutRecordingOrLogNanos += nanos;
                case 1 -> turns.withRecordingOnlyNanos += nanos;
                default -> turns.withRecordingAndLogNanos += nanos;
            }
        }
        turns.rotation++;
        return bytes;
    }

    /** One keep-alive HTTP/1.1 connection that posts the same decision request and reads each 200 response whole. */
    static final class Connection implements Closeable {
        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;
        private final byte[] request;
        private final byte[] buffer = new byte[256 * 1024];

        Connection(int port, byte[] body) throws IOException {
            socket = new Socket("127.0.0.1", port);
            socket.setTcpNoDelay(true);
            out = socket.getOutputStream();
            in = socket.getInputStream();
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            request.writeBytes(("POST /v1/decisions/implementation HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            request.writeBytes(body);
            this.request = request.toByteArray();
        }

        void send() throws IOException {
            out.write(request);
            out.flush();
        }

        /** Reads one response; returns its body's length. */
        int receive() throws IOException {
            int read = 0;
            int headerEnd;
            while ((headerEnd = headerEnd(read)) < 0) {
                read = fill(read);
            }
            String head = new String(buffer, 0, headerEnd, StandardCharsets.US_ASCII);
            if (!head.startsWith("HTTP/1.1 200")) {
                throw new IOException("unexpected response: " + head.lines().findFirst().orElse(head));
            }
            int length = contentLength(head);
            int end = headerEnd + 4 + length;
            if (end > buffer.length) {
                throw new IOException("response of " + length + " bytes is larger than the client's buffer");
            }
            while (read < end) {
                read = fill(read);
            }
            if (read != end) {
                throw new IOException("more than one response arrived: " + (read - end) + " bytes after the body");
            }
            return length;
        }

        private int fill(int read) throws IOException {
            int n = in.read(buffer, read, buffer.length - read);
            if (n < 0) {
                throw new IOException("the server closed the connection");
            }
            return read + n;
        }

        private int headerEnd(int read) {
            for (int i = 0; i + 3 < read; i++) {
                if (buffer[i] == '\r' && buffer[i + 1] == '\n' && buffer[i + 2] == '\r' && buffer[i + 3] == '\n') {
                    return i;
                }
            }
            return -1;
        }

        private static int contentLength(String head) throws IOException {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("content-length")) {
                    return Integer.parseInt(line.substring(colon + 1).trim());
                }
            }
            throw new IOException("response without Content-Length: " + head);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
