package io.arbiter.engine;

import java.util.List;

/** Firings as the recorder keeps them, for tests outside the engine (the recorder's own types are the engine's). */
public final class RecordedFirings {

    private RecordedFirings() {
    }

    /** One firing that matched one fact with id {@code factId}, kept as the recorder keeps ids (escaped when written). */
    public static FiredRulesNode matching(String factId) {
        return FiredRulesNode.of(List.of(new FiredRule(RuleName.of("io.arbiter.rules.test", "A rule"), 1,
                new FactIds(new FactIds.Id[] {new FactIds.Id(factId)}))));
    }
}
