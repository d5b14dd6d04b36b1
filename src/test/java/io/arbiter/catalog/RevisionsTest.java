package io.arbiter.catalog;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

    @Test
    void onlySemanticVersionsAreVersions() {
        assertTrue(Revisions.isVersion("0.1.0"));
        assertFalse(Revisions.isVersion("0.1"));
        assertFalse(Revisions.isVersion(null));
    }
}
