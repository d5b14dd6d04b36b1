package io.arbiter.engine;

import com.fasterxml.jackson.core.io.JsonStringEncoder;

import java.nio.charset.StandardCharsets;
import java.util.AbstractList;
import java.util.List;
import java.util.Objects;
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
                bytes = id.getBytes(StandardCharsets.UTF_8);
                if (needsEscaping(bytes)) {
                    bytes = JsonStringEncoder.getInstance().quoteAsUTF8(id);
                }
                escaped = bytes;
            }
            return bytes;
        }

        /**
         * Whether UTF-8 text needs JSON escapes: control characters, quotes and backslashes do; nearly every id has
         * none, and is then its own escape (non-ASCII characters are written as UTF-8, as the generator writes them).
         */
        private static boolean needsEscaping(byte[] utf8) {
            for (byte b : utf8) {
                if ((b >= 0 && b < 0x20) || b == '"' || b == '\\') {
                    return true;
                }
            }
            return false;
        }
    }

    private final Id[] ids;

    FactIds(Id[] ids) {
        this.ids = ids;
    }

    /** Ids given as text (firings read back from JSON, tests). */
    static FactIds of(List<String> ids) {
        Id[] copied = new Id[ids.size()];
        for (int i = 0; i < copied.length; i++) {
            copied[i] = new Id(Objects.requireNonNull(ids.get(i), "fact id"));
        }
        return new FactIds(copied);
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
