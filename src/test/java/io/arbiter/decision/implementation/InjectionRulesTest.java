package io.arbiter.decision.implementation;

import io.arbiter.decision.merge.PolicyMergeFacts.*;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.decision.implementation.ImplementationFacts.AdditionalTypeInstanceEntry;
import io.arbiter.decision.implementation.ImplementationFacts.AdditionalTypeInstanceInjection;
import io.arbiter.decision.implementation.ImplementationFacts.InjectionProblem;
import io.arbiter.decision.implementation.ImplementationFacts.InterfaceQuery;
import io.arbiter.decision.implementation.ImplementationFacts.OfferedAdditional;
import io.arbiter.decision.implementation.ImplementationFacts.OfferedParameter;
import io.arbiter.decision.implementation.ImplementationFacts.OfferedRequired;
import io.arbiter.decision.implementation.ImplementationFacts.Overridden;
import io.arbiter.decision.implementation.ImplementationFacts.ParameterInjection;
import io.arbiter.decision.merge.PolicyMergeFacts.PolicySource;
import io.arbiter.decision.implementation.ImplementationFacts.RequiredEntry;
import io.arbiter.decision.implementation.ImplementationFacts.RequiredInjection;
import io.arbiter.decision.implementation.ImplementationFacts.Selected;
import io.arbiter.decision.implementation.ImplementationFacts.SourceItem;
import io.arbiter.decision.implementation.ImplementationFacts.SourceRule;
import io.arbiter.decision.implementation.ImplementationFacts.TypeSchema;
import io.arbiter.document.Documents;
import io.arbiter.document.JsonSchemas;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.engine.FiredRule;
import io.arbiter.model.Implementation;
import io.arbiter.model.Quantifier;
import io.arbiter.model.Ref;
import io.arbiter.policy.Policy.ImplementationConstraints;
import io.arbiter.testing.RuleTestSupport;
import org.junit.jupiter.api.Test;
import org.kie.api.runtime.KieSession;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static io.arbiter.engine.CompiledRuleBase.factsOf;
import static io.arbiter.decision.implementation.Facts.GCP_SA;
import static io.arbiter.decision.implementation.Facts.K8S;
import static io.arbiter.decision.implementation.Facts.POSTGRES;
import static io.arbiter.decision.implementation.Facts.actionPolicy;
import static io.arbiter.decision.implementation.Facts.additionalParameter;
import static io.arbiter.decision.implementation.Facts.additionalTypeInstance;
import static io.arbiter.decision.implementation.Facts.available;
import static io.arbiter.decision.implementation.Facts.constraints;
import static io.arbiter.decision.implementation.Facts.defaultRequired;
import static io.arbiter.decision.implementation.Facts.globalPolicy;
import static io.arbiter.decision.implementation.Facts.impl;
import static io.arbiter.decision.implementation.Facts.required;
import static io.arbiter.decision.implementation.Facts.sourceItem;
import static io.arbiter.decision.implementation.Facts.sourceRule;
import static io.arbiter.decision.implementation.Facts.withRequirements;
import static io.arbiter.decision.implementation.Facts.workflowPolicy;
import static io.arbiter.testing.RuleTestSupport.assertFired;
import static io.arbiter.testing.RuleTestSupport.assertFiredBefore;
import static io.arbiter.testing.RuleTestSupport.assertFiredTimes;
import static io.arbiter.testing.RuleTestSupport.assertNotFired;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Selection, injection and the 422 checks (rules/implementation/40-injection.drl; policy-syntax sections 4, 5, 7).
 * The facts are the policies as written: merge, matching and outcome produce the winning item.
 */
class InjectionRulesTest {

