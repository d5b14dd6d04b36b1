package io.arbiter.policy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import io.arbiter.document.DocumentException;
import io.arbiter.document.Documents;
import io.arbiter.document.JsonSchemas;
import io.arbiter.document.LocatedDocument;
import io.arbiter.document.Locations;
import io.arbiter.document.Nodes;
import io.arbiter.document.Problem;
import io.arbiter.model.Ref;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Parses and validates a policy document (JSON or YAML). Every problem is reported, each with its field path
 * and, for text input, line and column: never just the first one.
 */
public final class PolicyParser {

    /** The syntax version a policy without {@code apiVersion} is written in. */
    public static final String CURRENT_VERSION = "0.2.0";
    private static final Pattern SEGMENT = Pattern.compile("^[A-Za-z0-9_-]+$");
    private static final JsonSchema SCHEMA = loadSchema("/schemas/policy-0.2.0.json");

    private PolicyParser() {
    }

    /** Parses text; the media type picks YAML or JSON. */
    public static PolicyDocument parse(byte[] body, String contentType) {
        return parse(Documents.parse(body, contentType));
    }

    /**
     * Parses a policy tree. A legacy (0.1.0) policy is converted to the current syntax first: the document keeps
     * the converted tree, version 0.1.0, and a warning saying so.
     */
    public static PolicyDocument parse(LocatedDocument document) {
        JsonNode tree = current(document.tree(), "$", document.locations());
        List<String> warnings = LegacyPolicyConverter.isLegacy(document.tree())
                ? List.of("legacy policy syntax " + LegacyPolicyConverter.LEGACY_VERSION + " was converted to the"
                + " current syntax; GET /v1/policy and `arbiter migrate` show the result") : List.of();
        return new PolicyDocument(bind(tree), tree, versionOf(document.tree()), revisionOf(tree), warnings);
    }

    /** Parses a policy embedded in a request; problems are located under {@code prefix} (e.g. {@code $.actionPolicy}). */
    public static Policy parseEmbedded(JsonNode tree, String prefix, Locations locations) {
        return bind(current(tree, prefix, locations));
    }

    /**
     * The valid policy {@code tree} in the current syntax: itself, or a legacy policy converted (a new tree, whose
     * problems are reported at the fields of the legacy policy they come from). Every problem is located under
     * {@code prefix}.
     */
    private static JsonNode current(JsonNode tree, String prefix, Locations locations) {
        boolean legacy = LegacyPolicyConverter.isLegacy(tree);
        JsonNode current = tree;
        if (legacy) {
            try {
                current = LegacyPolicyConverter.convert(tree);
            } catch (DocumentException e) {
                throw new DocumentException("the legacy policy is invalid: " + e.problems().size() + " problem(s)",
                        e.problems().stream().map(p -> p.under(prefix).locatedBy(locations)).toList());
            }
        }
        List<Problem> problems = validate(current).stream()
                .map(problem -> legacy ? Problem.at(LegacyPolicyConverter.legacyPath(problem.path(), tree),
                        problem.problem() + " (in the converted legacy policy)") : problem)
                .map(problem -> problem.under(prefix).locatedBy(locations))
                .toList();
        if (!problems.isEmpty()) {
            String at = prefix.equals("$") ? "" : " at " + prefix;
            String count = ": " + problems.size() + " problem(s)";
            throw new DocumentException(legacy ? "the legacy policy" + at + " converts to an invalid policy"
                    + (at.isEmpty() ? count : "") : "the policy" + at + " is invalid" + count, problems);
        }
        return current;
    }

    /** Every problem of a policy tree, unlocated (paths only), in document order. */
    public static List<Problem> validate(JsonNode tree) {
        if (!tree.isObject()) {
            return List.of(Problem.at("$", "a policy must be an object"));
        }
        JsonNode apiVersion = tree.path("apiVersion");
        if (!apiVersion.isMissingNode() && !apiVersion.asText().equals(CURRENT_VERSION)) {
            return List.of(Problem.at("$.apiVersion", "apiVersion " + apiVersion + " is not a policy syntax this parser reads"
                    + " (current syntax: " + CURRENT_VERSION + ", legacy: " + LegacyPolicyConverter.LEGACY_VERSION + " with a rules: map)"));
        }
        List<Problem> problems = new ArrayList<>();
        problems.addAll(JsonSchemas.problems(SCHEMA, tree));
        problems.addAll(semanticProblems(tree));
        problems.sort(Comparator.comparing(Problem::path));
        return problems;
    }

