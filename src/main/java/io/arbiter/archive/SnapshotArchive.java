package io.arbiter.archive;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.arbiter.catalog.Catalog;
import io.arbiter.catalog.TypeInstanceStore;
import io.arbiter.decision.Snapshot;
import io.arbiter.document.DocumentException;
import io.arbiter.document.Documents;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.engine.RuleBaseBuilder;
import io.arbiter.engine.RuleBaseException;
import io.arbiter.model.Implementation;
import io.arbiter.model.OutputTypeInstance;
import io.arbiter.model.Ref;
import io.arbiter.model.TypeDefinition;
import io.arbiter.model.TypeInstance;
import io.arbiter.policy.PolicyDocument;
import io.arbiter.policy.PolicyParser;
import io.arbiter.policytype.PolicyType;
import io.arbiter.policytype.PolicyTypeRegistry;
import org.kie.api.io.ResourceType;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Past snapshots, content-addressed in a folder: each part (the policy, each rule base's files, the catalog, the
 * TypeInstance store) is stored once under its own revision in {@code parts/<kind>/<revision>.json}, and each snapshot
 * is a small manifest {@code snapshots/<snapshot revision>.json} naming its parts ({@link ArchiveManifest}). A reload
 * that changes only the policy adds one policy part and one manifest.
 *
 * <p>Files are written to a temporary file and moved into place, so a crash leaves no half part under a revision.
 * Only the last {@link #keep} snapshots to go live are kept; a part no kept manifest names is deleted. One process
 * writes an archive at a time.
 *
 * <p>Reading treats the folder as untrusted: names are revisions (so no manifest can name a file outside the folder),
 * symbolic links are not followed, files have a size limit, and each part loads back with its revision checked
 * ({@link #restore}).
 */
public final class SnapshotArchive {

    /** Snapshots kept when {@code --snapshot-archive-keep} is not given: a few weeks of daily changes. */
    public static final int DEFAULT_KEEP = 50;
    /** A part larger than this is refused when read: far above a 1,000-Implementation catalog (a few MB). */
    public static final long DEFAULT_MAX_PART_BYTES = 256L * 1024 * 1024;
    private static final long MAX_MANIFEST_BYTES = 1024 * 1024;
    private static final Pattern PART_REVISION = Pattern.compile("[0-9a-f]{16}");
    private static final Pattern SNAPSHOT_REVISION = Pattern.compile("s-[0-9a-f]{16}");
    private static final String SNAPSHOTS = "snapshots";

    /** Archived files nest a little deeper than the documents they were read from (one wrapping object). */
    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(Documents.MAX_DEPTH + 8)
                    .maxStringLength(Integer.MAX_VALUE)
                    .build())
            .build())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** The kinds of part, each in its own folder under {@code parts/}. */
    public enum Part {
        POLICY, RULES, CATALOG, TYPE_INSTANCES;

        /** {@code policy}, {@code rules}, {@code catalog}, {@code type-instances}. */
        public String folder() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    private final Path dir;
    private final int keep;
    private final long maxPartBytes;

    private SnapshotArchive(Path dir, int keep, long maxPartBytes) {
        this.dir = dir;
        this.keep = keep;
        this.maxPartBytes = maxPartBytes;
    }

    /** An archive in {@code dir} (created when written to) that keeps the last {@code keep} snapshots. */
    public static SnapshotArchive at(Path dir, int keep) {
        return at(dir, keep, DEFAULT_MAX_PART_BYTES);
    }

    public static SnapshotArchive at(Path dir, int keep, long maxPartBytes) {
        if (keep < 1) {
            throw new IllegalArgumentException("an archive keeps at least 1 snapshot, not " + keep);
        }
        return new SnapshotArchive(dir.toAbsolutePath().normalize(), keep, maxPartBytes);
    }

    public Path dir() {
        return dir;
    }

    // ---------------------------------------------------------------- writing

    /**
     * Archives {@code snapshot} as having gone live at {@code wentLive}: its parts not archived yet, then its
     * manifest; then prunes to the last {@link #keep} snapshots.
     */
    public ArchiveManifest write(Snapshot snapshot, Instant wentLive) throws IOException {
        Optional<ArchiveManifest> earlier;
        try {
            earlier = manifest(snapshot.revision());
        } catch (ArchiveException damaged) {
            earlier = Optional.empty(); // rewritten below
        }
        ArchiveManifest manifest = ArchiveManifest.of(snapshot, wentLive.toString(), earlier);
        PolicyDocument policy = snapshot.policy();
        writePart(Part.POLICY, manifest.policy(), () -> new PolicyPart(policy.version(), policy.warnings(), policy.source()));
        for (CompiledRuleBase base : snapshot.ruleBases().values()) {
            writePart(Part.RULES, base.revision(), () -> new RulesPart(base.files().stream().map(RuleFilePart::of).toList()));
        }
        writePart(Part.CATALOG, manifest.catalog(), () -> CatalogPart.of(snapshot.catalog()));
        writePart(Part.TYPE_INSTANCES, manifest.typeInstances(), () -> new TypeInstancesPart(snapshot.typeInstances().all()));
        writeAtomically(manifestPath(manifest.snapshotRevision()), JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(manifest));
        prune();
        return manifest;
    }

    private interface Content {
        Object build() throws IOException;
    }

    private void writePart(Part part, String revision, Content content) throws IOException {
        Path path = partPath(part, revision);
        refuseSymbolicLinks(path, "the archive cannot write " + dir.relativize(path));
        if (Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
            return; // content-addressed: the same revision is the same content
        }
        writeAtomically(path, JSON.writeValueAsBytes(content.build()));
    }

    /**
     * Writes {@code path} through a temporary file. A symbolic link among its folders is refused, as reading refuses
     * it: followed, it would put files outside the archive, where pruning (which does not follow links) never
     * removes them, and where a reader does not look.
     */
    private void writeAtomically(Path path, byte[] bytes) throws IOException {
        refuseSymbolicLinks(path, "the archive cannot write " + dir.relativize(path));
        Files.createDirectories(path.getParent());
        Path temporary = Files.createTempFile(path.getParent(), "." + path.getFileName(), ".tmp");
        try {
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            try {
                Files.move(temporary, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, path, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    // The parts as written: Jackson writes a record's fields in their order.

    private record PolicyPart(String version, List<String> warnings, JsonNode source) {
    }

    private record RulesPart(List<RuleFilePart> files) {
    }

    /** A rule file: {@code text} where it is text, so an auditor can read and diff an archived table; else base64. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private record RuleFilePart(String name, String type, String text, String base64) {
        static RuleFilePart of(RuleBaseBuilder.RuleFile file) {
            String text = utf8(file.content());
            return new RuleFilePart(file.name(), file.type() == ResourceType.DTABLE ? "DTABLE" : "DRL", text,
                    text == null ? Base64.getEncoder().encodeToString(file.content()) : null);
        }
    }

    /**
     * {@code outputs}: those of each Interface that declares any; left out when none does, as in archives written
     * before Interface outputs were read.
     */
    private record CatalogPart(List<Implementation> implementations, List<Ref> interfaces, Collection<TypeDefinition> types,
                               Collection<Ref> attributes,
                               @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, List<OutputTypeInstance>> outputs) {
        static CatalogPart of(Catalog catalog) {
            Map<String, List<OutputTypeInstance>> outputs = new LinkedHashMap<>();
            catalog.interfaces().stream().filter(iface -> !catalog.outputsOf(iface).isEmpty())
                    .forEach(iface -> outputs.put(iface.toString(), catalog.outputsOf(iface)));
            return new CatalogPart(catalog.implementations(), catalog.interfaces(), catalog.types(), catalog.attributes(),
                    outputs);
        }
    }

    private record TypeInstancesPart(Collection<TypeInstance> typeInstances) {
    }

    private static String utf8(byte[] content) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(content)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** Keeps the last {@link #keep} manifests to go live, and the parts they name; deletes everything else. */
    private void prune() throws IOException {
        List<ArchiveManifest> manifests = manifests();
        List<ArchiveManifest> kept = manifests.subList(0, Math.min(keep, manifests.size()));
        for (ArchiveManifest old : manifests.subList(kept.size(), manifests.size())) {
            Files.deleteIfExists(manifestPath(old.snapshotRevision()));
        }
        Set<String> named = new HashSet<>();
        kept.forEach(manifest -> manifest.parts().forEach((part, revisions) ->
                revisions.forEach(revision -> named.add(part.folder() + "/" + revision + ".json"))));
        for (Part part : Part.values()) {
            Path folder = dir.resolve("parts").resolve(part.folder());
            if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            try (Stream<Path> files = Files.list(folder)) {
                for (Path file : files.toList()) {
                    if (!named.contains(part.folder() + "/" + file.getFileName())) {
                        Files.deleteIfExists(file);
                    }
                }
            }
        }
    }

    // ---------------------------------------------------------------- reading

    /** The archived snapshots, the one that went live last first; an unreadable manifest is left out. */
    public List<ArchiveManifest> manifests() throws IOException {
        Path folder = dir.resolve(SNAPSHOTS);
        if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
            return List.of();
        }
        List<ArchiveManifest> manifests = new ArrayList<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.toList()) {
                String name = file.getFileName().toString();
                if (name.endsWith(".json") && SNAPSHOT_REVISION.matcher(name.substring(0, name.length() - 5)).matches()) {
                    try {
                        manifests.add(manifest(name.substring(0, name.length() - 5)).orElseThrow());
                    } catch (ArchiveException | java.util.NoSuchElementException e) {
                        // a damaged manifest names no snapshot that can be loaded: it neither keeps parts nor is found
                    }
                }
            }
        }
        manifests.sort(Comparator.comparing((ArchiveManifest manifest) -> wentLive(manifest)).reversed()
                .thenComparing(ArchiveManifest::snapshotRevision));
        return manifests;
    }

    private static Instant wentLive(ArchiveManifest manifest) {
        try {
            return Instant.parse(manifest.wentLive());
        } catch (RuntimeException e) {
            return Instant.EPOCH;
        }
    }

    /** The manifest of one snapshot, if archived. */
    public Optional<ArchiveManifest> manifest(String snapshotRevision) {
        if (!SNAPSHOT_REVISION.matcher(snapshotRevision).matches()) {
            throw new ArchiveException("'" + snapshotRevision + "' is not a snapshot revision (s- and 16 hex digits)");
        }
        Path path = manifestPath(snapshotRevision);
        byte[] bytes = read(path, MAX_MANIFEST_BYTES, "the manifest of snapshot " + snapshotRevision);
        if (bytes == null) {
            return Optional.empty();
        }
        ArchiveManifest manifest;
        try {
            manifest = JSON.readValue(bytes, ArchiveManifest.class);
        } catch (IOException | RuntimeException e) {
            throw new ArchiveException("the manifest " + path + " is damaged: " + reason(e));
        }
        if (!snapshotRevision.equals(manifest.snapshotRevision())) {
            throw new ArchiveException("the manifest " + path + " names snapshot " + manifest.snapshotRevision()
                    + ", not " + snapshotRevision);
        }
        manifest.parts().forEach((part, revisions) -> revisions.forEach(revision -> {
            if (revision == null || !PART_REVISION.matcher(revision).matches()) {
                throw new ArchiveException("the manifest " + path + " names " + part.folder() + " part '" + revision
                        + "', which is not a revision (16 hex digits)");
            }
        }));
        for (String at : manifest.liveFrom()) {
            try {
                Instant.parse(at);
            } catch (java.time.format.DateTimeParseException e) {
                throw new ArchiveException("the manifest " + path + " is damaged: liveFrom holds '" + at
                        + "', which is not a time (RFC 3339)");
            }
        }
        return Optional.of(manifest);
    }

    /**
     * The snapshot a logged decision was made with: the newest archived snapshot whose parts have every revision
     * {@code revisions} names ({@link ArchiveManifest#revisionsOf}); {@code policyType} is the decision's, whose rule
     * base a {@code rulesRevision} names.
     */
    public Optional<ArchiveManifest> find(Map<String, String> revisions, String policyType) throws IOException {
        if (revisions.containsKey("snapshotRevision")) {
            String revision = revisions.get("snapshotRevision");
            if (!SNAPSHOT_REVISION.matcher(revision).matches()) {
                return Optional.empty();
            }
            return manifest(revision).filter(manifest -> manifest.matches(revisions, policyType));
        }
        return manifests().stream().filter(manifest -> manifest.matches(revisions, policyType)).findFirst();
    }

    /** An archived snapshot as loaded back: {@code changed} lists each part whose content no longer has its revision. */
    public record Restored(ArchiveManifest manifest, Snapshot snapshot, List<String> changed) {
        public boolean intact() {
            return changed.isEmpty();
        }
    }

    /** Loads an archived snapshot back; a part changed since it was archived is an error. */
    public Snapshot load(String snapshotRevision, PolicyTypeRegistry registry) {
        ArchiveManifest manifest = manifest(snapshotRevision).orElseThrow(() ->
                new ArchiveException("no snapshot " + snapshotRevision + " in the archive " + dir));
        Restored restored = restore(manifest, registry);
        if (!restored.intact()) {
            throw new ArchiveException("the archived snapshot " + snapshotRevision + " was changed: " + restored.changed());
        }
        return restored.snapshot();
    }

    /**
     * Loads the snapshot {@code manifest} names. A part whose content no longer
     * has the revision it is stored under loads as it is now and is listed in {@link Restored#changed}; a missing,
     * unreadable or malformed part is an {@link ArchiveException}.
     */
    public Restored restore(ArchiveManifest manifest, PolicyTypeRegistry registry) {
        List<String> changed = new ArrayList<>();
        PolicyDocument policy = loadPolicy(manifest.policy());
        check(changed, Part.POLICY, manifest.policy(), policy.revision());
        for (String kind : manifest.rules().keySet()) {
            if (registry.type(kind).isEmpty()) {
                throw new ArchiveException("the archived snapshot " + manifest.snapshotRevision()
                        + " has rules for the policy type '" + kind + "', which this Arbiter does not know");
            }
        }
        // rule bases compile on their own threads, as the server loads them
        Map<String, CompletableFuture<CompiledRuleBase>> building = new LinkedHashMap<>();
        for (PolicyType type : registry.types()) {
            String revision = manifest.rules().get(type.name());
            if (revision == null) {
                throw new ArchiveException("the archived snapshot " + manifest.snapshotRevision()
                        + " has no rules for the policy type '" + type.name() + "'");
            }
            building.put(type.name(), CompletableFuture.supplyAsync(() -> loadRules(type, revision)));
        }
        Map<String, CompiledRuleBase> ruleBases = new LinkedHashMap<>();
        building.forEach((kind, future) -> {
            CompiledRuleBase base;
            try {
                base = future.join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof ArchiveException archive ? archive
                        : new ArchiveException("the rules of '" + kind + "' cannot be rebuilt: " + reason(e.getCause()), e);
            }
            check(changed, Part.RULES, manifest.rules().get(kind), base.revision());
            ruleBases.put(kind, base);
        });
        Catalog catalog = loadCatalog(manifest.catalog());
        check(changed, Part.CATALOG, manifest.catalog(), catalog.revision());
        TypeInstanceStore store = loadTypeInstances(manifest.typeInstances());
        check(changed, Part.TYPE_INSTANCES, manifest.typeInstances(), store.revision());
        Snapshot snapshot;
        try {
            snapshot = new Snapshot(policy, ruleBases, catalog, store, manifest.platformTypeInstances(), manifest.policyOrder());
        } catch (RuntimeException e) {
            throw new ArchiveException("the archived snapshot " + manifest.snapshotRevision() + " cannot be rebuilt: " + reason(e), e);
        }
        if (changed.isEmpty() && !snapshot.revision().equals(manifest.snapshotRevision())) {
            changed.add("the snapshot's platform TypeInstances or policy order: it loads as " + snapshot.revision()
                    + ", not " + manifest.snapshotRevision());
        }
        return new Restored(manifest, snapshot, List.copyOf(changed));
    }

    private static void check(List<String> changed, Part part, String expected, String actual) {
        if (!expected.equals(actual)) {
            changed.add(part.folder() + " " + expected + " (its content now has revision " + actual + ")");
        }
    }

    private PolicyDocument loadPolicy(String revision) {
        JsonNode part = readPart(Part.POLICY, revision);
        JsonNode source = part.path("source");
        if (!source.isObject()) {
            throw malformed(Part.POLICY, revision, "it has no source object");
        }
        try {
            PolicyDocument parsed = PolicyParser.parse(JSON.writeValueAsBytes(source), "application/json");
            List<String> warnings = new ArrayList<>();
            part.path("warnings").forEach(warning -> warnings.add(warning.asText()));
            return new PolicyDocument(parsed.policy(), parsed.source(), part.path("version").asText(parsed.version()),
                    parsed.revision(), warnings);
        } catch (DocumentException e) {
            throw malformed(Part.POLICY, revision, "it is not a valid policy: " + e.getMessage()
                    + (e.problems().isEmpty() ? "" : " " + e.problems().get(0)));
        } catch (JsonProcessingException e) {
            throw malformed(Part.POLICY, revision, reason(e));
        }
    }

    private CompiledRuleBase loadRules(PolicyType type, String revision) {
        JsonNode part = readPart(Part.RULES, revision);
        List<RuleBaseBuilder.RuleFile> files = new ArrayList<>();
        for (JsonNode file : part.path("files")) {
            String name = file.path("name").asText("");
            byte[] content;
            if (file.path("text").isTextual()) {
                content = file.path("text").asText().getBytes(StandardCharsets.UTF_8);
            } else {
                try {
                    content = Base64.getDecoder().decode(file.path("base64").asText(""));
                } catch (IllegalArgumentException e) {
                    throw malformed(Part.RULES, revision, "the file '" + name + "' is not base64");
                }
            }
            String kind = file.path("type").asText("");
            if (name.isEmpty() || !(kind.equals("DRL") || kind.equals("DTABLE"))) {
                throw malformed(Part.RULES, revision, "a file needs a name and a type DRL or DTABLE");
            }
            files.add(new RuleBaseBuilder.RuleFile(name, content, kind.equals("DRL") ? ResourceType.DRL : ResourceType.DTABLE));
        }
        if (files.isEmpty()) {
            throw malformed(Part.RULES, revision, "it lists no files");
        }
        try {
            return type.buildRuleBase(files);
        } catch (RuleBaseException e) {
            throw malformed(Part.RULES, revision, "its rules do not build: " + e.getMessage());
        } catch (RuntimeException e) {
            throw malformed(Part.RULES, revision, "its rules do not build: " + reason(e));
        }
    }

    private Catalog loadCatalog(String revision) {
        JsonNode part = readPart(Part.CATALOG, revision);
        try {
            return new Catalog(list(part, "implementations", new TypeReference<List<Implementation>>() { }),
                    list(part, "interfaces", new TypeReference<List<Ref>>() { }),
                    list(part, "types", new TypeReference<List<TypeDefinition>>() { }),
                    list(part, "attributes", new TypeReference<List<Ref>>() { }), outputs(part));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw malformed(Part.CATALOG, revision, reason(e));
        }
    }

    private static Map<Ref, List<OutputTypeInstance>> outputs(JsonNode part) {
        Map<Ref, List<OutputTypeInstance>> outputs = new LinkedHashMap<>();
        var fields = part.path("outputs").fields();
        while (fields.hasNext()) {
            var field = fields.next();
            outputs.put(Ref.parse(field.getKey()), JSON.convertValue(field.getValue(),
                    new TypeReference<List<OutputTypeInstance>>() { }));
        }
        return outputs;
    }

    private TypeInstanceStore loadTypeInstances(String revision) {
        JsonNode part = readPart(Part.TYPE_INSTANCES, revision);
        try {
            return new TypeInstanceStore(list(part, "typeInstances", new TypeReference<List<TypeInstance>>() { }));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw malformed(Part.TYPE_INSTANCES, revision, reason(e));
        }
    }

    /** A list field of a part; Jackson's conversion errors are IllegalArgumentExceptions, reported by the caller. */
    private static <T> List<T> list(JsonNode part, String field, TypeReference<List<T>> type) {
        JsonNode value = part.path(field);
        if (!value.isArray()) {
            throw new IllegalArgumentException("it has no '" + field + "' list");
        }
        List<T> list = JSON.convertValue(value, type);
        if (list.contains(null)) {
            throw new IllegalArgumentException("its '" + field + "' list holds null");
        }
        return list;
    }

    private JsonNode readPart(Part part, String revision) {
        Path path = partPath(part, revision);
        byte[] bytes = read(path, maxPartBytes, "the " + part.folder() + " part " + revision);
        if (bytes == null) {
            throw new ArchiveException("the " + part.folder() + " part " + revision + " is missing from the archive: "
                    + path + " does not exist");
        }
        try {
            JsonNode tree = JSON.readTree(bytes);
            if (tree == null || !tree.isObject()) {
                throw malformed(part, revision, "it is not a JSON object");
            }
            return tree;
        } catch (IOException e) {
            throw malformed(part, revision, "it is not JSON: " + reason(e));
        }
    }

    private ArchiveException malformed(Part part, String revision, String why) {
        return new ArchiveException("the " + part.folder() + " part " + revision + " (" + partPath(part, revision)
                + ") is damaged: " + why);
    }

    /**
     * A file of the archive, or null when it does not exist. Symbolic links are not followed and nothing outside the
     * folder is read; a file over {@code limit} bytes is refused before it is read.
     */
    private byte[] read(Path path, long limit, String what) {
        if (!path.normalize().startsWith(dir)) {
            throw new ArchiveException(what + " would be read outside the archive " + dir);
        }
        try {
            refuseSymbolicLinks(path, what);
            if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
                return null;
            }
            if (!Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
                throw new ArchiveException(what + ": " + path + " is not a regular file (a symbolic link or a folder)");
            }
            long size = Files.size(path);
            if (size > limit) {
                throw new ArchiveException(what + ": " + path + " is " + size + " bytes, more than the " + limit
                        + " an archived file may take");
            }
            return Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new ArchiveException(what + ": " + path + " cannot be read: " + e.getClass().getSimpleName(), e);
        }
    }

    /** Refuses a path of the archive with a symbolic link among its folders below the archive's own folder. */
    private void refuseSymbolicLinks(Path path, String what) {
        for (Path folder = path.getParent(); folder != null && folder.startsWith(dir) && !folder.equals(dir);
             folder = folder.getParent()) {
            if (Files.isSymbolicLink(folder)) {
                throw new ArchiveException(what + ": " + folder + " is a symbolic link, which the archive does not follow;"
                        + " replace it with a folder");
            }
        }
    }

    private Path partPath(Part part, String revision) {
        if (!PART_REVISION.matcher(revision).matches()) {
            throw new ArchiveException("'" + revision + "' is not a " + part.folder() + " revision (16 hex digits)");
        }
        return dir.resolve("parts").resolve(part.folder()).resolve(revision + ".json");
    }

    private Path manifestPath(String snapshotRevision) {
        return dir.resolve(SNAPSHOTS).resolve(snapshotRevision + ".json");
    }

    private static String reason(Throwable e) {
        if (e instanceof JsonProcessingException json) {
            return json.getOriginalMessage();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
