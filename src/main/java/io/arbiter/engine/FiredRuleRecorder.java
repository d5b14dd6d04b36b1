package io.arbiter.engine;

import org.kie.api.definition.rule.Rule;
import org.kie.api.event.rule.AfterMatchFiredEvent;
import org.kie.api.event.rule.DefaultAgendaEventListener;

import java.util.ArrayList;
import java.util.List;

/** Records every rule firing of a session, in order. Rules never log themselves: this listener is the audit. */
public final class FiredRuleRecorder extends DefaultAgendaEventListener {

    private final List<FiredRule> fired = new ArrayList<>();

    @Override
    public void afterMatchFired(AfterMatchFiredEvent event) {
        var match = event.getMatch();
        List<String> facts = new ArrayList<>(match.getObjects().size());
        for (Object object : match.getObjects()) {
            String id = idOf(object);
            if (id != null) {
                facts.add(id);
            }
        }
        Rule rule = match.getRule();
        fired.add(new FiredRule(rule.getPackageName() + "." + rule.getName(), fired.size() + 1, facts));
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
