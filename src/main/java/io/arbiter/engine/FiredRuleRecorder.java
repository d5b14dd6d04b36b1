package io.arbiter.engine;

import org.kie.api.definition.rule.Rule;
import org.kie.api.runtime.KieSession;
import org.kie.api.runtime.rule.Match;
import org.kie.internal.event.rule.RuleEventListener;
import org.kie.internal.event.rule.RuleEventManager;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Records every rule firing of a session, in order. Rules never log themselves: this listener is the audit.
 *
 * <p>It listens to the agenda through Drools' rule-event listener ({@link RuleEventListener}: the agenda calls it
 * with each match after the match's consequence ran), not through a kie-api {@code AgendaEventListener}. An
 * agenda-event listener makes the agenda build an event object for every match created, cancelled and fired and for
 * every agenda-group change, and hand each to every listener: in one JVM, alternating the two on the audited
 * implementation decision, that cost 2.6 points more of decision time (AuditCostBenchmark; the recording itself is
 * the same). The rule-event listener is in kie-internal; the firing-sequence tests catch it if Drools changes it.
 */
public final class FiredRuleRecorder implements RuleEventListener {

    /**
     * Fact ids of a decision are cached: facts are immutable and a small decision's facts are matched by many rules,
     * so each id is built once. A decision over more facts stops using the cache once this many are in it: there
     * most facts are matched once or twice, a lookup per match costs more than it saves, and the facts that many
     * rules match (settings, clusters, templates) carry their ids already.
     */
    private static final int CACHED_FACT_IDS = 1_024;

    private final List<FiredRule> fired = new ArrayList<>(64);
    /** Sized for a typical decision's matched facts (about 60), so the map does not grow while the rules fire. */
    private final Map<Fact, String> factIds = new IdentityHashMap<>(128);
    /** Large decisions fire one rule many times in a row: its qualified name is looked up once per run of them. */
    private Rule lastRule;
    private RuleName lastRuleName;

    /** Starts recording the firings of {@code session}. */
    public void attachTo(KieSession session) {
        ((RuleEventManager) session).addEventListener(this);
    }

    /** Stops recording (a pooled session outlives the decision). */
    public void detachFrom(KieSession session) {
        ((RuleEventManager) session).removeEventListener(this);
    }

    @Override
    public void onAfterMatchFire(Match match) {
        List<Object> objects = match.getObjects();
        String[] ids = new String[objects.size()];
        int count = 0;
        for (Object object : objects) {
            String id = object instanceof Fact fact ? cachedIdOf(fact) : idOf(object);
            if (id != null) {
                ids[count++] = id;
            }
        }
        // an immutable list, which FiredRule keeps as it is (large decisions fire thousands of rules)
        List<String> facts = List.of(count == ids.length ? ids : Arrays.copyOf(ids, count));
        Rule rule = match.getRule();
        if (rule != lastRule) {
            lastRule = rule;
            lastRuleName = RuleName.of(rule.getPackageName(), rule.getName());
        }
        fired.add(new FiredRule(lastRuleName, fired.size() + 1, facts));
    }

    private String cachedIdOf(Fact fact) {
        if (factIds.size() >= CACHED_FACT_IDS) {
            return fact.factId();
        }
        String id = factIds.get(fact);
        if (id == null) {
            id = fact.factId();
            factIds.put(fact, id);
        }
        return id;
    }

    /**
     * How a matched object is named in the audit trail: its fact id, never its {@code toString} (records would
     * print values such as additional parameters, which may be secrets). Drools' initial fact is left out.
     */
    public static String idOf(Object object) {
        if (object instanceof Fact fact) {
            return fact.factId();
        }
        if (object instanceof java.util.Collection<?> collection) {
            List<String> ids = new ArrayList<>();
            collection.forEach(element -> ids.add(String.valueOf(idOf(element))));
            return ids.toString();
        }
        if (object instanceof Number || object instanceof Boolean || object instanceof String || object instanceof Enum<?>) {
            return String.valueOf(object);
        }
        if (object == null || object.getClass().getName().startsWith("org.drools.")) {
            return null;
        }
        return object.getClass().getSimpleName();
    }

    public List<FiredRule> fired() {
        return List.copyOf(fired);
    }
}