    /**
     * What the schema cannot say. Runs beside the schema check, so it reports in the same pass but must not trust the
     * shape: it only walks lists that are lists and reads only fields of the expected type.
     */
    private static List<Problem> semanticProblems(JsonNode tree) {
        List<Problem> problems = new ArrayList<>();
        List<JsonNode> rules = Nodes.items(tree.path("interface").path("rules"));
        Map<String, Integer> seenKeys = new HashMap<>();
        for (int i = 0; i < rules.size(); i++) {
            String rulePath = "$.interface.rules[" + i + "]";
            JsonNode ref = rules.get(i).path("interface");
            checkRef(ref, rulePath + ".interface", true, problems);
            if (!ref.path("path").isTextual()) {
                continue;
            }
            String key = ref.path("path").asText() + (hasRevision(ref) ? ":" + ref.path("revision").asText() : "");
            Integer first = seenKeys.putIfAbsent(key, i);
            if (first != null) {
                problems.add(Problem.at(rulePath + ".interface",
                        "a second rule for Interface " + key + " (the first is interface.rules[" + first + "])"));
            }
            List<JsonNode> oneOf = Nodes.items(rules.get(i).path("oneOf"));
            for (int j = 0; j < oneOf.size(); j++) {
                String itemPath = rulePath + ".oneOf[" + j + "].implementationConstraints";
                JsonNode constraints = oneOf.get(j).path("implementationConstraints");
                if (constraints.path("path").isTextual()) {
                    String path = constraints.path("path").asText();
                    if (path.contains("*")) {
                        problems.add(Problem.at(itemPath + ".path", "an Implementation path is exact: '*' is not allowed in " + path));
                    } else {
                        checkPath(path, itemPath + ".path", false, problems);
                    }
                }
                JsonNode inject = oneOf.get(j).path("inject");
                uniqueNames(inject.path("additionalParameters"), rulePath + ".oneOf[" + j + "].inject.additionalParameters", problems);
                uniqueNames(inject.path("additionalTypeInstances"), rulePath + ".oneOf[" + j + "].inject.additionalTypeInstances", problems);
                checkRefs(constraints.path("attributes"), itemPath + ".attributes", problems);
                checkRefs(constraints.path("requires"), itemPath + ".requires", problems);
            }
        }
        List<JsonNode> typeInstanceRules = Nodes.items(tree.path("typeInstance").path("rules"));
        for (int i = 0; i < typeInstanceRules.size(); i++) {
            checkRef(typeInstanceRules.get(i).path("typeRef"), "$.typeInstance.rules[" + i + "].typeRef", true, problems);
        }
        return problems;
    }

    /** One inject list may not name the same parameter or additional TypeInstance twice: which one would apply? */
    private static void uniqueNames(JsonNode entries, String path, List<Problem> problems) {
        Map<String, Integer> seen = new HashMap<>();
        List<JsonNode> items = Nodes.items(entries);
        for (int k = 0; k < items.size(); k++) {
            JsonNode name = items.get(k).path("name");
            if (name.isTextual()) {
                Integer first = seen.putIfAbsent(name.asText(), k);
                if (first != null) {
                    problems.add(Problem.at(path + "[" + k + "].name", "name '" + name.asText()
                            + "' is already used by entry [" + first + "] of this list"));
                }
            }
        }
    }

    private static void checkRefs(JsonNode refs, String path, List<Problem> problems) {
        List<JsonNode> items = Nodes.items(refs);
        for (int k = 0; k < items.size(); k++) {
            checkRef(items.get(k), path + "[" + k + "]", false, problems);
        }
    }

    private static void checkRef(JsonNode ref, String path, boolean patternAllowed, List<Problem> problems) {
        if (!ref.path("path").isTextual()) {
            return; // the schema already reports a missing or mistyped path
        }
        checkPath(ref.path("path").asText(), path + ".path", patternAllowed, problems);
    }