    private static final String SELECTED = "Selected Implementation is the first candidate by path, then highest revision";
    private static final String OFFERS_REQUIRED = "The winning item offers its TypeInstances and those of the items merged into it";
    private static final String OFFERS_DEFAULT = "Every policy's interface.default offers its TypeInstances";
    private static final String OFFERS_ADDITIONAL = "The winning item offers its additional TypeInstances";
    private static final String OFFERS_PARAMETERS = "The winning item offers its additional parameters";
    private static final String HIGHER_TYPE = "A higher policy's TypeInstance replaces a lower one of the same Type";
    private static final String ITEM_OVER_DEFAULT = "The item's TypeInstance replaces a default of the same Type";
    private static final String HIGHER_NAME = "A higher policy's additional TypeInstance replaces a lower one of the same name";
    private static final String INJECTED = "A TypeInstance is injected under the alias of the requirement of its Type";
    private static final String HANDED_OVER = "An additional TypeInstance is handed over by name";
    private static final String DEEP_MERGED = "Additional parameters of one name are deep-merged, the higher policy winning per key";
    private static final String UNKNOWN_ID = "An injected TypeInstance id is not in the TypeInstance store";
    private static final String ONE_ALIAS = "Two TypeInstances land on one alias";
    private static final String UNDECLARED_TI = "An additional TypeInstance is not declared by the Implementation";
    private static final String UNKNOWN_ADDITIONAL_ID = "An additional TypeInstance id is not in the TypeInstance store";
    private static final String WRONG_TYPE = "An additional TypeInstance is not of the declared Type";
    private static final String UNDECLARED_PARAMETER = "An additional parameter is not declared by the Implementation";
    private static final String SCHEMA = "An additional parameter value does not match its Type's schema";
    private static final String UNUSABLE_SCHEMA = "An additional parameter's Type has a schema that cannot be used";
    private static final List<String> CHECKS = List.of(UNKNOWN_ID, ONE_ALIAS, UNDECLARED_TI, UNKNOWN_ADDITIONAL_ID,
            WRONG_TYPE, UNDECLARED_PARAMETER, SCHEMA, UNUSABLE_SCHEMA);

    private static final Ref DB = new Ref("cap.type.database.postgresql.config", "0.1.0");
    private static final Ref CREDENTIALS = new Ref("cap.type.aws.auth.credentials", "0.1.0");
    private static final Ref INPUT = new Ref("cap.type.database.postgresql.install-input", "0.1.0");
    private static final String BITNAMI = "cap.implementation.bitnami.postgresql.install";
    private static final String BITNAMI_KEY = BITNAMI + ":0.1.0";

    /** Action item 0 wins; the equal Global item 0 is merged into it; Global item 1 ({}) comes after it. */
    private static final PolicySource ACTION = actionPolicy();
    private static final PolicySource GLOBAL = globalPolicy();
    private static final SourceRule ACTION_RULE = sourceRule(ACTION, 0, POSTGRES);
    private static final SourceRule GLOBAL_RULE = sourceRule(GLOBAL, 0, POSTGRES);
    private static final SourceItem WINNER = sourceItem(ACTION_RULE, 0, constraints(BITNAMI));
    private static final SourceItem MERGED = sourceItem(GLOBAL_RULE, 0, constraints(BITNAMI));
    private static final SourceItem LATER = sourceItem(GLOBAL_RULE, 1, ImplementationConstraints.ANY);

    private final CompiledRuleBase ruleBase = RuleTestSupport.ruleBase(ImplementationDecider.KIND, ImplementationDecider.PHASES);

    private record Result(Implementation selected, List<RequiredInjection> required,
                          List<AdditionalTypeInstanceInjection> additional, List<ParameterInjection> parameters,
                          List<InjectionProblem> problems, List<OfferedRequired> offeredRequired,
                          List<OfferedAdditional> offeredAdditional, List<OfferedParameter> offeredParameters,
                          List<Overridden> overridden, List<FiredRule> fired) {

        Set<String> requiredIds() {
            return required.stream().map(r -> r.alias() + "=" + r.id()).collect(Collectors.toSet());
        }

        Set<String> additionalIds() {
            return additional.stream().map(a -> a.entry().name() + "=" + a.entry().id()).collect(Collectors.toSet());
        }

        ParameterInjection parameter(String name) {
            return parameters.stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
        }
    }

    /** The three items above, plus {@code entries} (inject entries, TypeInstances, schemas). */
    private static List<Object> policies(Object... entries) {
        List<Object> facts = new ArrayList<>(List.of(ACTION, GLOBAL, ACTION_RULE, GLOBAL_RULE, WINNER, MERGED, LATER));
        facts.addAll(List.of(entries));
        return facts;
    }

