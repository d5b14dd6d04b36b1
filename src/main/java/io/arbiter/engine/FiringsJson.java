package io.arbiter.engine;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.json.UTF8JsonGenerator;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Firings as compact JSON, encoded straight into one byte array and handed to the generator as a single raw value.
 * A typical implementation decision's response is 1 KB of result and 12.5 KB of firings: 52 firings of about ten
 * generator calls each (object, field names, array, each fact id) cost more than the rest of writing the response,
 * and were the largest part of what auditing costs (AuditCostBenchmark). Every piece of a firing is encoded once
 * already (a rule's names per rule, a fact's id per decision), so encoding a firing is copying bytes.
 * <p>
 * Only compact UTF-8 JSON is written this way; pretty printers, YAML and token buffers get every field through the
 * generator, so what they write is what Jackson would write for the plain tree.
 */
final class FiringsJson {

    private static final byte[] FACTS = ",\"facts\":[".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] END = "]}".getBytes(StandardCharsets.US_ASCII);
    /** A typical decision's orders, as digits. */
    private static final byte[][] ORDERS = new byte[1_024][];

    static {
        for (int order = 0; order < ORDERS.length; order++) {
            ORDERS[order] = Integer.toString(order).getBytes(StandardCharsets.US_ASCII);
        }
    }

    private FiringsJson() {
    }

    /** Writes {@code fired} as one JSON array; without {@code name} and {@code package} when {@code rule} is enough. */
    static void writeArray(List<FiredRule> fired, JsonGenerator json, boolean nameAndPackage) throws IOException {
        if (!writesRawJson(json)) {
            json.writeStartArray(fired, fired.size());
            for (FiredRule rule : fired) {
                writeThroughGenerator(rule, json, nameAndPackage);
            }
            json.writeEndArray();
            return;
        }
        int length = 2 + Math.max(0, fired.size() - 1);
        for (FiredRule rule : fired) {
            length += encodedLength(rule, nameAndPackage);
        }
        byte[] bytes = new byte[length];
        int at = 0;
        bytes[at++] = '[';
        for (int i = 0; i < fired.size(); i++) {
            if (i > 0) {
                bytes[at++] = ',';
            }
            at = encode(fired.get(i), nameAndPackage, bytes, at);
        }
        bytes[at] = ']';
        json.writeRawValue(new RawUtf8(bytes));
    }

    /** Writes one firing as a JSON object. */
    static void writeObject(FiredRule fired, JsonGenerator json, boolean nameAndPackage) throws IOException {
        if (!writesRawJson(json)) {
            writeThroughGenerator(fired, json, nameAndPackage);
            return;
        }
        byte[] bytes = new byte[encodedLength(fired, nameAndPackage)];
        encode(fired, nameAndPackage, bytes, 0);
        json.writeRawValue(new RawUtf8(bytes));
    }

    /** Compact JSON bytes (as responses and the log are written); raw writes would bypass a pretty printer. */
    private static boolean writesRawJson(JsonGenerator json) {
        return json instanceof UTF8JsonGenerator && json.getPrettyPrinter() == null;
    }

    private static int encodedLength(FiredRule fired, boolean nameAndPackage) {
        FactIds facts = fired.factIds();
        int length = fired.ruleName().firingStartUtf8(nameAndPackage).length + orderDigits(fired.order()).length
                + FACTS.length + END.length + Math.max(0, facts.size() - 1);
        for (int i = 0; i < facts.size(); i++) {
            length += facts.escapedUtf8(i).length + 2;
        }
        return length;
    }

    /** Encodes one firing at {@code at}; returns where it ends. */
    private static int encode(FiredRule fired, boolean nameAndPackage, byte[] bytes, int at) {
        at = copy(fired.ruleName().firingStartUtf8(nameAndPackage), bytes, at);
        at = copy(orderDigits(fired.order()), bytes, at);
        at = copy(FACTS, bytes, at);
        FactIds facts = fired.factIds();
        for (int i = 0; i < facts.size(); i++) {
            if (i > 0) {
                bytes[at++] = ',';
            }
            bytes[at++] = '"';
            at = copy(facts.escapedUtf8(i), bytes, at);
            bytes[at++] = '"';
        }
        return copy(END, bytes, at);
    }

    private static int copy(byte[] source, byte[] target, int at) {
        System.arraycopy(source, 0, target, at, source.length);
        return at + source.length;
    }

    private static byte[] orderDigits(int order) {
        return order >= 0 && order < ORDERS.length ? ORDERS[order]
                : Integer.toString(order).getBytes(StandardCharsets.US_ASCII);
    }

    private static void writeThroughGenerator(FiredRule fired, JsonGenerator json, boolean nameAndPackage)
            throws IOException {
        RuleName rule = fired.ruleName();
        json.writeStartObject();
        json.writeFieldName("rule");
        json.writeString(rule.qualifiedJson());
        if (nameAndPackage) {
            json.writeFieldName("name");
            json.writeString(rule.nameJson());
            json.writeFieldName("package");
            json.writeString(rule.packageJson());
        }
        json.writeNumberField("order", fired.order());
        json.writeArrayFieldStart("facts");
        for (String fact : fired.facts()) {
            json.writeString(fact);
        }
        json.writeEndArray();
        json.writeEndObject();
    }

    /**
     * Encoded JSON as the generator's raw input. The generator copies it into its buffer when it fits there, and
     * otherwise writes the array itself: the array is exactly as long as the JSON, so it is never copied whole.
     */
    private static final class RawUtf8 implements SerializableString {
        private final byte[] utf8;

        RawUtf8(byte[] utf8) {
            this.utf8 = utf8;
        }

        @Override
        public String getValue() {
            return new String(utf8, StandardCharsets.UTF_8);
        }

        @Override
        public int charLength() {
            return getValue().length();
        }

        @Override
        public char[] asQuotedChars() {
            throw notAString();
        }

        @Override
        public byte[] asUnquotedUTF8() {
            return utf8;
        }

        @Override
        public byte[] asQuotedUTF8() {
            throw notAString();
        }

        @Override
        public int appendQuotedUTF8(byte[] buffer, int offset) {
            throw notAString();
        }

        @Override
        public int appendQuoted(char[] buffer, int offset) {
            throw notAString();
        }

        @Override
        public int appendUnquotedUTF8(byte[] buffer, int offset) {
            if (utf8.length > buffer.length - offset) {
                return -1;
            }
            System.arraycopy(utf8, 0, buffer, offset, utf8.length);
            return utf8.length;
        }

        @Override
        public int appendUnquoted(char[] buffer, int offset) {
            char[] chars = getValue().toCharArray();
            if (chars.length > buffer.length - offset) {
                return -1;
            }
            System.arraycopy(chars, 0, buffer, offset, chars.length);
            return chars.length;
        }

        @Override
        public int writeQuotedUTF8(OutputStream out) {
            throw notAString();
        }

        @Override
        public int writeUnquotedUTF8(OutputStream out) throws IOException {
            out.write(utf8);
            return utf8.length;
        }

        @Override
        public int putQuotedUTF8(ByteBuffer buffer) {
            throw notAString();
        }

        @Override
        public int putUnquotedUTF8(ByteBuffer buffer) {
            if (utf8.length > buffer.remaining()) {
                return -1;
            }
            buffer.put(utf8);
            return utf8.length;
        }

        /** Raw JSON is written as it is: quoting it as a string would be a bug in the caller. */
        private static UnsupportedOperationException notAString() {
            return new UnsupportedOperationException("raw JSON is not written as a string");
        }
    }
}
