package io.arbiter.decision;

import io.arbiter.document.JsonSchemas;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.runtime.Decisions;
import io.arbiter.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A request of many empty objects is refused with a few problems, naming a list's limit when it is past it, not
 * with a problem for every missing field of every item: a 700 KB body of {@code {}} items has 400,000, which the
 * schema validator kept as 170 MiB of messages, and a 256 MiB server ran out of memory answering it.
 */
class ListPastItsLimitTest {

    private static final Decisions DECISIONS = new Decisions(PolicyTypeRegistry.discover(),
            Fixtures.snapshot(Fixtures.embeddedPolicy()));

    static {
        DECISIONS.setDecisionDeadline(Duration.ofMinutes(10)); // shared machines are slow: no wall-clock in these tests
    }

    /** Problems a refusal lists at most. */
    private static final int FEW = JsonSchemas.MAX_PROBLEMS;

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "implementation | {\"interface\":{\"path\":\"cap.interface.database.postgresql.install\"},\"typeInstances\":[ITEMS]} | 5001",
            "implementation | {\"interface\":{\"path\":\"cap.interface.database.postgresql.install\"},\"actionPolicy\":{\"interface\":{\"rules\":[ITEMS]}}} | 1001",
            "backend        | {\"typeRefs\":[ITEMS]} | 1001",
            "dependencies   | {\"apiVersion\":\"0.1.0\",\"policies\":[ITEMS]} | 2001",
            "dependencies   | {\"apiVersion\":\"0.1.0\",\"policies\":[],\"observed\":[ITEMS]} | 20001",
            "rollout        | {\"apiVersion\":\"0.1.0\",\"clusters\":[ITEMS]} | 20001",
            "rollout        | {\"apiVersion\":\"0.1.0\",\"decisionGroups\":[ITEMS]} | 1001"})
    void aListOfEmptyObjectsPastItsLimitIsRefusedWithFewProblems(String target, String template, int items) {
        byte[] body = template.replace("ITEMS", String.join(",", Collections.nCopies(items, "{}")))
                .getBytes(StandardCharsets.UTF_8);
        DecisionException refused = assertThrows(DecisionException.class,
                () -> DECISIONS.decide(target, body, "application/json"));
        assertTrue(refused.problems().stream().anyMatch(p -> p.problem().contains("at most")),
                "names the limit: " + refused.problems().subList(0, Math.min(3, refused.problems().size())));
        assertTrue(refused.problems().size() <= FEW, refused.problems().size() + " problems for " + items
                + " empty items, e.g. " + refused.problems().subList(0, Math.min(3, refused.problems().size())));
    }

    @Test
    void emptyObjectsWithinEveryLimitAreRefusedWithFewProblems() {
        String policy = "{\"name\":\"a\",\"namespace\":\"b\",\"policyTemplates\":["
                + String.join(",", Collections.nCopies(Limits.TEMPLATES_PER_POLICY, "{}")) + "]}";
        byte[] body = ("{\"apiVersion\":\"0.1.0\",\"policies\":["
                + String.join(",", Collections.nCopies(Limits.POLICIES, policy)) + "]}").getBytes(StandardCharsets.UTF_8);
        DecisionException refused = assertThrows(DecisionException.class,
                () -> DECISIONS.decide("dependencies", body, "application/json"));
        assertTrue(refused.problems().size() <= FEW, refused.problems().size() + " problems");
        assertTrue(refused.problems().get(0).problem().contains("required field"), refused.problems().get(0).toString());
    }
}
