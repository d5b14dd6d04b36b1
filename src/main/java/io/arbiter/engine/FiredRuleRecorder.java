package io.arbiter.engine;

import org.kie.api.definition.rule.Rule;
import org.kie.api.event.rule.AfterMatchFiredEvent;
import org.kie.api.event.rule.DefaultAgendaEventListener;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/** Records every rule firing of a session, in order. Rules never log themselves: this listener is the audit. */
public final class FiredRuleRecorder extends DefaultAgendaEventListener {

    private final List<FiredRule> fired = new ArrayList<>();
    /** A session's facts and rules take part in many firings each: each is named once (a Fact is a record: its id never changes). */
    private final Map<Fact, String> factIds = new IdentityHashMap<>();
    private final Map<Rule, String> ruleNames = new IdentityHashMap<>();

    @Override
    public void afterMatchFired(AfterMatchFiredEvent event) {
        var match = event.getMatch();
        List<String> facts = new ArrayList<>(match.getObjects().size());
        for (Object object : match.getObjects()) {
            String id = object instanceof Fact fact ? factIds.computeIfAbsent(fact, FiredRuleRecorder::idOf) : idOf(object);
            if (id != null) {
                facts.add(id);
            }
        }
        String rule = ruleNames.computeIfAbsent(match.getRule(), named -> named.getPackageName() + "." + named.getName());
        fired.add(new FiredRule(rule, fired.size() + 1, facts));
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
