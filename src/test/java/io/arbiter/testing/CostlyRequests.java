package io.arbiter.testing;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.document.Documents;

import java.nio.charset.StandardCharsets;

/**
 * Requests under the 1 MiB body limit that cost far more than their size unless the service bounds them (issue 24):
 * dependency chains and cycles, {@code explain} over many oneOf items and inline Implementations, long revisions.
 * Shared by the limit tests and by {@code io.arbiter.bench.HostileCost}, which measures them.
 */
public final class CostlyRequests {

    public static final String INTERFACE = "cap.interface.costly.install";
    private static final String POLICY_API = "policy.open-cluster-management.io/v1";

    private CostlyRequests() {
    }

    /**
     * {@code policies} policies, each with one template, each depending on the next ({@code p0 -> p1 -> ... }); the last
     * depends on a Policy outside the request (so every template is pending), or on {@code p0} when {@code cycle}.
     */
    public static ObjectNode dependencyChain(int policies, boolean cycle) {
        ObjectNode body = Documents.jsonMapper().createObjectNode();
        ArrayNode list = body.putArray("policies");
        for (int p = 0; p < policies; p++) {
            String next = p + 1 < policies ? "p" + (p + 1) : cycle ? "p0" : "outside";
            ObjectNode policy = list.addObject().put("name", "p" + p).put("namespace", "ns");
            policy.putArray("dependencies").addObject().put("apiVersion", POLICY_API).put("kind", "Policy")
                    .put("name", next).put("compliance", "Compliant");
            policy.putArray("policyTemplates").addObject().put("name", "p" + p + "-t").put("kind", "ConfigurationPolicy");
        }
        return body;
    }

    /**
     * An implementation request for {@link #INTERFACE} whose action policy has one rule of {@code items} oneOf items,
     * none of which matches any of {@code implementations} inline Implementations of the Interface.
     */
    public static ObjectNode explainRequest(int items, int implementations, boolean explain) {
        ObjectNode body = Documents.jsonMapper().createObjectNode();
        body.putObject("interface").put("path", INTERFACE).put("revision", "0.1.0");
        ObjectNode rule = body.putObject("actionPolicy").putObject("interface").putArray("rules").addObject();
        rule.putObject("interface").put("path", INTERFACE);
        ArrayNode oneOf = rule.putArray("oneOf");
        for (int i = 0; i < items; i++) {
            oneOf.addObject().putObject("implementationConstraints").put("path", "cap.implementation.none.n" + i);
        }
        ArrayNode list = body.putArray("implementations");
        for (int i = 0; i < implementations; i++) {
            list.add(implementation("i" + i, "0.1.0"));
        }
        body.put("explain", explain);
        return body;
    }

    /**
     * Issue 44: an implementation request for {@link #INTERFACE} whose action policy has one rule of {@code items}
     * oneOf items, each listing the attribute constraint {@code cap.a} {@code repeats} times, and
     * {@code implementations} inline Implementations of the Interface without attributes: no item matches. With
     * 100 of each it is about 190 KB.
     */
    public static ObjectNode repeatedAttributeRequest(int items, int repeats, int implementations, boolean explain) {
        ObjectNode body = Documents.jsonMapper().createObjectNode();
        body.putObject("interface").put("path", INTERFACE).put("revision", "0.1.0");
        ObjectNode rule = body.putObject("actionPolicy").putObject("interface").putArray("rules").addObject();
        rule.putObject("interface").put("path", INTERFACE);
        ArrayNode oneOf = rule.putArray("oneOf");
        for (int i = 0; i < items; i++) {
            ArrayNode attributes = oneOf.addObject().putObject("implementationConstraints").putArray("attributes");
            for (int r = 0; r < repeats; r++) {
                attributes.addObject().put("path", "cap.a");
            }
        }
        ArrayNode list = body.putArray("implementations");
        for (int i = 0; i < implementations; i++) {
            list.add(implementation("i" + i, "0.1.0"));
        }
        body.put("explain", explain);
        return body;
    }

