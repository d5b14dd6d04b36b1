package io.arbiter.suite;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.runtime.Evaluation;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether a decision is what a test expects. {@code expect} is a subset of the decision (the response without its
 * volatile fields, or the error body of a refusal), matched recursively:
 * <ul>
 *   <li>an object matches when every expected key matches the actual value of the same key (other keys are free);</li>
 *   <li>an array matches an array of the same length, element by element, in order;</li>
 *   <li>{@code null} matches an absent field or a null one;</li>
 *   <li>numbers match by value ({@code 1}, {@code 1.0} and {@code 1e0} are equal); other scalars match when equal.</li>
 * </ul>
 * Two keys of {@code expect} are not fields: {@code firedRules}, rules that must fire, and {@code notFiredRules},
 * rules that must not, each named {@code package.name} or by its short name (the name without its package).
 * In exact mode objects may not hold non-null keys that are not expected either (the scenario files' semantics).
 */
public final class Expectations {

    /** Keys of {@code expect} that name rules, not response fields. */
    public static final String FIRED = "firedRules";
    public static final String NOT_FIRED = "notFiredRules";

    private static final int SHOWN_CHARS = 300;

    private Expectations() {
    }

    /**
     * Every way {@code evaluation} differs from {@code expect}, each as {@code path: expected X, actual Y}; empty when
     * it matches. {@code rules} names the rules that could fire: a rule name the test gives that none has is a mismatch.
     */
    public static List<String> mismatches(JsonNode expect, Evaluation evaluation, RuleNames rules, boolean exact) {
        List<String> mismatches = new ArrayList<>();
        expect.properties().stream().filter(field -> !field.getKey().equals(FIRED) && !field.getKey().equals(NOT_FIRED))
                .forEach(field -> compare("$." + field.getKey(), field.getValue(), evaluation.result().path(field.getKey()),
                        exact, mismatches));
        List<String> fired = evaluation.firedRules();
        List<String> firedShort = fired.stream().map(rules::shortName).toList();
        for (String key : List.of(FIRED, NOT_FIRED)) {
            boolean mustFire = key.equals(FIRED);
            for (JsonNode rule : expect.path(key)) {
                String name = rule.asText();
                if (!rules.exists(name)) {
                    mismatches.add(key + ": no rule is named '" + name + "'");
                } else if (mustFire != (fired.contains(name) || firedShort.contains(name))) {
                    mismatches.add(mustFire ? key + ": expected '" + name + "' to fire; fired " + shown(firedShort)
                            : key + ": expected '" + name + "' not to fire, but it fired");
                }
            }
        }
        return mismatches;
    }

    /** Adds to {@code mismatches} every place under {@code path} where {@code actual} does not match {@code expected}. */
    public static void compare(String path, JsonNode expected, JsonNode actual, boolean exact, List<String> mismatches) {
        if (expected.isNull()) {
            if (!absent(actual)) {
                mismatches.add(mismatch(path, expected, actual));
            }
        } else if (expected.isObject()) {
            if (!actual.isObject()) {
                mismatches.add(mismatch(path, expected, actual));
                return;
            }
            expected.fields().forEachRemaining(field -> compare(path + "." + field.getKey(), field.getValue(),
                    actual.path(field.getKey()), exact, mismatches));
            if (exact) {
                actual.fields().forEachRemaining(field -> {
                    if (!expected.has(field.getKey()) && !field.getValue().isNull()) {
                        mismatches.add(path + "." + field.getKey() + ": not expected, actual " + shown(field.getValue()));
                    }
                });
            }
        } else if (expected.isArray()) {
            if (!actual.isArray() || actual.size() != expected.size()) {
                mismatches.add(mismatch(path, expected, actual));
                return;
            }
            for (int i = 0; i < expected.size(); i++) {
                compare(path + "[" + i + "]", expected.get(i), actual.get(i), exact, mismatches);
            }
        } else if (expected.isNumber()) {
            if (!actual.isNumber() || expected.decimalValue().compareTo(actual.decimalValue()) != 0) {
                mismatches.add(mismatch(path, expected, actual));
            }
        } else if (!expected.equals(actual)) {
            mismatches.add(mismatch(path, expected, actual));
        }
    }

    private static boolean absent(JsonNode node) {
        return node == null || node.isMissingNode() || node.isNull();
    }

    private static String mismatch(String path, JsonNode expected, JsonNode actual) {
        return path + ": expected " + shown(expected) + ", actual " + (actual.isMissingNode() ? "absent" : shown(actual));
    }

    /** A value as compact JSON, cut short: a diff line stays readable when the actual value is a whole catalog. */
    static String shown(Object value) {
        String text = value instanceof JsonNode node ? node.toString() : String.valueOf(value);
        return text.length() <= SHOWN_CHARS ? text : text.substring(0, SHOWN_CHARS) + "… (" + text.length() + " chars)";
    }
}
