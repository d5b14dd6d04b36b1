package io.arbiter.document;

import com.fasterxml.jackson.databind.JsonNode;

/** A parsed document and the source location of each of its paths. */
public record LocatedDocument(JsonNode tree, Locations locations, Format format) {

    public enum Format { JSON, YAML }
}
