package io.arbiter.http;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** A failure we did not foresee answers 500 in our words: no class name and no message of the failure. */
class UnexpectedFailureBodyTest {

    @Test
    void aNullPointerExceptionIsAGeneric500() {
        ApiError error = Responses.toApiError(new NullPointerException("Cannot invoke \"java.util.List.size()\" secret"));

        assertEquals(500, error.status());
        assertEquals("INTERNAL", error.body().error().code());
        assertFalse(error.getMessage().contains("NullPointerException"), error.getMessage());
        assertFalse(error.getMessage().contains("secret"), error.getMessage());
        assertFalse(error.getMessage().contains("java."), error.getMessage());
    }
}
