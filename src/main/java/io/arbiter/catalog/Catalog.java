package io.arbiter.catalog;

import com.networknt.schema.JsonSchema;
import io.arbiter.document.ContentRevision;
import io.arbiter.document.JsonSchemas;
import io.arbiter.model.Implementation;
import io.arbiter.model.ImplementationAttribute;
import io.arbiter.model.Ref;
import io.arbiter.model.TypeDefinition;

import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
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
    /** Each Interface revision's declared outputs ({@code spec.output.typeInstances}), in manifest order. */
    private final Map<Ref, List<io.arbiter.model.OutputTypeInstance>> outputs;
    /** Every Type's JSON schema, compiled when the catalog is built so that no decision compiles one. */
    private final Map<Ref, TypeSchema> schemas;
    /**
     * Each Implementation's attributes as facts, built with the catalog: once per snapshot for the Hub's, once per
     * request for a request's inline ones. Keyed by identity: the lists {@link #implementationsOf} returns.
     */
    private final Map<Implementation, List<ImplementationAttribute>> attributeFacts;

    /** Computed when first asked: a request's inline catalog is never asked. */
    private volatile String revision;

    /** A Type's compiled schema, or why its schema cannot be used. */
    private record TypeSchema(JsonSchema schema, String problem) {
    }

    public Catalog(Collection<Implementation> implementations, Collection<Ref> interfaces,
                   Collection<TypeDefinition> types, Collection<Ref> attributes) {
        this(implementations, interfaces, types, attributes, Map.of(), null, true);
    }

    /** {@code outputs}: each Interface revision's declared output TypeInstances. */
    public Catalog(Collection<Implementation> implementations, Collection<Ref> interfaces,
                   Collection<TypeDefinition> types, Collection<Ref> attributes,
                   Map<Ref, List<io.arbiter.model.OutputTypeInstance>> outputs) {
        this(implementations, interfaces, types, attributes, outputs, null, true);
    }

    /** {@code keepRevisions}: false for a request's Implementations, whose revisions must not enter a shared cache. */
    private Catalog(Collection<Implementation> implementations, Collection<Ref> interfaces,
                    Collection<TypeDefinition> types, Collection<Ref> attributes,
                    Map<Ref, List<io.arbiter.model.OutputTypeInstance>> outputs, Map<Ref, TypeSchema> compiled,
                    boolean keepRevisions) {
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
        Map<Ref, List<io.arbiter.model.OutputTypeInstance>> declared = new LinkedHashMap<>();
        outputs.forEach((iface, list) -> declared.put(iface, List.copyOf(list)));
        this.outputs = Collections.unmodifiableMap(declared);
        this.schemas = compiled != null ? compiled : compile(this.types.values());
        Map<Implementation, List<ImplementationAttribute>> facts = new IdentityHashMap<>();
        this.implementations.forEach(impl -> facts.put(impl, ImplementationAttribute.of(impl)));
        this.attributeFacts = Collections.unmodifiableMap(facts);
    }

    /** The attributes of one of this catalog's Implementations, one fact per distinct attribute. */
    public List<ImplementationAttribute> attributesOf(Implementation implementation) {
        List<ImplementationAttribute> facts = attributeFacts.get(implementation);
        return facts != null ? facts : ImplementationAttribute.of(implementation);
    }

    private static Map<Ref, TypeSchema> compile(Collection<TypeDefinition> types) {
        Map<Ref, TypeSchema> compiled = new LinkedHashMap<>();
        for (TypeDefinition type : types) {
            if (type.jsonSchema() == null) {
                continue;
            }
            try {
                compiled.put(type.ref(), new TypeSchema(JsonSchemas.compileDeclared(type.jsonSchema()), null));
            } catch (JsonSchemas.UnusableSchemaException e) {
                compiled.put(type.ref(), new TypeSchema(null, e.getMessage()));
            }
        }
        return Map.copyOf(compiled);
    }

    /**
     * This catalog's Interfaces, Types and Attributes with other Implementations: a request's inline
     * Implementations replace the catalog's, while revisions and schemas still come from the catalog.
     */
    public Catalog withImplementations(Collection<Implementation> replacement) {
        return new Catalog(replacement, interfaces(), types.values(), attributes, outputs, schemas, false);
    }

    /**
     * The content revision of everything decisions read from this catalog: Implementations, Interfaces, Types with
     * their schemas, Attributes. Manifest files, their order and formatting do not count.
     */
    public String revision() {
        String known = revision;
        if (known == null) {
            ContentRevision start = ContentRevision.start()
                    .addCanonicalUnordered(implementations).add("")
                    .addCanonicalUnordered(interfaces()).add("")
                    .addCanonicalUnordered(types.values()).add("")
                    .addCanonicalUnordered(attributes);
            if (!outputs.isEmpty()) {
                // an Interface's outputs decide which Types a step asks a backend for
                start = start.add("").addCanonicalUnordered(outputs.entrySet().stream()
                        .map(entry -> Map.entry(entry.getKey().toString(), entry.getValue())).toList());
            }
            known = start.revision();
            revision = known;
        }
        return known;
    }

    /**
     * The TypeInstances an Interface revision declares as its output: what an Implementation of it produces. Empty for
     * an Interface without outputs, or one the catalog has no manifest for.
     */
    public List<io.arbiter.model.OutputTypeInstance> outputsOf(Ref interfaceRef) {
        return outputs.getOrDefault(interfaceRef, List.of());
    }

    /** Every Interface revision read from Interface manifests. */
    public List<Ref> interfaces() {
        return interfaceRevisions.entrySet().stream()
                .flatMap(e -> e.getValue().stream().map(revision -> new Ref(e.getKey(), revision))).toList();
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

    /** The compiled JSON schema of a Type the catalog holds; empty when it has none or it cannot be used. */
    public Optional<JsonSchema> schema(Ref typeRef) {
        return Optional.ofNullable(schemas.get(typeRef)).map(TypeSchema::schema);
    }

    /** Why a Type's JSON schema cannot be used (e.g. a dialect Arbiter does not know); empty when it can. */
    public Optional<String> schemaProblem(Ref typeRef) {
        return Optional.ofNullable(schemas.get(typeRef)).map(TypeSchema::problem);
    }

    /** The Types the catalog defines, with their schemas. */
    public Collection<TypeDefinition> types() {
        return types.values();
    }

    /** The Attributes the catalog defines. */
    public Set<Ref> attributes() {
        return attributes;
    }

    /** The Types the catalog defines. */
    public Set<Ref> typeRefs() {
        return types.keySet();
    }

    /** The Interfaces the catalog defines, every revision counted. */
    public int interfaceCount() {
        return interfaceRevisions.values().stream().mapToInt(List::size).sum();
    }
}
