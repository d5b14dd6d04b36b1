package io.arbiter.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.document.Documents;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** A plain socket to the server, for what an HTTP client library would not send: bad request lines, stalled bodies. */
final class RawConnection implements AutoCloseable {

    private final Socket socket;
    private final ByteArrayOutputStream received = new ByteArrayOutputStream();
    private boolean closedByServer;

    RawConnection(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
    }

    RawConnection send(String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
        return this;
    }

    /** Reads until the server closes the connection or the deadline passes (at least once); true if it closed. */
    boolean awaitClosed(Duration within) throws IOException {
        long deadline = System.nanoTime() + within.toNanos();
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[4096];
        do {
            try {
                // a read returns as soon as bytes or the close arrive; its timeout is what is left of the deadline
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, Math.max(1, left)));
                int read = in.read(buffer);
                if (read < 0) {
                    closedByServer = true;
                } else {
                    received.write(buffer, 0, read);
                }
            } catch (SocketTimeoutException e) {
                // nothing yet: look again until the deadline
            } catch (SocketException e) {
                closedByServer = true; // reset by the server
            }
        } while (!closedByServer && System.nanoTime() < deadline);
        return closedByServer;
    }

    /** Everything the server sent so far. */
    String received() {
        return received.toString(StandardCharsets.ISO_8859_1);
    }

    int status() {
        String text = received();
        if (!text.startsWith("HTTP/1.")) {
            throw new AssertionError("no HTTP response: " + text);
        }
        return Integer.parseInt(text.substring(9, 12));
    }

    String header(String name) {
        for (String line : received().split("\r\n")) {
            if (line.isEmpty()) {
                break;
            }
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                return line.substring(colon + 1).trim();
            }
        }
        return null;
    }

    JsonNode json() {
        String text = received();
        int body = text.indexOf("\r\n\r\n");
        try {
            return Documents.jsonMapper().readTree(text.substring(body + 4));
        } catch (IOException e) {
            throw new AssertionError("not a JSON body: " + text, e);
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
