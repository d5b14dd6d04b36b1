package io.arbiter.testing;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.document.Documents;

/**
 * Requests within every field limit whose work is many times their size unless the work budgets bound it (issue 44):
 * the findings, scaled by their dimensions. Shared by the budget tests and by {@code io.arbiter.bench.WorkBudgets},
 * which measures them.
 */
public final class WorkRequests {

    /** The embedded snapshot's Helm release storage, a Hub storage an action policy's backend may name. */
    public static final String HELM_STORAGE = "c268d3f5-8834-434b-bea2-b677793611c5";

    private WorkRequests() {
    }

    /** {@code target:shape} with its sizes, as {@code io.arbiter.bench.WorkBudgets} rows name them. */
    public static ObjectNode build(String target, String shape, int... n) {
        return switch (target + ":" + shape) {
            case "implementation:attributes" -> attributeConstraints(n[0], n[1], n[2]);
            case "backend:patterns" -> nestedPatterns(n[0], n[1], n.length > 2 ? n[2] : 0);
            case "backend:lengths" -> patternsOfEveryLength(n[0], n[1]);
            case "rollout:mandatory" -> sameNamedGroups(n[0], n[1], n[2]);
            case "dependencies:chain" -> CostlyRequests.dependencyChain(n[0], n.length > 1 && n[1] == 1);
            case "dependencies:templates" -> templatesAndObserved(n[0], n[1], n[2], n[3], n.length > 4 ? n[4] : 0);
            default -> throw new IllegalArgumentException("no request " + target + ":" + shape);
        };
    }

    /**
     * An implementation request for {@link CostlyRequests#INTERFACE}: one action-policy rule of {@code items} oneOf
     * items, each constraining the attribute {@code cap.a} {@code attributes} times, and {@code implementations}
     * inline Implementations of the Interface, none of which has it.
     */
    public static ObjectNode attributeConstraints(int items, int implementations, int attributes) {
        ObjectNode body = CostlyRequests.explainRequest(0, implementations, false);
        ArrayNode oneOf = (ArrayNode) body.get("actionPolicy").get("interface").get("rules").get(0).get("oneOf");
        for (int i = 0; i < items; i++) {
            ArrayNode constrained = oneOf.addObject().putObject("implementationConstraints").putArray("attributes");
            for (int a = 0; a < attributes; a++) {
                // distinct, as the cost model counts each constraint of an item once
                constrained.addObject().put("path", "cap.a" + a);
            }
        }
        return body;
    }

    /**
     * A backend request: an action policy of pattern rules {@code cap.a.*}, {@code cap.a.a.*}, ... ({@code depth}
     * of them, each once without and once with a revision), and {@code typeRefs} Types under the deepest prefix, so
     * every rule covers every Type.
     */
    public static ObjectNode nestedPatterns(int depth, int typeRefs) {
        return nestedPatterns(depth, typeRefs, 0);
    }

    /**
     * As {@link #nestedPatterns(int, int)}, each Type's path {@code below} segments deeper than the deepest pattern
     * ({@code cap.a.a.t7.b.b.b}): more prefixes to look up, no more covers.
     */
    public static ObjectNode nestedPatterns(int depth, int typeRefs, int below) {
        ObjectNode body = Documents.jsonMapper().createObjectNode();
        ArrayNode rules = body.putObject("actionPolicy").putObject("typeInstance").putArray("rules");
        StringBuilder prefix = new StringBuilder("cap");
        for (int d = 0; d < depth; d++) {
            prefix.append(".a");
            rules.addObject().<ObjectNode>set("typeRef", Documents.jsonMapper().createObjectNode().put("path", prefix + ".*"))
                    .putObject("backend").put("id", HELM_STORAGE);
            rules.addObject().<ObjectNode>set("typeRef", Documents.jsonMapper().createObjectNode().put("path", prefix + ".*")
                            .put("revision", "0.1.0"))
                    .putObject("backend").put("id", HELM_STORAGE);
        }
        ArrayNode refs = body.putArray("typeRefs");
        for (int t = 0; t < typeRefs; t++) {
            refs.addObject().put("path", prefix + ".t" + t + ".b".repeat(below)).put("revision", "0.1.0");
        }
        return body;
    }

