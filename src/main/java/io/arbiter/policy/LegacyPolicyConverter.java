package io.arbiter.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.PathType;
import io.arbiter.document.DocumentException;
import io.arbiter.document.Documents;
import io.arbiter.document.Problem;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Converts the legacy policy syntax ({@code apiVersion: 0.1.0}, a {@code rules} map keyed by {@code path:revision},
 * {@code path} or {@code cap.*}, with {@code injectTypeInstances: [{id, typeRef}]}) to the current syntax
 * ({@code interface.rules[]} with {@code inject.requiredTypeInstances}). A pure tree-to-tree transformation: the
 * input is not modified. Only the legacy structure is checked here; the semantic checks of the result (revision
 * format, '*' placement, duplicate rules) are {@link PolicyParser#validate(JsonNode)}'s.
 */
public final class LegacyPolicyConverter {

    public static final String LEGACY_VERSION = "0.1.0";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Set<String> TOP_FIELDS = Set.of("apiVersion", "rules");
    private static final Set<String> RULE_FIELDS = Set.of("oneOf");
    private static final Set<String> ITEM_FIELDS = Set.of("implementationConstraints", "injectTypeInstances");
    private static final Set<String> INJECT_FIELDS = Set.of("id", "typeRef", "description");
    private static final Set<String> TYPE_REF_FIELDS = Set.of("path", "revision");

    private LegacyPolicyConverter() {
    }

    /** True when the tree is the legacy syntax: apiVersion "0.1.0", or a top-level "rules" object (map) without "interface". */
    public static boolean isLegacy(JsonNode tree) {
        if (tree == null || !tree.isObject()) {
            return false;
        }
        JsonNode apiVersion = tree.get("apiVersion");
        if (apiVersion != null && apiVersion.isTextual() && LEGACY_VERSION.equals(apiVersion.asText())) {
            return true;
        }
        JsonNode rules = tree.get("rules");
        return rules != null && rules.isObject() && !tree.has("interface");
    }

    /**
     * The current-syntax equivalent of a legacy policy.
     *
     * @throws DocumentException with every problem found, each located by a JSON-path-like path into the legacy tree
     */
    public static JsonNode convert(JsonNode legacy) {
        List<Problem> problems = new ArrayList<>();
        if (legacy == null || !legacy.isObject()) {
            problems.add(Problem.at("$", "a policy must be an object"));
            throw failure(problems);
        }
        unknownFields(legacy, "$", TOP_FIELDS, problems);
        JsonNode apiVersion = legacy.get("apiVersion");
        if (apiVersion != null && !(apiVersion.isTextual() && LEGACY_VERSION.equals(apiVersion.asText()))) {
            problems.add(Problem.at(PathType.JSON_PATH.append("$", "apiVersion"),
                    "apiVersion of the legacy syntax must be '" + LEGACY_VERSION + "', not " + apiVersion));
        }

        ArrayNode rules = NODES.arrayNode();
        String rulesPath = PathType.JSON_PATH.append("$", "rules");
        JsonNode legacyRules = legacy.get("rules");
        if (legacyRules == null) {
            problems.add(Problem.at(rulesPath, "missing 'rules' (a map of Interface keys to rules)"));
        } else if (!legacyRules.isObject()) {
            problems.add(Problem.at(rulesPath, "'rules' must be an object (a map of Interface keys to rules), not "
                    + kind(legacyRules)));
        } else {
            for (Iterator<Map.Entry<String, JsonNode>> it = legacyRules.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> entry = it.next();
                ObjectNode rule = rule(entry.getKey(), entry.getValue(),
                        Documents.childPath(rulesPath, entry.getKey()), problems);
                if (rule != null) {
                    rules.add(rule);
                }
            }
        }
        if (!problems.isEmpty()) {
            throw failure(problems);
        }
        ObjectNode current = NODES.objectNode();
        current.putObject("interface").set("rules", rules);
        return current;
    }

    private static final Pattern CONVERTED_RULE = Pattern.compile("^\\$\\.interface\\.rules\\[(\\d+)](.*)$");
    private static final Pattern CONVERTED_INJECT = Pattern.compile("^(\\.oneOf\\[\\d+])\\.inject(?:\\.requiredTypeInstances)?(.*)$");

    /**
     * Where a field of {@link #convert}'s result came from in {@code legacy}, so that a problem of the converted
     * policy can be located in the text the user wrote: {@code $.interface.rules[1].oneOf[0].inject.requiredTypeInstances[2]}
     * is {@code $.rules['cap.x:0.1.0'].oneOf[0].injectTypeInstances[2]}. A path it cannot map stays as it is.
     */
    public static String legacyPath(String convertedPath, JsonNode legacy) {
        Matcher rule = CONVERTED_RULE.matcher(convertedPath);
        JsonNode rules = legacy.path("rules");
        if (!rule.matches() || !rules.isObject()) {
            return convertedPath;
        }
        int index = Integer.parseInt(rule.group(1));
        Iterator<String> keys = rules.fieldNames();
        for (int i = 0; i < index && keys.hasNext(); i++) {
            keys.next();
        }
        if (!keys.hasNext()) {
            return convertedPath;
        }
        String rulePath = Documents.childPath("$.rules", keys.next());
        String rest = rule.group(2);
        if (rest.startsWith(".interface")) {
            return rulePath; // the key is the Interface reference
        }
        Matcher inject = CONVERTED_INJECT.matcher(rest);
        return inject.matches() ? rulePath + inject.group(1) + ".injectTypeInstances" + inject.group(2) : rulePath + rest;
    }

    private static ObjectNode rule(String key, JsonNode value, String path, List<Problem> problems) {
        ObjectNode ref = interfaceRef(key, path, problems);
        if (!checkObject(value, path, "a rule must be an object with 'oneOf'", RULE_FIELDS, problems)) {
            return null;
        }
        JsonNode oneOf = value.get("oneOf");
        String oneOfPath = PathType.JSON_PATH.append(path, "oneOf");
        if (oneOf == null) {
            problems.add(Problem.at(path, "missing 'oneOf'"));
            return null;
        }
        if (!oneOf.isArray()) {
            problems.add(Problem.at(oneOfPath, "'oneOf' must be an array, not " + kind(oneOf)));
            return null;
        }
        ArrayNode items = NODES.arrayNode();
        for (int i = 0; i < oneOf.size(); i++) {
            ObjectNode item = item(oneOf.get(i), PathType.JSON_PATH.append(oneOfPath, i), problems);
            if (item != null) {
                items.add(item);
            }
        }
        if (ref == null) {
            return null;
        }
        ObjectNode rule = NODES.objectNode();
        rule.set("interface", ref);
        rule.set("oneOf", items);
        return rule;
    }

    /** {@code path:revision} to {@code {path, revision}}; {@code path} (and {@code cap.*}) to {@code {path}}. */
    private static ObjectNode interfaceRef(String key, String path, List<Problem> problems) {
        if (key.isEmpty()) {
            problems.add(Problem.at(path, "an empty key: expected 'path:revision', 'path' or 'cap.*'"));
            return null;
        }
        int colon = key.indexOf(':');
        if (colon >= 0 && key.indexOf(':', colon + 1) >= 0) {
            problems.add(Problem.at(path, "key '" + key + "' has more than one ':': expected 'path:revision', 'path' or 'cap.*'"));
            return null;
        }
        ObjectNode ref = NODES.objectNode();
        if (colon < 0) {
            ref.put("path", key);
            return ref;
        }
        String interfacePath = key.substring(0, colon);
        String revision = key.substring(colon + 1);
        if (interfacePath.isEmpty() || revision.isEmpty()) {
            problems.add(Problem.at(path, "key '" + key + "' has an empty " + (interfacePath.isEmpty() ? "path" : "revision")
                    + ": expected 'path:revision', 'path' or 'cap.*'"));
            return null;
        }
        ref.put("path", interfacePath);
        ref.put("revision", revision);
        return ref;
    }

    private static ObjectNode item(JsonNode legacyItem, String path, List<Problem> problems) {
        if (!checkObject(legacyItem, path, "a oneOf item must be an object", ITEM_FIELDS, problems)) {
            return null;
        }
        ObjectNode item = NODES.objectNode();
        JsonNode constraints = legacyItem.get("implementationConstraints");
        if (constraints != null) {
            item.set("implementationConstraints", constraints.deepCopy());
        }
        JsonNode inject = legacyItem.get("injectTypeInstances");
        if (inject != null) {
            String injectPath = PathType.JSON_PATH.append(path, "injectTypeInstances");
            if (!inject.isArray()) {
                problems.add(Problem.at(injectPath, "'injectTypeInstances' must be an array, not " + kind(inject)));
            } else {
                ArrayNode required = NODES.arrayNode();
                for (int i = 0; i < inject.size(); i++) {
                    ObjectNode typeInstance = requiredTypeInstance(inject.get(i),
                            PathType.JSON_PATH.append(injectPath, i), problems);
                    if (typeInstance != null) {
                        required.add(typeInstance);
                    }
                }
                item.putObject("inject").set("requiredTypeInstances", required);
            }
        }
        return item;
    }

    /** {@code {id, typeRef, description?}} to {@code {id, description}}; the description defaults to {@code path:revision}. */
    private static ObjectNode requiredTypeInstance(JsonNode entry, String path, List<Problem> problems) {
        if (!checkObject(entry, path, "an injectTypeInstances entry must be an object", INJECT_FIELDS, problems)) {
            return null;
        }
        boolean valid = nonEmptyText(entry, "id", "the TypeInstance id", path, problems);
        JsonNode id = entry.get("id");
        JsonNode description = entry.get("description");
        if (description != null && !description.isTextual()) {
            problems.add(Problem.at(PathType.JSON_PATH.append(path, "description"),
                    "'description' must be a string, not " + kind(description)));
            valid = false;
        }
        String typeRefDescription = typeRefDescription(entry.get("typeRef"), PathType.JSON_PATH.append(path, "typeRef"), problems);
        if (!valid) {
            return null;
        }
        ObjectNode required = NODES.objectNode();
        required.put("id", id.asText());
        if (description != null) {
            required.put("description", description.asText());
        } else if (typeRefDescription != null) {
            required.put("description", typeRefDescription);
        }
        return required;
    }

    private static String typeRefDescription(JsonNode typeRef, String path, List<Problem> problems) {
        if (typeRef == null) {
            return null;
        }
        if (!checkObject(typeRef, path, "'typeRef' must be an object with 'path' and 'revision'", TYPE_REF_FIELDS, problems)) {
            return null;
        }
        boolean valid = nonEmptyText(typeRef, "path", "the Type path", path, problems);
        JsonNode typePath = typeRef.get("path");
        JsonNode revision = typeRef.get("revision");
        if (revision != null && !revision.isNull() && !revision.isTextual()) {
            problems.add(Problem.at(PathType.JSON_PATH.append(path, "revision"),
                    "'revision' must be a string, not " + kind(revision)));
            valid = false;
        }
        if (!valid) {
            return null;
        }
        return revision == null || revision.isNull() || revision.asText().isEmpty()
                ? typePath.asText() : typePath.asText() + ":" + revision.asText();
    }

    /** Whether {@code node.field} is a non-empty string; else a problem saying it is missing ({@code what}) or what it is. */
    private static boolean nonEmptyText(JsonNode node, String field, String what, String path, List<Problem> problems) {
        JsonNode value = node.get(field);
        if (value != null && value.isTextual() && !value.asText().isEmpty()) {
            return true;
        }
        problems.add(Problem.at(PathType.JSON_PATH.append(path, field), value == null ? "missing '" + field + "' (" + what + ")"
                : "'" + field + "' must be a non-empty string, not " + kind(value)));
        return false;
    }

    /**
     * Checks that {@code node} is an object with only {@code allowed} fields, adding a located problem for each field
     * that is not; false, with a problem that says what it must be ({@code mustBe}) and what it is, for a non-object.
     */
    private static boolean checkObject(JsonNode node, String path, String mustBe, Set<String> allowed, List<Problem> problems) {
        if (!node.isObject()) {
            problems.add(Problem.at(path, mustBe + ", not " + kind(node)));
            return false;
        }
        unknownFields(node, path, allowed, problems);
        return true;
    }

    private static void unknownFields(JsonNode node, String path, Set<String> allowed, List<Problem> problems) {
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!allowed.contains(name)) {
                problems.add(Problem.at(Documents.childPath(path, name), "unknown field '" + name + "'"));
            }
        }
    }

    private static String kind(JsonNode node) {
        return switch (node.getNodeType()) {
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            default -> node.getNodeType().name().toLowerCase();
        };
    }

    private static DocumentException failure(List<Problem> problems) {
        return new DocumentException("the legacy policy (apiVersion " + LEGACY_VERSION + ") is invalid: "
                + problems.size() + " problem(s)", problems);
    }
}