    /** An implementation request with two inline Implementations of {@link #INTERFACE} whose revisions are long and unique. */
    public static ObjectNode longRevisionsRequest(int revisionLength, String unique) {
        ObjectNode body = Documents.jsonMapper().createObjectNode();
        body.putObject("interface").put("path", INTERFACE).put("revision", "0.1.0");
        ObjectNode rule = body.putObject("actionPolicy").putObject("interface").putArray("rules").addObject();
        rule.putObject("interface").put("path", INTERFACE);
        rule.putArray("oneOf").addObject();
        ArrayNode list = body.putArray("implementations");
        for (String prefix : new String[] {"1.0.0-a", "1.0.0-b"}) {
            StringBuilder revision = new StringBuilder(prefix).append(unique);
            while (revision.length() < revisionLength) {
                revision.append('x');
            }
            list.add(implementation("long", revision.toString()));
        }
        return body;
    }

    /** The embedded default's Helm release storage: a Hub storage an action policy's backend rule may name. */
    public static final String HELM_STORAGE = "c268d3f5-8834-434b-bea2-b677793611c5";

    /**
     * A backend request whose answer is megabytes (issue 44): an action policy of two pattern rules (with and without a
     * revision) at each depth {@code 1..depth} of {@code cap.a.….*}, and {@code typeRefs} Types of depth {@code depth + 1}
     * under them, each a candidate of every rule. Depth 120 with 300 Types is a 130 KB body whose answer takes 21 MB.
     */
    public static ObjectNode backendPatterns(int depth, int typeRefs) {
        ObjectNode body = Documents.jsonMapper().createObjectNode();
        ArrayNode rules = body.putObject("actionPolicy").putObject("typeInstance").putArray("rules");
        StringBuilder prefix = new StringBuilder("cap.");
        for (int d = 1; d <= depth; d++) {
            if (d > 1) {
                prefix.append("a.");
            }
            for (boolean revision : new boolean[] {true, false}) {
                ObjectNode typeRef = rules.addObject().putObject("typeRef").put("path", prefix + "*");
                if (revision) {
                    typeRef.put("revision", "0.1.0");
                }
            }
        }
        rules.forEach(rule -> ((ObjectNode) rule).putObject("backend").put("id", HELM_STORAGE));
        ArrayNode refs = body.putArray("typeRefs");
        for (int i = 0; i < typeRefs; i++) {
            refs.addObject().put("path", prefix + "t" + i).put("revision", "0.1.0");
        }
        return body;
    }

    /**
     * A backend request whose record is past the decision log's bound by the request's own size, cheap to decide:
     * {@code types} Types only the action policy's two shallowest patterns ({@code cap.*}) cover (500: a body of about 24 KB).
     */
    public static ObjectNode backendUnmatchedTypes(int types) {
        ObjectNode body = backendPatterns(2, 1);
        ArrayNode refs = (ArrayNode) body.get("typeRefs");
        for (int i = 0; i < types; i++) {
            refs.addObject().put("path", "cap.type.other.t" + i).put("revision", "0.1.0");
        }
        return body;
    }

    /** A minimal Implementation manifest of {@link #INTERFACE}. */
    public static ObjectNode implementation(String name, String revision) {
        ObjectNode manifest = Documents.jsonMapper().createObjectNode();
        manifest.put("ocfVersion", "0.0.1").put("kind", "Implementation").put("revision", revision);
        manifest.putObject("metadata").put("prefix", "cap.implementation.costly").put("name", name);
        manifest.putObject("spec").putArray("implements").addObject().put("path", INTERFACE).put("revision", "0.1.0");
        return manifest;
    }

    public static byte[] bytes(ObjectNode body) {
        return body.toString().getBytes(StandardCharsets.UTF_8);
    }
}
