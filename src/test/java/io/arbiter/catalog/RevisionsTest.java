package io.arbiter.catalog;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Revisions order as semantic versions, however often they are compared. */
class RevisionsTest {

    @Test
    void revisionsSortAsSemanticVersionsWithNonVersionsFirst() {
        List<String> revisions = new ArrayList<>(List.of("0.10.0", "1.0.0", "latest", "0.9.0", "1.0.0-rc.1", "0.2.0"));

        for (int pass = 0; pass < 3; pass++) { // the second and third passes compare parsed revisions kept from the first
            revisions.sort(Revisions.ASCENDING);
            assertEquals(List.of("latest", "0.2.0", "0.9.0", "0.10.0", "1.0.0-rc.1", "1.0.0"), revisions);
        }
    }

    @Test
    void nullSortsFirstAndEqualVersionsCompareEqual() {
        assertTrue(Revisions.ASCENDING.compare(null, "0.1.0") < 0);
        assertEquals(0, Revisions.ASCENDING.compare("0.1.0", "0.1.0"));
        assertTrue(Revisions.ASCENDING.compare("2.0.0", "10.0.0") < 0);
    }

    /** A request's revisions are compared without being kept: a shared cache must not grow with what requests send. */
    @Test
    void revisionsARequestBringsAreNotKept() {
        io.arbiter.runtime.Decisions decisions = new io.arbiter.runtime.Decisions(
                io.arbiter.policytype.PolicyTypeRegistry.discover(),
                io.arbiter.testing.Fixtures.snapshot(io.arbiter.testing.Fixtures.embeddedPolicy()));
        int kept = Revisions.keptCount();
        for (int i = 0; i < 20; i++) {
            var response = decisions.decide("implementation", io.arbiter.testing.CostlyRequests.bytes(
                    io.arbiter.testing.CostlyRequests.longRevisionsRequest(60, "r" + i + ".")), "application/json");
            assertEquals("SELECTED", response.path("outcome").asText(), response.toString());
            assertEquals(2, response.path("candidates").size(), "the two revisions were compared");
        }
        List<String> unseen = new ArrayList<>(List.of("7.0.0-unseen.1", "7.0.0-unseen.2"));
        unseen.sort(Revisions.ASCENDING);
        assertEquals(kept, Revisions.keptCount(), "no revision a request brought, nor one only compared, is kept");
    }

    /** What a catalog keeps is bounded in bytes: a revision longer than a version ever is is not kept. */
    @Test
    void onlyShortRevisionsAreKept() {
        int kept = Revisions.keptCount();
        Revisions.keep(List.of("8.0.0-" + "x".repeat(Revisions.KEPT_LENGTH)));
        assertEquals(kept, Revisions.keptCount());
        Revisions.keep(List.of("8.0.0-kept"));
        assertEquals(kept + 1, Revisions.keptCount());
    }
}
