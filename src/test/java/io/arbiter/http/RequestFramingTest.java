package io.arbiter.http;

import io.arbiter.testing.LogCapture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A request whose body could be read in two ways (RFC 9112 6.1, 6.3) is refused 400 with the contract's error body
 * and its connection closed, so that bytes hidden in its body are never served as a request of their own; nothing
 * is logged above INFO.
 */
class RequestFramingTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final String BODY = "{\"interface\": {\"rules\": []}}";
    /** Served if the bytes after a refused head were read as a request: the test counts the responses. */
    private static final String HIDDEN = "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n";
    private static final String HEAD = "POST /v1/policy/validate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n";

    private static ArbiterServer server;

    /** A refusal is the client's error: nothing is logged as a warning or an error. */
    @RegisterExtension
    final LogCapture logs = LogCapture.of("io.vertx", "io.netty", "io.arbiter.http");

    @BeforeAll
    static void start() throws Exception {
        server = TestServers.embedded(null);
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    @AfterEach
    void nothingLogged() {
        assertEquals(java.util.List.of(), logs.events().stream().map(Object::toString).toList());
    }

    private static RawConnection exchange(String request) throws IOException {
        RawConnection connection = new RawConnection(server.port()).send(request);
        assertTrue(connection.awaitClosed(DEADLINE), "still open: " + connection.received());
        return connection;
    }

    private static int responses(RawConnection connection) {
        Matcher matcher = Pattern.compile("(?m)^HTTP/1\\.[01] \\d{3} ").matcher(connection.received());
        int count = 0;
        while (matcher.find()) {
            count++;
        }
        return count;
    }

    private static void assertRefusedAlone(String request, String messageFragment) throws IOException {
        try (RawConnection answer = exchange(request)) {
            assertEquals(400, answer.status(), answer.received());
            assertTrue(answer.header("Content-Type").startsWith("application/json"), answer.received());
            assertEquals("INVALID_REQUEST", answer.json().path("error").path("code").asText(), answer.received());
            assertTrue(answer.json().path("error").path("message").asText().contains(messageFragment), answer.received());
            assertEquals(1, responses(answer), "the hidden request was served: " + answer.received());
        }
    }

    @Test
    void contentLengthWithChunkedIsRefusedAndWhatItHidesIsNotServed() throws IOException {
        String chunked = "0\r\n\r\n" + HIDDEN;
        assertRefusedAlone(HEAD + "Content-Length: " + chunked.length() + "\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked,
                "both Content-Length and Transfer-Encoding");
    }

    @Test
    void aTransferCodingOtherThanChunkedIsRefusedAndItsBodyIsNotServedAsARequest() throws IOException {
        assertRefusedAlone(HEAD + "Transfer-Encoding: xchunked\r\n\r\n" + HIDDEN, "xchunked");
        assertRefusedAlone(HEAD + "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n" + HIDDEN, "must be chunked");
    }

    @Test
    void aRepeatedTransferEncodingIsRefused() throws IOException {
        assertRefusedAlone(HEAD + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + HIDDEN,
                "once");
    }

    @Test
    void aTransferEncodingFoldedOverTwoLinesIsRefused() throws IOException {
        assertRefusedAlone(HEAD + "Transfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n" + HIDDEN, "one line");
    }

    @Test
    void transferEncodingInAnHttp10RequestIsRefused() throws IOException {
        assertRefusedAlone("POST /v1/policy/validate HTTP/1.0\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + HIDDEN, "HTTP/1.0");
    }

    @Test
    void aMalformedChunkSizeIsAnswered400AndClosed() throws IOException {
        assertRefusedAlone(HEAD + "Transfer-Encoding: chunked\r\n\r\nzz\r\n" + BODY + "\r\n0\r\n\r\n" + HIDDEN, "chunked");
    }

    @Test
    void aWellFramedChunkedBodyIsStillServed() throws IOException {
        String chunk = Integer.toHexString(BODY.length()) + "\r\n" + BODY + "\r\n0\r\n\r\n";
        try (RawConnection answer = exchange(HEAD + "Connection: close\r\nTransfer-Encoding: Chunked\r\n\r\n" + chunk)) {
            assertEquals(200, answer.status(), answer.received());
        }
    }
}
