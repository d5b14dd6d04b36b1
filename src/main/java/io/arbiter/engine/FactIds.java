package io.arbiter.engine;

import com.fasterxml.jackson.core.io.JsonStringEncoder;

import java.nio.charset.StandardCharsets;
import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * The ids of the facts one firing matched, immutable. The recorder gives all the firings that matched a fact one
 * {@link Id} (a response repeats a fact's id in up to a dozen firings), so each id is JSON-escaped once per decision.
 */
final class FactIds extends AbstractList<String> implements RandomAccess {

    /** A fact's id and, once first written, its JSON-escaped UTF-8 bytes (without quotes). */
    static final class Id {
        private final String id;
        /** Volatile: a response is written by the HTTP thread and the decision log's; both compute the same bytes. */
        private volatile byte[] escaped;

        Id(String id) {
            this.id = id;
        }

        byte[] escapedUtf8() {
            byte[] bytes = escaped;
            if (bytes == null) {
                bytes = isPlainAscii(id) ? id.getBytes(StandardCharsets.ISO_8859_1)
                        : JsonStringEncoder.getInstance().quoteAsUTF8(id);
                escaped = bytes;
            }
            return bytes;
        }

        /** Printable ASCII without quote or backslash is its own JSON escape: nearly every id (a copy, not an encoding). */
        private static boolean isPlainAscii(String text) {
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
                    return false;
                }
            }
            return true;
        }
    }

    private final Id[] ids;

    FactIds(Id[] ids) {
        this.ids = ids;
    }

    @Override
    public String get(int index) {
        return ids[index].id;
    }

    @Override
    public int size() {
        return ids.length;
    }

    byte[] escapedUtf8(int index) {
        return ids[index].escapedUtf8();
    }
}
