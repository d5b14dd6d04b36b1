package io.arbiter.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.document.Documents;
import io.arbiter.document.LocatedDocument;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * What reading a request costs: the DependenciesBenchmark request (about 1.2 MB of JSON) read by {@link Documents}
 * as the service reads it (plainly: every check, no locations), read and then located (what is done only when a
 * problem is reported, and what every request paid before), and by plain Jackson for reference. Run with
 * {@code bash bench/run.sh ParseBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = BenchData.AS_DEPLOYED)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@State(Scope.Benchmark)
public class ParseBenchmark {

    private byte[] body;

    @Setup
    public void setup() throws IOException {
        body = Documents.jsonMapper().writeValueAsBytes(DependenciesBenchmark.request());
        System.out.println("request: " + body.length + " bytes");
    }

    @Benchmark
    public JsonNode documents() {
        return Documents.parseJson(body).tree();
    }

    @Benchmark
    public Object documentsThenLocated() {
        LocatedDocument document = Documents.parseJson(body);
        return document.locations().nearest("$.policies[499]");
    }

    @Benchmark
    public JsonNode plainJackson() throws IOException {
        return Documents.jsonMapper().readTree(body);
    }
}
