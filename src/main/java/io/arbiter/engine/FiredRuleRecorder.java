package io.arbiter.engine;

import org.kie.api.definition.rule.Rule;
import org.kie.api.event.rule.AfterMatchFiredEvent;
import org.kie.api.event.rule.DefaultAgendaEventListener;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/** Records every rule firing of a session, in order. Rules never log themselves: this listener is the audit. */
public final class FiredRuleRecorder extends DefaultAgendaEventListener {

    /**
     * Fact ids of a decision are cached: facts are immutable and a small decision's facts are matched by many rules,
     * so each id is built (and JSON-escaped when the response is written) once. A decision over more facts stops
     * using the cache once this many are in it: there most facts are matched once or twice, a lookup per match costs
     * more than it saves, and the facts that many rules match (settings, clusters, templates) carry their ids already.
     */
    private static final int CACHED_FACT_IDS = 1_024;

    private final List<FiredRule> fired = new ArrayList<>();
    /** Sized for a typical decision's matched facts (about 60), so the map does not grow while the rules fire. */
    private final Map<Fact, FactIds.Id> factIds = new IdentityHashMap<>(128);
    /** Large decisions fire one rule many times in a row: its qualified name is looked up once per run of them. */
    private Rule lastRule;
    private RuleName lastRuleName;

    @Override
    public void afterMatchFired(AfterMatchFiredEvent event) {
        var match = event.getMatch();
        List<Object> objects = match.getObjects();
        FactIds.Id[] ids = new FactIds.Id[objects.size()];
        int count = 0;
        for (Object object : objects) {
            FactIds.Id id = object instanceof Fact fact ? cachedIdOf(fact) : idObjectOf(object);
            if (id != null) {
                ids[count++] = id;
            }
        }
        // immutable, kept by FiredRule as it is (large decisions fire thousands of rules)
        FactIds facts = new FactIds(count == ids.length ? ids : Arrays.copyOf(ids, count));
        Rule rule = match.getRule();
        if (rule != lastRule) {
            lastRule = rule;
            lastRuleName = RuleName.of(rule.getPackageName(), rule.getName());
        }
        fired.add(new FiredRule(lastRuleName, fired.size() + 1, facts));
    }

    private FactIds.Id cachedIdOf(Fact fact) {
        if (factIds.size() >= CACHED_FACT_IDS) {
            return new FactIds.Id(fact.factId());
        }
        FactIds.Id id = factIds.get(fact);
        if (id == null) {
            id = new FactIds.Id(fact.factId());
            factIds.put(fact, id);
        }
        return id;
    }

    private static FactIds.Id idObjectOf(Object object) {
        String id = idOf(object);
        return id == null ? null : new FactIds.Id(id);
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

    /** How many firings are recorded so far. */
    public int count() {
        return fired.size();
    }

    public List<FiredRule> fired() {
        return List.copyOf(fired);
    }
}
