package io.arbiter.engine;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.document.Documents;

import java.util.List;

/** Firings as a response carries them, for tests outside the engine. */
public final class RecordedFirings {

    private RecordedFirings() {
    }

    /** One firing that matched one fact with id {@code factId}, as a response's {@code firedRules}. */
    public static JsonNode matching(String factId) {
        return Documents.jsonMapper().valueToTree(List.of(new FiredRule("io.arbiter.rules.test.A rule", 1, List.of(factId))));
    }
}