    private static void checkPath(String path, String where, boolean patternAllowed, List<Problem> problems) {
        if (!path.startsWith("cap.")) {
            problems.add(Problem.at(where, "path '" + path + "' must start with 'cap.'"));
            return;
        }
        String[] segments = path.split("\\.", -1);
        for (int s = 0; s < segments.length; s++) {
            boolean last = s == segments.length - 1;
            if (segments[s].equals("*")) {
                if (!last || !patternAllowed) {
                    problems.add(Problem.at(where, patternAllowed
                            ? "'*' may only be the last path segment: " + path
                            : "'*' is not allowed here: " + path));
                    return;
                }
            } else if (!SEGMENT.matcher(segments[s]).matches()) {
                problems.add(Problem.at(where, "path '" + path + "' has an invalid segment '" + segments[s] + "'"));
                return;
            }
        }
    }

    private static boolean hasRevision(JsonNode ref) {
        return ref.has("revision") && !ref.path("revision").isNull();
    }

    private static Policy bind(JsonNode tree) {
        JsonNode iface = tree.path("interface");
        List<Policy.InterfaceRule> rules = new ArrayList<>();
        for (JsonNode rule : iface.path("rules")) {
            List<Policy.OneOfItem> items = new ArrayList<>();
            for (JsonNode item : rule.path("oneOf")) {
                items.add(new Policy.OneOfItem(constraints(item.path("implementationConstraints")), inject(item.path("inject"))));
            }
            rules.add(new Policy.InterfaceRule(ref(rule.path("interface")), items));
        }
        List<Policy.TypeInstanceRule> typeInstanceRules = new ArrayList<>();
        for (JsonNode rule : tree.path("typeInstance").path("rules")) {
            JsonNode backend = rule.path("backend");
            typeInstanceRules.add(new Policy.TypeInstanceRule(ref(rule.path("typeRef")),
                    new Policy.Backend(backend.path("id").asText(), textOrNull(backend.path("description")))));
        }
        return new Policy(inject(iface.path("default").path("inject")), rules, typeInstanceRules);
    }

    private static Policy.ImplementationConstraints constraints(JsonNode node) {
        return new Policy.ImplementationConstraints(textOrNull(node.path("path")), refs(node.path("attributes")),
                refs(node.path("requires")));
    }

    private static Policy.Inject inject(JsonNode node) {
        List<Policy.RequiredTypeInstance> required = new ArrayList<>();
        node.path("requiredTypeInstances").forEach(ti -> required.add(
                new Policy.RequiredTypeInstance(ti.path("id").asText(), textOrNull(ti.path("description")))));
        List<Policy.AdditionalParameter> parameters = new ArrayList<>();
        node.path("additionalParameters").forEach(p -> parameters.add(
                new Policy.AdditionalParameter(p.path("name").asText(), p.path("value").deepCopy())));
        List<Policy.AdditionalTypeInstance> additional = new ArrayList<>();
        node.path("additionalTypeInstances").forEach(ti -> additional.add(
                new Policy.AdditionalTypeInstance(ti.path("name").asText(), ti.path("id").asText())));
        return new Policy.Inject(required, parameters, additional);
    }

    private static List<Ref> refs(JsonNode node) {
        List<Ref> refs = new ArrayList<>();
        node.forEach(ref -> refs.add(ref(ref)));
        return refs;
    }

    private static Ref ref(JsonNode node) {
        return new Ref(node.path("path").asText(), textOrNull(node.path("revision")));
    }

    private static String textOrNull(JsonNode node) {
        return node.isValueNode() && !node.isNull() ? node.asText() : null;
    }

    /** The syntax version a policy tree is written in: 0.1.0 for the legacy map, else its apiVersion or the current one. */
    public static String versionOf(JsonNode tree) {
        if (LegacyPolicyConverter.isLegacy(tree)) {
            return LegacyPolicyConverter.LEGACY_VERSION;
        }
        JsonNode apiVersion = tree.path("apiVersion");
        return apiVersion.isTextual() ? apiVersion.asText() : CURRENT_VERSION;
    }

    /** A content hash: the same policy always has the same revision, whatever its formatting. */
    public static String revisionOf(JsonNode tree) {
        try {
            byte[] canonical = Documents.jsonMapper().copy()
                    .configure(com.fasterxml.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true)
                    .writeValueAsString(Documents.jsonMapper().treeToValue(tree, Object.class))
                    .getBytes(StandardCharsets.UTF_8);
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical);
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (JsonProcessingException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot hash policy", e);
        }
    }

    private static JsonSchema loadSchema(String resource) {
        return JsonSchemas.compile(JsonSchemas.resource(resource));
    }
}