    /**
     * A backend request whose patterns cover nothing but have every prefix length the Types' paths have: patterns
     * {@code cap.z.*}, {@code cap.z.a.*}, ... ({@code depth} of them) and {@code typeRefs} Types
     * {@code cap.a.a...a.t7} ({@code depth} segments {@code a}): each Type has {@code depth} prefixes to look up, no
     * cover.
     */
    public static ObjectNode patternsOfEveryLength(int depth, int typeRefs) {
        ObjectNode body = Documents.jsonMapper().createObjectNode();
        ArrayNode rules = body.putObject("actionPolicy").putObject("typeInstance").putArray("rules");
        for (int d = 0; d < depth; d++) {
            rules.addObject().<ObjectNode>set("typeRef", Documents.jsonMapper().createObjectNode()
                            .put("path", "cap.z" + ".a".repeat(d) + ".*"))
                    .putObject("backend").put("id", HELM_STORAGE);
        }
        ArrayNode refs = body.putArray("typeRefs");
        for (int t = 0; t < typeRefs; t++) {
            refs.addObject().put("path", "cap" + ".a".repeat(depth) + ".t" + t).put("revision", "0.1.0");
        }
        return body;
    }

    /**
     * A ProgressivePerGroup rollout of {@code groups} decision groups all named {@code g}, {@code entries} mandatory
     * entries all naming {@code g}, and {@code clusters} clusters spread over the groups.
     */
    public static ObjectNode sameNamedGroups(int groups, int entries, int clusters) {
        ObjectNode body = Documents.jsonMapper().createObjectNode();
        ArrayNode mandatory = body.putObject("strategy").put("type", "ProgressivePerGroup")
                .putObject("progressivePerGroup").putArray("mandatoryDecisionGroups");
        for (int e = 0; e < entries; e++) {
            mandatory.addObject().put("groupName", "g");
        }
        ArrayNode decisionGroups = body.putArray("decisionGroups");
        ArrayNode[] members = new ArrayNode[groups];
        for (int g = 0; g < groups; g++) {
            members[g] = decisionGroups.addObject().put("groupIndex", g).put("groupName", "g").putArray("clusters");
        }
        ArrayNode records = body.putArray("clusters");
        for (int c = 0; c < clusters; c++) {
            members[c % groups].add("c" + c);
            records.addObject().put("name", "c" + c).put("status", "ToApply");
        }
        return body;
    }

    /**
     * A dependencies request of {@code policies} policies of {@code templates} templates each, every policy depending
     * on {@code dependencies} ConfigMaps, and {@code observed} observed ConfigMaps (the dependencies among them); the
     * ConfigMaps' names are padded to {@code nameLength} characters.
     */
    public static ObjectNode templatesAndObserved(int policies, int templates, int dependencies, int observed,
                                                  int nameLength) {
        String pad = "x".repeat(Math.max(0, nameLength - 6));
        ObjectNode body = Documents.jsonMapper().createObjectNode();
        ArrayNode list = body.putArray("policies");
        for (int p = 0; p < policies; p++) {
            ObjectNode policy = list.addObject().put("name", "p" + p).put("namespace", "ns");
            ArrayNode deps = policy.putArray("dependencies");
            for (int d = 0; d < dependencies; d++) {
                deps.addObject().put("apiVersion", "v1").put("kind", "ConfigMap").put("name", pad + "c" + d)
                        .put("namespace", "ns").put("compliance", "Compliant");
            }
            ArrayNode ts = policy.putArray("policyTemplates");
            for (int t = 0; t < templates; t++) {
                ts.addObject().put("name", "p" + p + "t" + t).put("kind", "ConfigurationPolicy");
            }
        }
        ArrayNode seen = body.putArray("observed");
        for (int o = 0; o < observed; o++) {
            seen.addObject().put("apiVersion", "v1").put("kind", "ConfigMap").put("name", pad + "c" + o).put("namespace", "ns")
                    .put("compliant", "Compliant");
        }
        return body;
    }
}