    private Result decide(List<Object> facts, Implementation... implementations) {
        List<Object> all = new ArrayList<>();
        facts.forEach(fact -> all.addAll(fact instanceof SourceItem item ? Facts.withConstraints(item) : List.of(fact)));
        for (Implementation implementation : implementations) {
            all.addAll(withRequirements(implementation));
        }
        all.add(available("k8s", K8S));
        all.add(new InterfaceQuery(POSTGRES));
        var run = ruleBase.run(all, ImplementationDecider.PHASES, session -> {
            Implementation selected = factsOf(session, Selected.class).stream().map(Selected::implementation)
                    .findFirst().orElse(null);
            List<RequiredInjection> required = factsOf(session, RequiredInjection.class);
            List<AdditionalTypeInstanceInjection> additional = factsOf(session, AdditionalTypeInstanceInjection.class);
            List<ParameterInjection> parameters = factsOf(session, ParameterInjection.class);
            List<InjectionProblem> problems = factsOf(session, InjectionProblem.class);
            return new Result(selected, required, additional, parameters, problems,
                    factsOf(session, OfferedRequired.class), factsOf(session, OfferedAdditional.class),
                    factsOf(session, OfferedParameter.class), factsOf(session, Overridden.class), null);
        });
        Result r = run.result();
        return new Result(r.selected(), r.required(), r.additional(), r.parameters(), r.problems(), r.offeredRequired(),
                r.offeredAdditional(), r.offeredParameters(), r.overridden(), run.firedRules());
    }

    private static Facts.Builder bitnami() {
        return impl(BITNAMI, "0.1.0");
    }

