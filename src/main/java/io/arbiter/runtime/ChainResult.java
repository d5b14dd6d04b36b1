package io.arbiter.runtime;

import com.fasterxml.jackson.annotation.JsonAnyGetter;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** A chain's result: each part's result under its target's name, in the chain's order (null for a skipped part). */
record ChainResult(@com.fasterxml.jackson.annotation.JsonIgnore Map<String, Object> parts) {

    ChainResult {
        parts = Collections.unmodifiableMap(new LinkedHashMap<>(parts));
    }

    @JsonAnyGetter
    Map<String, Object> fields() {
        return parts;
    }
}
