package io.arbiter.catalog;

import io.arbiter.model.Implementation;
import io.arbiter.model.Ref;
import io.arbiter.model.TypeDefinition;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * An immutable Hub catalog: Implementations indexed by the Interface paths they implement, Interface revisions,
 * Types and Attributes. Indexes exist so a decision inserts only the Implementations of one Interface.
 */
public final class Catalog {

    private final List<Implementation> implementations;
    private final Map<String, List<Implementation>> implementationsByInterfacePath;
    private final Map<String, List<String>> interfaceRevisions;
    private final Map<Ref, TypeDefinition> types;
    private final Set<Ref> attributes;
    private final java.util.Map<Ref, com.networknt.schema.JsonSchema> schemas = new java.util.concurrent.ConcurrentHashMap<>();

    public Catalog(Collection<Implementation> implementations, Collection<Ref> interfaces,
                   Collection<TypeDefinition> types, Collection<Ref> attributes) {
        this(implementations, interfaces, types, attributes, true);
    }

    /** {@code keepRevisions}: false for a request's Implementations, whose revisions must not enter a shared cache. */
    private Catalog(Collection<Implementation> implementations, Collection<Ref> interfaces,
                    Collection<TypeDefinition> types, Collection<Ref> attributes, boolean keepRevisions) {
        if (keepRevisions) {
            Revisions.keep(implementations.stream().flatMap(impl -> Stream.concat(Stream.of(impl.revision()),
                    impl.implementsRefs().stream().map(Ref::revision))).toList());
            Revisions.keep(interfaces.stream().map(Ref::revision).toList());
        }
        this.implementations = List.copyOf(implementations);
        this.implementationsByInterfacePath = this.implementations.stream()
                .flatMap(impl -> impl.implementsRefs().stream().map(Ref::path).distinct()
                        .map(path -> Map.entry(path, impl)))
                .collect(Collectors.groupingBy(Map.Entry::getKey,
                        Collectors.mapping(Map.Entry::getValue, Collectors.toUnmodifiableList())));
        this.interfaceRevisions = interfaces.stream().collect(Collectors.groupingBy(Ref::path,
                Collectors.mapping(Ref::revision, Collectors.toUnmodifiableList())));
        this.types = types.stream().collect(Collectors.toUnmodifiableMap(TypeDefinition::ref, Function.identity(),
                (first, second) -> first));
        this.attributes = Set.copyOf(attributes);
    }

    public static Catalog of(Collection<Implementation> implementations) {
        return new Catalog(implementations, List.of(), List.of(), List.of());
    }

    /**
     * This catalog's Interfaces, Types and Attributes with other Implementations: a request's inline
     * Implementations replace the catalog's, while revisions and schemas still come from the catalog.
     */
    public Catalog withImplementations(Collection<Implementation> replacement) {
        List<Ref> interfaces = interfaceRevisions.entrySet().stream()
                .flatMap(e -> e.getValue().stream().map(revision -> new Ref(e.getKey(), revision))).toList();
        return new Catalog(replacement, interfaces, types.values(), attributes, false);
    }

    public List<Implementation> implementations() {
        return implementations;
    }

    public List<Implementation> implementationsOf(String interfacePath) {
        return implementationsByInterfacePath.getOrDefault(interfacePath, List.of());
    }

    public Set<String> interfacePaths() {
        return Stream.concat(interfaceRevisions.keySet().stream(), implementationsByInterfacePath.keySet().stream())
                .collect(Collectors.toUnmodifiableSet());
    }

    /**
     * The highest revision of an Interface path known from Interface manifests and from what Implementations
     * declare they implement.
     */
    public Optional<String> highestInterfaceRevision(String interfacePath) {
        Stream<String> fromManifests = interfaceRevisions.getOrDefault(interfacePath, List.of()).stream();
        Stream<String> fromImplementations = implementationsOf(interfacePath).stream()
                .flatMap(impl -> impl.implementsRefs().stream())
                .filter(ref -> ref.path().equals(interfacePath))
                .map(Ref::revision);
        return Stream.concat(fromManifests, fromImplementations)
                .filter(java.util.Objects::nonNull)
                .max(Revisions.ASCENDING);
    }

    public Optional<TypeDefinition> type(Ref ref) {
        return Optional.ofNullable(types.get(ref));
    }

    /** The compiled JSON schema of a Type the catalog holds (compiled once per catalog). */
    public Optional<com.networknt.schema.JsonSchema> schema(Ref typeRef) {
        TypeDefinition type = types.get(typeRef);
        if (type == null || type.jsonSchema() == null) {
            return Optional.empty();
        }
        return Optional.of(schemas.computeIfAbsent(typeRef, ref -> io.arbiter.document.JsonSchemas.compile(type.jsonSchema())));
    }

    public int typeCount() {
        return types.size();
    }

    public int attributeCount() {
        return attributes.size();
    }

    public int interfaceCount() {
        return interfaceRevisions.values().stream().mapToInt(List::size).sum();
    }
}
