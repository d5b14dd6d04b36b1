package io.arbiter.document;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.HexFormat;

/**
 * A content revision: the first 8 bytes of a SHA-256, in hex. The same content always has the same revision,
 * whatever its formatting, key order or listing order, so a logged decision names exactly what it was decided with.
 */
public final class ContentRevision {

    /** Serialises values canonically: object keys, map entries and record properties sorted. */
    private static final ObjectMapper CANONICAL = JsonMapper.builder()
            .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .enable(JsonNodeFeature.WRITE_PROPERTIES_SORTED)
            .build();

    private final MessageDigest digest;

    private ContentRevision() {
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    public static ContentRevision start() {
        return new ContentRevision();
    }

    /** Adds one part; parts are separated, so ("ab", "c") and ("a", "bc") differ. */
    public ContentRevision add(byte[] part) {
        digest.update(part);
        digest.update((byte) 0);
        return this;
    }

    public ContentRevision add(String part) {
        return add(part.getBytes(StandardCharsets.UTF_8));
    }

    /** Adds a value in its canonical JSON form. */
    public ContentRevision addCanonical(Object value) {
        return add(canonical(value));
    }

    /** Adds every value of a collection in canonical JSON form, sorted: the collection's order does not count. */
    public ContentRevision addCanonicalUnordered(Collection<?> values) {
        values.stream().map(ContentRevision::canonical).sorted().forEach(this::add);
        return this;
    }

    public String revision() {
        return HexFormat.of().formatHex(digest.digest(), 0, 8);
    }

    private static String canonical(Object value) {
        try {
            return CANONICAL.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot serialise " + value.getClass().getSimpleName() + " for its revision", e);
        }
    }
}
