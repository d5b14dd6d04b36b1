package io.arbiter.document;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Strict UTF-8 checks on raw input. Jackson's JSON parser decodes overlong forms ({@code C0 AF} becomes "/"), CESU-8
 * surrogates and values past U+10FFFF without complaint, so every document is checked here first; the JDK's decoder
 * refuses all three.
 */
final class Utf8 {

    private Utf8() {
    }

    /** The offset of the first byte that is not part of well-formed UTF-8 text (a NUL byte included), or -1. */
    static int firstInvalidByte(byte[] body) {
        // NUL is well-formed UTF-8 but neither JSON nor YAML allows it raw; refusing it also keeps Jackson from
        // guessing UTF-16 or UTF-32 from zero bytes.
        for (int i = 0; i < body.length; i++) {
            if (body[i] == 0) {
                return i;
            }
        }
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(body);
        CharBuffer out = CharBuffer.allocate(8192);
        while (true) {
            CoderResult result = decoder.decode(in, out, true);
            if (result.isError()) {
                return in.position();
            }
            if (result.isUnderflow()) {
                return -1;
            }
            out.clear();
        }
    }

    /** Line and column (1-based, the column in characters) of byte {@code offset}; the text before it is valid. */
    static Locations.Location locationOfByte(byte[] body, int offset) {
        int line = 1;
        int column = 1;
        for (int i = 0; i < offset && i < body.length; i++) {
            byte b = body[i];
            if (b == '\n' || (b == '\r' && (i + 1 >= body.length || body[i + 1] != '\n'))) {
                line++;
                column = 1;
            } else if ((b & 0xC0) != 0x80) {
                column++;
            }
        }
        return new Locations.Location(line, column);
    }

    /** The byte offset of the {@code index}-th code point (0-based) of valid UTF-8 text. */
    static int offsetOfCodePoint(byte[] body, int index) {
        int seen = -1;
        for (int i = 0; i < body.length; i++) {
            if ((body[i] & 0xC0) != 0x80 && ++seen == index) {
                return i;
            }
        }
        return body.length;
    }

    /** Whether {@code text} has a UTF-16 surrogate that is not half of a pair (from an escape such as {@code \ud800}). */
    static boolean hasUnpairedSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
                    return true;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return true;
            }
        }
        return false;
    }
}
