package io.arbiter.decision;

import io.arbiter.engine.FiredRule;

import java.util.List;
import java.util.Map;

/**
 * What a policy type's rules derived once from a snapshot (what is constant in it), kept with the snapshot: the
 * firings that derived it, by key, are the snapshot's firings that decisions reference instead of repeating them.
 */
public interface Derived {

    /** The firings by key (for the implementation type: the Interface, {@code path:revision}), each in firing order. */
    Map<String, List<FiredRule>> firings();
}
