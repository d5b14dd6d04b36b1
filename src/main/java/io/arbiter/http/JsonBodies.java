package io.arbiter.http;

import io.arbiter.document.Documents;
import io.vertx.core.buffer.Buffer;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * Response bodies as JSON, written into one reused array per thread and copied once into the response buffer. A
 * decision's response is mostly its fired rules (17 KB for a typical implementation decision): written to bytes the
 * usual way, it went through freshly allocated blocks, was copied into one array and again into the buffer, which
 * was a measurable part of what auditing costs (AuditCostBenchmark).
 */
public final class JsonBodies {

    private static final int INITIAL_BYTES = 64 * 1024;
    /** A thread keeps at most this much between responses; a larger body's array is let go once it is written. */
    private static final int KEPT_BYTES = 1024 * 1024;
    private static final ThreadLocal<ReusedOutput> OUTPUT = ThreadLocal.withInitial(ReusedOutput::new);

    private JsonBodies() {
    }

    /** {@code body} as compact JSON (UTF-8) in a new buffer. */
    public static Buffer write(Object body) {
        ReusedOutput output = OUTPUT.get();
        output.reset();
        try {
            Documents.jsonMapper().writeValue(output, body);
            return Buffer.buffer(output.count).appendBytes(output.bytes, 0, output.count);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot render response", e);
        } finally {
            output.shrink();
        }
    }

    /** A byte array output that keeps its array from one body to the next. */
    private static final class ReusedOutput extends OutputStream {
        private byte[] bytes = new byte[INITIAL_BYTES];
        private int count;

        void reset() {
            count = 0;
        }

        void shrink() {
            if (bytes.length > KEPT_BYTES) {
                bytes = new byte[INITIAL_BYTES];
            }
        }

        @Override
        public void write(int b) {
            ensureRoom(1);
            bytes[count++] = (byte) b;
        }

        @Override
        public void write(byte[] source, int offset, int length) {
            ensureRoom(length);
            System.arraycopy(source, offset, bytes, count, length);
            count += length;
        }

        private void ensureRoom(int length) {
            if (length > bytes.length - count) {
                bytes = Arrays.copyOf(bytes, (int) Math.min(Integer.MAX_VALUE - 8,
                        Math.max(2L * bytes.length, (long) count + length)));
            }
        }
    }
}