    private static JsonNode json(String text) {
        try {
            return Documents.jsonMapper().readTree(text);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void assertNoProblems(Result result) {
        assertTrue(result.problems().isEmpty(), () -> "problems: " + result.problems());
        CHECKS.forEach(check -> assertNotFired(result.fired(), check));
    }

    private static void assertOnlyProblem(Result result, String check, String location, String problem) {
        assertFiredTimes(result.fired(), check, 1);
        CHECKS.stream().filter(other -> !other.equals(check)).forEach(other -> assertNotFired(result.fired(), other));
        boolean storeLookup = check.equals(UNKNOWN_ID) || check.equals(UNKNOWN_ADDITIONAL_ID);
        assertEquals(List.of(new InjectionProblem(location, problem, storeLookup)), result.problems());
    }

    // ---- selection ----

    @Test
    void selectedIsTheLowestPathThenTheHighestRevision() {
        SourceRule rule = sourceRule(GLOBAL, 0, POSTGRES);
        SourceItem any = sourceItem(rule, 0, ImplementationConstraints.ANY);
        Implementation b = impl("cap.implementation.b", "9.0.0").build();
        Implementation a2 = impl("cap.implementation.a", "0.2.0").build();
        Implementation a10 = impl("cap.implementation.a", "0.10.0").build();

        Result result = decide(List.of(GLOBAL, rule, any), b, a2, a10);

        assertFiredTimes(result.fired(), SELECTED, 1);
        assertEquals(a10, result.selected());
        assertFiredBefore(result.fired(), "First oneOf item with a match wins", SELECTED);
        assertNoProblems(result);
    }

    @Test
    void nothingIsSelectedWithoutAWinningItem() {
        Result result = decide(policies(required(WINNER, 0, "missing", null)), impl("cap.implementation.other", "0.1.0")
                .implementing(new Ref(POSTGRES.path(), "0.2.0")).build());

        assertNull(result.selected());
        assertNotFired(result.fired(), SELECTED);
        assertNotFired(result.fired(), OFFERS_REQUIRED);
        assertNoProblems(result);
    }

    // ---- offers ----

    @Test
    void theWinningItemAndTheItemsMergedIntoItOfferTheirEntriesAndEveryDefaultOffersItsOwn() {
        RequiredEntry winnerSa = required(WINNER, 0, "sa-1", GCP_SA);
        RequiredEntry mergedK8s = required(MERGED, 0, "k8s", K8S);
        RequiredEntry laterSa = required(LATER, 0, "sa-later", GCP_SA);
        RequiredEntry globalDefault = defaultRequired(GLOBAL, 0, "cfg-1", DB);
        AdditionalTypeInstanceEntry mergedDb = additionalTypeInstance(MERGED, 0, "db", "db-1", DB);
        AdditionalTypeInstanceEntry laterDb = additionalTypeInstance(LATER, 0, "db", "db-later", DB);
        var winnerInput = additionalParameter(WINNER, 0, "input", json("{\"replicas\": 1}"));
        var laterInput = additionalParameter(LATER, 0, "input", json("{\"replicas\": 9}"));
        Implementation implementation = bitnami()
                .requires("cap.type.gcp.auth", Quantifier.ALL_OF, GCP_SA, "gcp-sa")
                .additionalTypeInstance("db", DB).additionalParameter("input", INPUT).build();

        Result result = decide(policies(winnerSa, mergedK8s, laterSa, globalDefault, mergedDb, laterDb, winnerInput,
                laterInput, available("sa-1", GCP_SA)), implementation);

        assertEquals(implementation, result.selected());
        assertFiredTimes(result.fired(), OFFERS_REQUIRED, 2);
        assertFiredTimes(result.fired(), OFFERS_DEFAULT, 1);
        assertFiredTimes(result.fired(), OFFERS_ADDITIONAL, 1);
        assertFiredTimes(result.fired(), OFFERS_PARAMETERS, 1);
        assertEquals(Set.of(new OfferedRequired(winnerSa, new Rank(1, 0)), new OfferedRequired(mergedK8s, new Rank(2, 0)),
                new OfferedRequired(globalDefault, new Rank(2, 0))), Set.copyOf(result.offeredRequired()));
        assertEquals(List.of(new OfferedAdditional(mergedDb, new Rank(2, 0))), result.offeredAdditional());
        assertEquals(List.of(new OfferedParameter(winnerInput, new Rank(1, 0))), result.offeredParameters());
        assertFiredBefore(result.fired(), SELECTED, OFFERS_REQUIRED);
        assertNotFired(result.fired(), HIGHER_TYPE);
        assertNotFired(result.fired(), ITEM_OVER_DEFAULT);
        assertNotFired(result.fired(), HIGHER_NAME);
        assertEquals(Set.of("gcp-sa=sa-1"), result.requiredIds());
        assertEquals(Set.of("db=db-1"), result.additionalIds());
        assertEquals(json("{\"replicas\": 1}"), result.parameter("input").value());
        assertNoProblems(result);
    }

    // ---- which offer wins ----

    @Test
    void higherPolicysTypeInstanceReplacesALowerOneOfTheSameType() {
        RequiredEntry high = required(WINNER, 0, "sa-1", GCP_SA);
        RequiredEntry low = required(MERGED, 0, "sa-2", GCP_SA);
        Implementation implementation = bitnami().requires("cap.type.gcp.auth", Quantifier.ALL_OF, GCP_SA, "gcp-sa").build();

        Result result = decide(policies(high, low, available("sa-1", GCP_SA), available("sa-2", GCP_SA)), implementation);

        assertFiredTimes(result.fired(), HIGHER_TYPE, 1);
        assertEquals(List.of(new Overridden(new OfferedRequired(low, new Rank(2, 0)), new OfferedRequired(high, new Rank(1, 0)))), result.overridden());
        assertNotFired(result.fired(), ITEM_OVER_DEFAULT);
        assertFiredTimes(result.fired(), INJECTED, 1);
        assertEquals(List.of(new RequiredInjection("gcp-sa", 0, "cap.type.gcp.auth", "sa-1", GCP_SA, high.location(), ImplementationFacts.InjectionSource.RULE_INJECT)),
                result.required());
        assertNoProblems(result);
    }

    @Test
    void higherPolicysDefaultReplacesALowerDefaultOfTheSameType() {
        // policy-syntax 5: for interface.default too the higher policy wins (the Go engine lets the lower one win).
        RequiredEntry actionDefault = defaultRequired(ACTION, 0, "sa-a", GCP_SA);
        RequiredEntry globalDefault = defaultRequired(GLOBAL, 0, "sa-g", GCP_SA);
        Implementation implementation = bitnami().requires("cap.type.gcp.auth", Quantifier.ALL_OF, GCP_SA, "gcp-sa").build();

        Result result = decide(policies(globalDefault, actionDefault, available("sa-a", GCP_SA), available("sa-g", GCP_SA)),
                implementation);

        assertFiredTimes(result.fired(), OFFERS_DEFAULT, 2);
        assertFiredTimes(result.fired(), HIGHER_TYPE, 1);
        assertNotFired(result.fired(), ITEM_OVER_DEFAULT);
        assertEquals(Set.of("gcp-sa=sa-a"), result.requiredIds());
        assertNoProblems(result);
    }

    @Test
    void itemsTypeInstanceReplacesADefaultOfTheSameTypeEvenFromAHigherPolicy() {
        RequiredEntry actionDefault = defaultRequired(ACTION, 0, "sa-d", GCP_SA);
        RequiredEntry item = required(MERGED, 0, "sa-1", GCP_SA);
        Implementation implementation = bitnami().requires("cap.type.gcp.auth", Quantifier.ALL_OF, GCP_SA, "gcp-sa").build();

        Result result = decide(policies(actionDefault, item, available("sa-d", GCP_SA), available("sa-1", GCP_SA)),
                implementation);

        assertFiredTimes(result.fired(), ITEM_OVER_DEFAULT, 1);
        assertNotFired(result.fired(), HIGHER_TYPE);
        assertEquals(List.of(new Overridden(new OfferedRequired(actionDefault, new Rank(1, 0)), new OfferedRequired(item, new Rank(2, 0)))),
                result.overridden());
        assertEquals(Set.of("gcp-sa=sa-1"), result.requiredIds());
        assertNoProblems(result);
    }

    @Test
    void higherPolicysAdditionalTypeInstanceReplacesALowerOneOfTheSameName() {
        AdditionalTypeInstanceEntry high = additionalTypeInstance(WINNER, 0, "db", "db-1", DB);
        AdditionalTypeInstanceEntry low = additionalTypeInstance(MERGED, 0, "db", "db-2", DB);
        Implementation implementation = bitnami().additionalTypeInstance("db", DB).build();

        Result result = decide(policies(low, high), implementation);

        assertFiredTimes(result.fired(), HIGHER_NAME, 1);
        assertFiredTimes(result.fired(), HANDED_OVER, 1);
        assertEquals(List.of(new AdditionalTypeInstanceInjection(high, new Rank(1, 0))), result.additional());
        assertNoProblems(result);
    }

    // ---- the injection ----

    @Test
    void typeInstanceIsInjectedUnderTheAliasOfItsTypeAndOnlyThere() {
        RequiredEntry sa = required(WINNER, 0, "sa-1", GCP_SA);
        RequiredEntry k8s = required(WINNER, 1, "k8s", K8S);
        Implementation implementation = bitnami()
                .requires("cap.core.type.platform", Quantifier.ONE_OF, K8S, null)
                .requires("cap.type.gcp.auth", Quantifier.ALL_OF, GCP_SA, "gcp-sa").build();

        Result result = decide(policies(sa, k8s, available("sa-1", GCP_SA)), implementation);

        assertEquals(implementation, result.selected());
        assertFiredTimes(result.fired(), INJECTED, 1);
        // k8s is offered but K8S has no aliased requirement: silently not injected (policy-syntax 4).
        assertEquals(2, result.offeredRequired().size());
        assertEquals(List.of(new RequiredInjection("gcp-sa", 0, "cap.type.gcp.auth", "sa-1", GCP_SA, sa.location(), ImplementationFacts.InjectionSource.RULE_INJECT)),
                result.required());
        assertNoProblems(result);
    }

    @Test
    void sameTypeInstanceFromTwoPoliciesLandsOnceOnItsAlias() {
        RequiredEntry high = required(WINNER, 0, "sa-1", GCP_SA);
        RequiredEntry low = required(MERGED, 0, "sa-1", GCP_SA);
        Implementation implementation = bitnami().requires("cap.type.gcp.auth", Quantifier.ALL_OF, GCP_SA, "gcp-sa").build();

        Result result = decide(policies(high, low, available("sa-1", GCP_SA)), implementation);

        assertFiredTimes(result.fired(), INJECTED, 1);
        assertEquals(Set.of("gcp-sa=sa-1"), result.requiredIds());
        assertNoProblems(result);
    }

    @Test
    void additionalTypeInstancesAreHandedOverByName() {
        AdditionalTypeInstanceEntry db = additionalTypeInstance(WINNER, 0, "db", "db-1", DB);
        AdditionalTypeInstanceEntry credentials = additionalTypeInstance(MERGED, 0, "credentials", "creds-1", CREDENTIALS);
        Implementation implementation = bitnami().additionalTypeInstance("db", DB)
                .additionalTypeInstance("credentials", CREDENTIALS).build();

        Result result = decide(policies(db, credentials), implementation);

        assertFiredTimes(result.fired(), HANDED_OVER, 2);
        assertNotFired(result.fired(), HIGHER_NAME);
        assertEquals(Set.of(new AdditionalTypeInstanceInjection(db, new Rank(1, 0)), new AdditionalTypeInstanceInjection(credentials, new Rank(2, 0))),
                Set.copyOf(result.additional()));
        assertNoProblems(result);
    }

    @Test
    void additionalParametersOfOneNameAreDeepMergedHigherPolicyWinningPerKey() {
        PolicySource step = workflowPolicy(0);
        SourceRule stepRule = sourceRule(step, 0, POSTGRES);
        SourceItem stepItem = sourceItem(stepRule, 0, constraints(BITNAMI));
        var action = additionalParameter(WINNER, 0, "input", json("{\"replicas\": 1, \"nested\": {\"x\": 1}}"));
        var global = additionalParameter(MERGED, 0, "input", json("{\"replicas\": 2, \"tier\": \"gold\", \"nested\": {\"y\": 2}}"));
        var workflow = additionalParameter(stepItem, 0, "input",
                json("{\"replicas\": 3, \"region\": \"eu\", \"nested\": {\"x\": 3, \"z\": 3}}"));
        var workflowOnly = additionalParameter(stepItem, 1, "extra", json("[1, 2]"));
        Implementation implementation = bitnami().additionalParameter("input", INPUT).additionalParameter("extra", INPUT).build();

        Result result = decide(policies(step, stepRule, stepItem, workflow, global, action, workflowOnly), implementation);

        assertFiredTimes(result.fired(), OFFERS_PARAMETERS, 4);
        assertFiredTimes(result.fired(), DEEP_MERGED, 2);
        ParameterInjection input = result.parameter("input");
        assertEquals(json("{\"replicas\": 1, \"tier\": \"gold\", \"region\": \"eu\", \"nested\": {\"x\": 1, \"y\": 2, \"z\": 3}}"),
                input.value());
        assertEquals(action.location(), input.location());
        assertEquals(new Rank(1, 0), input.rank());
        ParameterInjection extra = result.parameter("extra");
        assertEquals(json("[1, 2]"), extra.value());
        assertEquals(new Rank(3, 0), extra.rank());
        assertNoProblems(result);
    }

    // ---- 422 ----

    @Test
    void unresolvableIdOfTheWinningItemOrADefaultIsAProblemButNotOfAnotherItem() {
        RequiredEntry unknown = required(WINNER, 0, "missing", null);
        RequiredEntry unknownDefault = defaultRequired(GLOBAL, 0, "missing-default", null);
        RequiredEntry unknownElsewhere = required(LATER, 0, "missing-later", null);

        Result result = decide(policies(unknown, unknownDefault, unknownElsewhere), bitnami().build());

        assertFiredTimes(result.fired(), UNKNOWN_ID, 2);
        CHECKS.stream().filter(other -> !other.equals(UNKNOWN_ID)).forEach(other -> assertNotFired(result.fired(), other));
        assertEquals(Set.of(new InjectionProblem(unknown.location(), "TypeInstance missing is not in the TypeInstance store", true),
                new InjectionProblem(unknownDefault.location(), "TypeInstance missing-default is not in the TypeInstance store", true)),
                Set.copyOf(result.problems()));
        assertNotFired(result.fired(), INJECTED);
    }

    @Test
    void twoTypeInstancesOnOneAliasAreAProblem() {
        RequiredEntry first = required(WINNER, 0, "sa-1", GCP_SA);
        RequiredEntry second = required(WINNER, 1, "sa-2", GCP_SA);
        Implementation implementation = bitnami().requires("cap.type.gcp.auth", Quantifier.ALL_OF, GCP_SA, "gcp-sa").build();

        Result result = decide(policies(first, second, available("sa-1", GCP_SA), available("sa-2", GCP_SA)), implementation);

        assertFiredTimes(result.fired(), INJECTED, 2);
        assertNotFired(result.fired(), HIGHER_TYPE);
        assertOnlyProblem(result, ONE_ALIAS, second.location(), "TypeInstances sa-1 and sa-2 both land on alias gcp-sa");
    }

    @Test
    void undeclaredAdditionalTypeInstanceIsAProblem() {
        AdditionalTypeInstanceEntry cache = additionalTypeInstance(WINNER, 0, "cache", "db-1", DB);
        Implementation implementation = bitnami().additionalTypeInstance("db", DB).build();

        Result result = decide(policies(cache), implementation);

        assertOnlyProblem(result, UNDECLARED_TI, cache.location(),
                "additional TypeInstance 'cache' is not declared by " + BITNAMI_KEY + " (declared: [db])");
    }

    @Test
    void unresolvableAdditionalTypeInstanceIdIsAProblem() {
        AdditionalTypeInstanceEntry db = additionalTypeInstance(WINNER, 0, "db", "missing", null);
        Implementation implementation = bitnami().additionalTypeInstance("db", DB).build();

        Result result = decide(policies(db), implementation);

        assertOnlyProblem(result, UNKNOWN_ADDITIONAL_ID, db.location(), "TypeInstance missing is not in the TypeInstance store");
    }

    @Test
    void additionalTypeInstanceOfAnotherTypeIsAProblem() {
        AdditionalTypeInstanceEntry db = additionalTypeInstance(WINNER, 0, "db", "creds-1", CREDENTIALS);
        Implementation implementation = bitnami().additionalTypeInstance("db", DB).build();

        Result result = decide(policies(db), implementation);

        assertOnlyProblem(result, WRONG_TYPE, db.location(), "additional TypeInstance 'db' (creds-1) is a " + CREDENTIALS
                + ", but " + BITNAMI_KEY + " declares " + DB);
    }

    @Test
    void undeclaredAdditionalParameterIsAProblem() {
        var unknown = additionalParameter(WINNER, 0, "unknown", json("{\"a\": 1}"));
        Implementation implementation = bitnami().additionalParameter("input", INPUT).build();

        Result result = decide(policies(unknown), implementation);

        assertOnlyProblem(result, UNDECLARED_PARAMETER, unknown.location(),
                "additional parameter 'unknown' is not declared by " + BITNAMI_KEY + " (declared: [input])");
    }

    @Test
    void additionalParameterNotMatchingItsTypesSchemaIsAProblem() {
        var input = additionalParameter(WINNER, 0, "input", json("{\"replicas\": \"three\"}"));
        TypeSchema schema = new TypeSchema(INPUT, JsonSchemas.compile(json(
                "{\"type\": \"object\", \"properties\": {\"replicas\": {\"type\": \"integer\"}}}")));
        Implementation implementation = bitnami().additionalParameter("input", INPUT).build();

        Result result = decide(policies(input, schema), implementation);

        assertFiredTimes(result.fired(), SCHEMA, 1);
        CHECKS.stream().filter(other -> !other.equals(SCHEMA)).forEach(other -> assertNotFired(result.fired(), other));
        assertEquals(1, result.problems().size());
        InjectionProblem problem = result.problems().get(0);
        assertEquals(input.location(), problem.location());
        assertTrue(problem.problem().startsWith("additional parameter 'input' does not match " + INPUT + ": $.replicas: "),
                problem.problem());
    }

    @Test
    void additionalParameterMatchingItsTypesSchemaIsNoProblem() {
        var input = additionalParameter(WINNER, 0, "input", json("{\"replicas\": 3}"));
        TypeSchema schema = new TypeSchema(INPUT, JsonSchemas.compile(json(
                "{\"type\": \"object\", \"properties\": {\"replicas\": {\"type\": \"integer\"}}}")));
        Implementation implementation = bitnami().additionalParameter("input", INPUT).build();

        Result result = decide(policies(input, schema), implementation);

        assertFired(result.fired(), DEEP_MERGED);
        assertNoProblems(result);
    }

    @Test
    void additionalParameterWhoseTypeSchemaCannotBeUsedIsAProblemNamingTheType() {
        var input = additionalParameter(WINNER, 0, "input", json("{\"replicas\": 3}"));
        TypeSchema unusable = new TypeSchema(INPUT, null, "$schema \"http://x\" is not a JSON Schema dialect Arbiter knows");
        Implementation implementation = bitnami().additionalParameter("input", INPUT).build();

        Result result = decide(policies(input, unusable), implementation);

        assertOnlyProblem(result, UNUSABLE_SCHEMA, input.location(), "additional parameter 'input' cannot be checked: the JSON schema of "
                + INPUT + " in the catalog cannot be used ($schema \"http://x\" is not a JSON Schema dialect Arbiter knows)");
    }
}
