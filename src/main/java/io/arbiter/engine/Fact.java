package io.arbiter.engine;

/** A fact that names itself in audit records ({@code firedRules[].facts}). */
public interface Fact {

    String factId();
}
