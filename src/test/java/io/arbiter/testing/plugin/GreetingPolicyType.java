package io.arbiter.testing.plugin;

import io.arbiter.policytype.DecisionData;
import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.policytype.Decision;
import io.arbiter.policytype.DecisionCall;
import io.arbiter.policytype.PolicyType;
import io.arbiter.policytype.PolicyTypeVersion;
import io.arbiter.policytype.RuleSet;
import io.arbiter.policytype.SupportStatus;
import io.arbiter.policytype.Target;

import java.util.List;

import static io.arbiter.policytype.PolicyTypeVersion.since;

/**
 * A policy type that exists only on the test classpath: it proves a new decision kind needs no change to main
 * code. Its rules are {@code src/test/resources/rules/greeting/} and {@code decision-tables/greeting/}.
 */
public final class GreetingPolicyType implements PolicyType {

    /** The request fact. */
    public record GreetingRequest(String name, String language) {
    }

    /** Derived by the salutation table. */
    public record Salutation(String word) {
    }

    /** Derived by the greeting rule. */
    public record Greeting(String text) {
    }

    /** The result: the runtime writes the envelope around it (decision id, firings, revisions). */
    public record GreetingDecision(String greeting) {
    }

    @Override
    public String name() {
        return "test.greeting";
    }

    @Override
    public String description() {
        return "Greets someone in their language (test-only plugin).";
    }

    @Override
    public List<PolicyTypeVersion> versions() {
        return List.of(
                PolicyTypeVersion.of("0.0.1", since(SupportStatus.EXPERIMENTAL, "2025.01"), since(SupportStatus.UNSUPPORTED, "2025.06")),
                PolicyTypeVersion.of("0.1.0", since(SupportStatus.SUPPORTED, "2025.03"), since(SupportStatus.DEPRECATED, "2026.01")),
                PolicyTypeVersion.of("1.0.0", since(SupportStatus.SUPPORTED, "2026.01")));
    }

    @Override
    public List<Target> targets() {
        return List.of(new Target("greeting", "How to greet someone."));
    }

    @Override
    public RuleSet ruleSet() {
        return new RuleSet("greeting", List.of("salutation", "greeting"));
    }

    @Override
    public List<DecisionData> consumes() {
        return List.of(new DecisionData("capact.implementation", "selected-implementation"));
    }

    @Override
    public Decision decide(DecisionCall call) {
        JsonNode body = call.request().tree();
        GreetingRequest request = new GreetingRequest(body.path("name").asText(), body.path("language").asText("en"));
        CompiledRuleBase.Run<String> run = call.ruleBase().run(List.of(request), session -> {
            for (Object fact : session.getObjects(object -> object instanceof Greeting)) {
                return ((Greeting) fact).text();
            }
            return null;
        });
        return Decision.of(new GreetingDecision(run.result()), run.firedRules());
    }
}
