package io.arbiter.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.POJONode;

import java.util.List;

/** Firings as a response carries them, for tests outside the engine. */
public final class RecordedFirings {

    private RecordedFirings() {
    }

    /**
     * One firing that matched one fact with id {@code factId}, as a response's {@code firedRules}: a value that
     * cannot be written as UTF-8 (a lone surrogate in the id) fails when the record is written.
     */
    public static JsonNode matching(String factId) {
        return new POJONode(new Object() {
            @SuppressWarnings("unused")
            public List<FiredRule> getFirings() {
                boolean encodable = java.nio.charset.StandardCharsets.UTF_8.newEncoder().canEncode(factId);
                if (!encodable) {
                    throw new IllegalArgumentException("a fact id that is not valid UTF-16");
                }
                return List.of(new FiredRule("io.arbiter.rules.test.A rule", 1, List.of(factId)));
            }
        });
    }
}
