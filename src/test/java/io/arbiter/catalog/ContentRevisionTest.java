package io.arbiter.catalog;

import io.arbiter.model.Implementation;
import io.arbiter.model.Ref;
import io.arbiter.model.TypeInstance;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** The catalog's and the TypeInstance store's revisions name their content: not its order, not its files. */
class ContentRevisionTest {

    private static final Ref IFACE = new Ref("cap.interface.x.install", "0.1.0");

    private static Implementation implementation(String path, String attribute) {
        return new Implementation(path, "0.1.0", List.of(IFACE), List.of(new Ref(attribute, "0.1.0")), List.of(), List.of(),
                Map.of(), Map.of());
    }

    @Test
    void aCatalogsRevisionIgnoresOrderAndFollowsContent() {
        Implementation a = implementation("cap.implementation.a.install", "cap.attribute.one");
        Implementation b = implementation("cap.implementation.b.install", "cap.attribute.two");
        String revision = new Catalog(List.of(a, b), List.of(IFACE), List.of(), List.of()).revision();

        assertEquals(revision, new Catalog(List.of(b, a), List.of(IFACE), List.of(), List.of()).revision());
        assertNotEquals(revision, new Catalog(List.of(a, implementation("cap.implementation.b.install", "cap.attribute.three")),
                List.of(IFACE), List.of(), List.of()).revision(), "an attribute changed");
        assertNotEquals(revision, new Catalog(List.of(a, b), List.of(IFACE, new Ref(IFACE.path(), "0.2.0")), List.of(), List.of())
                .revision(), "an Interface revision was added");
        assertEquals(16, revision.length());
    }

    @Test
    void theEmbeddedCatalogHasOneRevisionWhoeverLoadsIt() {
        Path embedded = Path.of("fixtures/embedded/catalog");
        assertEquals(ManifestLoader.load(embedded).catalog().revision(), ManifestLoader.load(embedded).catalog().revision());
    }

    @Test
    void aStoresRevisionIgnoresOrderAndFollowsContent() {
        TypeInstance one = new TypeInstance("id-1", new Ref("cap.type.a", "0.1.0"), null);
        TypeInstance two = new TypeInstance("id-2", new Ref("cap.type.b", "0.1.0"), "described");
        String revision = new TypeInstanceStore(List.of(one, two)).revision();

        assertEquals(revision, new TypeInstanceStore(List.of(two, one)).revision());
        assertNotEquals(revision, new TypeInstanceStore(List.of(one, new TypeInstance("id-2", new Ref("cap.type.b", "0.2.0"),
                "described"))).revision(), "a typeRef changed");
        assertNotEquals(revision, new TypeInstanceStore(List.of(one)).revision(), "an entry was removed");
    }
}
