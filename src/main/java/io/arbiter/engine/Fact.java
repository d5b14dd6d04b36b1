package io.arbiter.engine;

/**
 * A fact that names itself in audit records ({@code firedRules[].facts}). A fact names itself by a {@link FactId}
 * template on its type; one whose name needs more than its own values in a fixed text overrides {@link #factId}.
 */
public interface Fact {

    default String factId() {
        return FactIds.render(this);
    }
}
