package io.arbiter.http;

import io.arbiter.runtime.Decisions;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.testing.CostlyRequests;
import io.arbiter.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A decision past its deadline answers 503 in the contract's error shape, naming the deadline; never a 500. */
class BoundedErrorsTest {

    @Test
    void aDecisionPastItsDeadlineIs503NamingTheDeadline() {
        Decisions decisions = new Decisions(PolicyTypeRegistry.discover(), Fixtures.snapshot(Fixtures.embeddedPolicy()));
        decisions.setDecisionDeadline(Duration.ofMillis(1));
        RuntimeException failure = assertThrows(RuntimeException.class, () -> decisions.decide("dependencies",
                CostlyRequests.bytes(CostlyRequests.dependencyChain(200, true)), "application/json"));

        ApiError error = Responses.toApiError(failure);

        assertEquals(503, error.status());
        assertEquals("INTERNAL", error.body().error().code());
        assertTrue(error.getMessage().contains("deadline of 1 ms"), error.getMessage());
    }
}
