package io.arbiter.http;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.arbiter.runtime.Decisions;
import io.arbiter.document.Documents;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.testing.Fixtures;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Fuzz targets (Jazzer): the document parser and each decision target's request handling, in-process. The property:
 * any input yields a result or an exception that {@link Responses} answers with a 4xx, never anything else (a 5xx,
 * a StackOverflowError, an OutOfMemoryError).
 *
 * <p>Without {@code JAZZER_FUZZ} every target runs once per input in {@code HostileInputFuzzTestInputs/<target>/}
 * (the seeds and every crash found so far, kept as regression inputs). {@code mvn verify} then fuzzes each target
 * in a JVM of its own for a fixed budget (Jazzer fuzzes one target per JVM); see CONTRIBUTING.md, "Fuzzing".
 */
class HostileInputFuzzTest {

    /** Every target's budget and dictionary: JSON and YAML syntax, hostile text and numbers, and the requests' fields. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    @DictionaryEntries({"{", "}", "[", "]", "\"", ":", ",", "null", "true", "false", "-0", "1e999", "\\u", "\\ud800",
            "\\udc00", "&a ", "*a", "!!binary ", "? ", "- ", "---", ".inf",
            "\"cap.*\"", "\"path\"", "\"revision\"", "\"0.1.0\"", "\"interface\"", "\"rules\"", "\"oneOf\"", "\"inject\"",
            "\"implementationConstraints\"", "\"requires\"", "\"attributes\"", "\"requiredTypeInstances\"",
            "\"additionalTypeInstances\"", "\"typeInstance\"", "\"typeRefs\"", "\"typeRef\"", "\"backend\"", "\"id\"",
            "\"actionPolicy\"", "\"workflowPolicies\"", "\"implementations\"", "\"typeInstances\"", "\"explain\"",
            "\"apiVersion\"", "\"policies\"", "\"policySets\"", "\"observed\"", "\"dependencies\"", "\"policyTemplates\"",
            "\"extraDependencies\"", "\"compliance\"", "\"clusters\"", "\"decisionGroups\"", "\"groupIndex\"",
            "\"strategy\"", "\"progressive\"", "\"maxConcurrency\"", "\"maxFailures\"", "\"progressDeadline\"",
            "\"minSuccessTime\"", "\"now\"", "\"status\"", "\"lastTransitionTime\"", "\"2262-04-12T00:00:00Z\"",
            "\"9999-12-31T23:59:59Z\"", "\"1s\"", "\"50%\"", "2147483648"})
    @FuzzTest(maxDuration = "15s")
    @interface HostileFuzz {
    }

    /** Built on first use, so that the parser targets do not compile the rules. */
    private static final class Service {
        static final Decisions DECISIONS =
                new Decisions(PolicyTypeRegistry.discover(), Fixtures.snapshot(Fixtures.embeddedPolicy()));
    }

    @HostileFuzz
    void parseJson(byte[] input) {
        answeredWith4xxAtWorst(() -> Documents.parseJson(input));
    }

    @HostileFuzz
    void parseYaml(byte[] input) {
        answeredWith4xxAtWorst(() -> Documents.parseYaml(input));
    }

    @HostileFuzz
    void implementation(byte[] input) {
        answeredWith4xxAtWorst(() -> Service.DECISIONS.decide("implementation", input, "application/json"));
    }

    @HostileFuzz
    void step(byte[] input) {
        answeredWith4xxAtWorst(() -> Service.DECISIONS.decide("step", input, "application/json"));
    }

    @HostileFuzz
    void backend(byte[] input) {
        answeredWith4xxAtWorst(() -> Service.DECISIONS.decide("backend", input, "application/json"));
    }

    @HostileFuzz
    void dependencies(byte[] input) {
        answeredWith4xxAtWorst(() -> Service.DECISIONS.decide("dependencies", input, "application/json"));
    }

    @HostileFuzz
    void rollout(byte[] input) {
        answeredWith4xxAtWorst(() -> Service.DECISIONS.decide("rollout", input, "application/json"));
    }

    @HostileFuzz
    void validatePolicy(byte[] input) {
        answeredWith4xxAtWorst(() -> io.arbiter.analysis.PolicyLint.lint(input, "application/yaml",
                io.arbiter.analysis.PolicyLint.Role.GLOBAL, Service.DECISIONS.snapshot(), Service.DECISIONS.registry(),
                java.time.Duration.ofSeconds(2)));
    }

    /** Runs {@code call}; an exception is a finding unless the one place that renders errors answers it with a 4xx. */
    static void answeredWith4xxAtWorst(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            ApiError answer = Responses.toApiError(e);
            if (answer.status() >= 500) {
                throw new AssertionError("answered " + answer.status() + " instead of a 4xx", e);
            }
        }
    }
}
