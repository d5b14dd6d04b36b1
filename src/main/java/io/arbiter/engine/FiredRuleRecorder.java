package io.arbiter.engine;

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
        List<String> facts = new ArrayList<>();
        for (Object object : match.getObjects()) {
            facts.add(object instanceof Fact fact ? fact.factId() : String.valueOf(object));
        }
        fired.add(FiredRule.of(match.getRule().getPackageName(), match.getRule().getName(), fired.size() + 1, facts));
    }

    public List<FiredRule> fired() {
        return List.copyOf(fired);
    }
}
