package io.arbiter.engine;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The rule bases this JVM built, by name, phases and content revision: a rule base is immutable, so the same files
 * never need compiling (or loading from a kjar) twice: not by a reload that leaves a type's files as they were, nor by
 * another server, command or test in the same JVM. Bounded: the least recently used one is dropped past {@link
 * #CAPACITY} (one in use by a snapshot stays alive there), so repeated reloads of edited files keep a bounded heap.
 */
final class RuleBaseCache {

    /**
     * Two for each built-in policy type: the one serving and the one a reload or an impact tries. A rule base of the
     * largest type keeps about 2 MiB of heap (bench/reload-memory.sh), so the cache keeps at most about 16 MiB that
     * no snapshot uses.
     */
    static final int CAPACITY = 8;

    private record Key(String name, String revision, List<String> phases) {
    }

    private final Map<Key, CompiledRuleBase> ruleBases = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, CompiledRuleBase> eldest) {
            return size() > CAPACITY;
        }
    };

    /**
     * The rule base of these files, built by {@code build} if this JVM has none. A build that throws leaves nothing
     * behind. Two threads asking for the same new files at once may each build them; the first to finish is kept.
     */
    CompiledRuleBase get(String name, String revision, List<String> phases, Supplier<CompiledRuleBase> build) {
        Key key = new Key(name, revision, List.copyOf(phases));
        synchronized (ruleBases) {
            CompiledRuleBase cached = ruleBases.get(key);
            if (cached != null) {
                return cached;
            }
        }
        CompiledRuleBase built = build.get();
        synchronized (ruleBases) {
            CompiledRuleBase raced = ruleBases.putIfAbsent(key, built);
            return raced != null ? raced : built;
        }
    }
}
