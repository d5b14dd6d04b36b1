package io.arbiter.catalog;

import io.arbiter.document.ContentRevision;
import io.arbiter.model.Ref;
import io.arbiter.model.TypeInstance;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The TypeInstances a decision can see, by id and by Type. Immutable. */
public final class TypeInstanceStore {

    private final Map<String, TypeInstance> byId;
    private final Map<Ref, List<TypeInstance>> byType;
    /** Computed when first asked: a request's inline store is never asked. */
    private volatile String revision;

    public TypeInstanceStore(Collection<TypeInstance> typeInstances) {
        this.byId = typeInstances.stream().collect(Collectors.toUnmodifiableMap(TypeInstance::id,
                Function.identity(), (first, second) -> first));
        this.byType = this.byId.values().stream().collect(Collectors.groupingBy(TypeInstance::typeRef,
                Collectors.toUnmodifiableList()));
    }

    public static TypeInstanceStore empty() {
        return new TypeInstanceStore(List.of());
    }

    public Optional<TypeInstance> find(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    public List<TypeInstance> ofType(Ref typeRef) {
        return byType.getOrDefault(typeRef, List.of());
    }

    public Collection<TypeInstance> all() {
        return byId.values();
    }

    /** The content revision of the TypeInstances: their order and source formatting do not count. */
    public String revision() {
        String known = revision;
        if (known == null) {
            known = ContentRevision.start().addCanonicalUnordered(byId.values()).revision();
            revision = known;
        }
        return known;
    }

    public int size() {
        return byId.size();
    }
}
