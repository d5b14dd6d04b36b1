package io.arbiter.bench;

import io.arbiter.catalog.Catalog;
import io.arbiter.catalog.TypeInstanceStore;
import io.arbiter.model.Implementation;
import io.arbiter.model.Quantifier;
import io.arbiter.model.Ref;
import io.arbiter.model.Requirement;
import io.arbiter.model.RequirementGroup;
import io.arbiter.model.TypeInstance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Deterministic generated data for the implementation-decision benchmark: 50 Interfaces with 20 Implementations
 * each (8 paths, 2-3 revisions per path), a TypeInstance store of about 1,000 entries, and a global policy of
 * 100 Interface rules plus a {@code cap.*} rule, as YAML text.
 *
 * <p>Interfaces 0..44 have an exact rule ({@code path} + revision 0.1.0), a path-only rule (never applies
 * to a 0.1.0 request, but its facts are inserted) and, for 0..9, a rule for revision 0.2.0. Interfaces
 * 45..49 have no rule of their own and are decided by {@code cap.*}. Interfaces with {@code i % 15 == 14}
 * have an exact rule that no Implementation can meet (NO_MATCH).
 * Every Implementation declares the additional parameter {@code additional-parameters} (its Type's schema is not
 * in the catalog, so values are not schema-checked), which the request policies of {@link #actionPolicyYaml} and
 * {@link #workflowPolicyYaml} inject.
 */
final class BenchData {

    /**
     * The JVM options the container image runs with that change what a decision costs: the parallel collector
     * (docker/Dockerfile says why). Measurement forks run with them, so benchmarks measure the service as deployed.
     */
    static final String AS_DEPLOYED = "-XX:+UseParallelGC";

    static final int INTERFACES = 50;
    static final int RULED_INTERFACES = 45;
    static final String INTERFACE_REVISION = "0.1.0";

    static final String HELM_STORAGE_ID = "c268d3f5-8834-434b-bea2-b677793611c5";
    static final String AWS_CREDENTIALS_ID = "517cf827-233c-4bf1-8fc9-48534424dd58";
    static final String GCP_SA_ID = "9038dcdc-e959-41c4-a690-d8ebf929ac0c";

    private static final String ATTR = "cap.attribute.";
    private static final String[] VENDORS = {"bitnami", "aws", "gcp", "azure", "operator", "helmfile", "ansible", "local"};
    private static final List<String> THREE_REVISIONS = List.of("0.1.0", "0.2.0", "0.3.0");
    private static final List<String> TWO_REVISIONS = List.of("0.1.0", "1.0.0");

    private BenchData() {
    }

    static String interfacePath(int i) {
        return String.format("cap.interface.bench.svc%02d.install", i);
    }

    static String implementationPath(String vendor, int i) {
        return String.format("cap.implementation.%s.svc%02d.install", vendor, i);
    }

    static boolean hasConfigInstance(int i) {
        return i % 5 != 4;
    }

    static boolean isNoMatchInterface(int i) {
        return i % 15 == 14;
    }

    // ---------------------------------------------------------------- catalog

    static Catalog catalog() {
        List<Implementation> implementations = new ArrayList<>();
        List<Ref> interfaces = new ArrayList<>();
        for (int i = 0; i < INTERFACES; i++) {
            interfaces.add(new Ref(interfacePath(i), INTERFACE_REVISION));
            for (int v = 0; v < VENDORS.length; v++) {
                List<String> revisions = v < 4 ? THREE_REVISIONS : TWO_REVISIONS;
                for (int r = 0; r < revisions.size(); r++) {
                    implementations.add(implementation(VENDORS[v], i, revisions.get(r), r));
                }
            }
        }
        List<Ref> attributes = List.of(new Ref(ATTR + "cloud.provider.aws", "0.1.0"),
                new Ref(ATTR + "cloud.provider.gcp", "0.1.0"), new Ref(ATTR + "cloud.provider.azure", "0.1.0"),
                new Ref(ATTR + "infra.iac.terraform", "0.1.0"), new Ref(ATTR + "infra.iac.ansible", "0.1.0"),
                new Ref(ATTR + "workload.stateful", "0.1.0"), new Ref(ATTR + "env.dev", "0.1.0"));
        if (implementations.size() != 1000) {
            throw new IllegalStateException("expected 1000 Implementations, generated " + implementations.size());
        }
        return new Catalog(implementations, interfaces, List.of(), attributes);
    }

    /** One Implementation, built the way ManifestLoader builds it from a manifest. */
    private static Implementation implementation(String vendor, int i, String revision, int revisionIndex) {
        String path = implementationPath(vendor, i);
        ImplBuilder b = new ImplBuilder(path, revision);
        String svcConfigGroup = String.format("cap.type.bench.svc%02d", i);
        switch (vendor) {
            case "bitnami" -> {
                b.group("cap.core.type.platform", Quantifier.ONE_OF).item("kubernetes", "0.1.0", null);
                b.group("cap.core.type.hub.storage", Quantifier.ALL_OF)
                        .item("cap.type.helm.release.storage", "0.1.0", "helm-storage");
                b.group(svcConfigGroup, Quantifier.ALL_OF).item("config", "0.1.0", null);
            }
            case "aws" -> {
                b.attribute("cloud.provider.aws").attribute("infra.iac.terraform");
                b.group("cap.type.aws.auth", Quantifier.ALL_OF).item("credentials", "0.1.0", "aws-credentials");
                b.group("cap.core.type.platform", Quantifier.ONE_OF).item("kubernetes", "0.1.0", null);
            }
            case "gcp" -> {
                b.attribute("cloud.provider.gcp").attribute("infra.iac.terraform");
                b.group("cap.type.gcp.auth", Quantifier.ALL_OF).item("service-account", "0.1.0", "gcp-sa");
                b.group("cap.core.type.platform", Quantifier.ONE_OF).item("kubernetes", "0.1.0", null);
            }
            case "azure" -> {
                b.attribute("cloud.provider.azure").attribute("infra.iac.terraform");
                b.group("cap.type.azure.auth", Quantifier.ALL_OF).item("service-principal", "0.1.0", "azure-sp");
            }
            case "operator" -> {
                b.group("cap.core.type.platform", Quantifier.ONE_OF)
                        .item("kubernetes", "0.1.0", null).item("openshift", "0.1.0", null);
                b.group(svcConfigGroup, Quantifier.ALL_OF).item("config", "0.1.0", null);
            }
            case "helmfile" -> {
                b.group("cap.core.type.platform", Quantifier.ONE_OF).item("kubernetes", "0.1.0", null);
                b.group("cap.type.bench.storage", Quantifier.ANY_OF)
                        .item("s3-bucket", "0.1.0", null).item("pvc", "0.1.0", null);
            }
            case "ansible" -> {
                b.attribute("infra.iac.ansible");
                b.group("cap.type.ssh", Quantifier.ALL_OF).item("key", "0.1.0", "ssh-key");
            }
            case "local" -> b.attribute("env.dev");
            default -> throw new IllegalArgumentException(vendor);
        }
        if (revisionIndex > 0) {
            b.attribute("workload.stateful");
        }
        return b.build(new Ref(interfacePath(i), INTERFACE_REVISION));
    }

    private static final class ImplBuilder {
        private final String path;
        private final String revision;
        private final List<Ref> attributes = new ArrayList<>();
        private final Map<String, Map<Quantifier, List<Ref>>> items = new LinkedHashMap<>();
        private final Map<String, Map<Quantifier, List<String>>> aliases = new LinkedHashMap<>();
        private String currentPrefix;
        private Quantifier currentQuantifier;

        ImplBuilder(String path, String revision) {
            this.path = path;
            this.revision = revision;
        }

        ImplBuilder attribute(String name) {
            attributes.add(new Ref(ATTR + name, "0.1.0"));
            return this;
        }

        ImplBuilder group(String prefix, Quantifier quantifier) {
            currentPrefix = prefix;
            currentQuantifier = quantifier;
            items.computeIfAbsent(prefix, p -> new LinkedHashMap<>()).computeIfAbsent(quantifier, q -> new ArrayList<>());
            aliases.computeIfAbsent(prefix, p -> new LinkedHashMap<>()).computeIfAbsent(quantifier, q -> new ArrayList<>());
            return this;
        }

        /** An item of the current group; {@code name} is relative to the prefix unless it starts with {@code cap.}. */
        ImplBuilder item(String name, String typeRevision, String alias) {
            String typePath = name.startsWith("cap.") ? name : currentPrefix + "." + name;
            items.get(currentPrefix).get(currentQuantifier).add(new Ref(typePath, typeRevision));
            aliases.get(currentPrefix).get(currentQuantifier).add(alias);
            return this;
        }

        Implementation build(Ref implementsRef) {
            String key = path + ":" + revision;
            List<RequirementGroup> groups = new ArrayList<>();
            List<Requirement> requirements = new ArrayList<>();
            items.forEach((prefix, byQuantifier) -> byQuantifier.forEach((quantifier, refs) -> {
                groups.add(new RequirementGroup(key, prefix, quantifier, refs.size()));
                for (int k = 0; k < refs.size(); k++) {
                    requirements.add(new Requirement(key, prefix, quantifier, k, refs.get(k),
                            aliases.get(prefix).get(quantifier).get(k)));
                }
            }));
            Implementation impl = new Implementation(path, revision, List.of(implementsRef), attributes, groups,
                    requirements, Map.of("additional-parameters", new Ref(path.replace(".install", ".install-input"), "0.1.0")),
                    Map.of());
            if (!impl.key().equals(key)) {
                throw new IllegalStateException("Requirement.implementationKey must equal Implementation.key()");
            }
            return impl;
        }
    }

    // ---------------------------------------------------------------- TypeInstances

    static TypeInstanceStore typeInstances() {
        List<TypeInstance> all = new ArrayList<>();
        all.add(new TypeInstance(HELM_STORAGE_ID, new Ref("cap.type.helm.release.storage", "0.1.0"), "Helm release storage"));
        all.add(new TypeInstance(AWS_CREDENTIALS_ID, new Ref("cap.type.aws.auth.credentials", "0.1.0"), "AWS credentials"));
        all.add(new TypeInstance("aws-credentials-2", new Ref("cap.type.aws.auth.credentials", "0.1.0"), "AWS credentials (team 2)"));
        all.add(new TypeInstance(GCP_SA_ID, new Ref("cap.type.gcp.auth.service-account", "0.1.0"), "GCP service account"));
        all.add(new TypeInstance("s3-bucket-1", new Ref("cap.type.bench.storage.s3-bucket", "0.1.0"), "S3 bucket"));
        for (int i = 0; i < INTERFACES; i++) {
            if (hasConfigInstance(i)) {
                all.add(new TypeInstance(String.format("svc%02d-config", i),
                        new Ref(String.format("cap.type.bench.svc%02d.config", i), "0.1.0"), "config of svc " + i));
            }
        }
        // Unrelated TypeInstances, so the store has a realistic size.
        for (int k = 0; all.size() < 1000; k++) {
            all.add(new TypeInstance(String.format("filler-%04d", k),
                    new Ref(String.format("cap.type.bench.filler.t%03d", k % 300), "0." + (k % 3) + ".0"), null));
        }
        return new TypeInstanceStore(all);
    }

    // ---------------------------------------------------------------- policy

    /** The global policy as YAML: 100 Interface rules plus a trailing {@code cap.*} rule. */
    static String policyYaml() {
        StringBuilder y = new StringBuilder();
        y.append("interface:\n");
        y.append("  default:\n    inject:\n      requiredTypeInstances:\n");
        y.append("        - id: ").append(HELM_STORAGE_ID).append("\n          description: Helm release storage\n");
        y.append("  rules:\n");
        int rules = 0;
        for (int i = 0; i < RULED_INTERFACES; i++) {
            String iface = interfacePath(i);
            // exact: path + revision
            y.append("    - interface: {path: ").append(iface).append(", revision: ").append(INTERFACE_REVISION).append("}\n");
            y.append("      oneOf:\n");
            if (isNoMatchInterface(i)) {
                item(y, implementationPath("azure", i), List.of(ref(ATTR + "cloud.provider.azure")), List.of(), List.of());
                item(y, null, List.of(ref(ATTR + "compliance.fedramp")), List.of(), List.of());
                item(y, null, List.of(), List.of(ref("cap.type.vault.secret")), List.of());
            } else {
                switch (i % 3) {
                    case 0 -> {
                        item(y, implementationPath("aws", i), List.of(ref(ATTR + "cloud.provider.aws")), List.of(),
                                List.of(AWS_CREDENTIALS_ID));
                        item(y, null, List.of(ref(ATTR + "workload.stateful")),
                                List.of(ref("cap.core.type.platform.kubernetes")), List.of());
                        item(y, null, List.of(), List.of(), List.of());
                    }
                    case 1 -> {
                        item(y, implementationPath("azure", i), List.of(ref(ATTR + "cloud.provider.azure")), List.of(), List.of());
                        item(y, null, List.of(), List.of(ref("cap.type.helm.release.storage")), List.of());
                        item(y, null, List.of(), List.of(), List.of());
                    }
                    default -> {
                        item(y, implementationPath("gcp", i),
                                List.of(ref(ATTR + "cloud.provider.gcp"), ref(ATTR + "infra.iac.terraform")),
                                List.of(ref("cap.type.gcp.auth.service-account")), List.of(GCP_SA_ID));
                        item(y, null, List.of(ref(ATTR + "infra.iac.ansible")), List.of(), List.of());
                        item(y, null, List.of(), List.of(), List.of());
                    }
                }
            }
            rules++;
            // path only (lower precedence than the exact rule)
            y.append("    - interface: {path: ").append(iface).append("}\n      oneOf:\n");
            item(y, null, List.of(), List.of(ref("cap.core.type.platform.kubernetes")), List.of());
            item(y, null, List.of(), List.of(), List.of());
            rules++;
            if (i < 10) {
                y.append("    - interface: {path: ").append(iface).append(", revision: 0.2.0}\n      oneOf:\n");
                item(y, implementationPath("local", i), List.of(), List.of(), List.of());
                rules++;
            }
        }
        if (rules != 100) {
            throw new IllegalStateException("expected 100 Interface rules, generated " + rules);
        }
        y.append("    - interface: {path: cap.*}\n      oneOf:\n");
        item(y, null, List.of(), List.of(ref("cap.core.type.platform.kubernetes")), List.of());
        item(y, null, List.of(), List.of(), List.of());
        return y.toString();
    }

    /** The global item of an {@code i % 3 == 1} exact rule that Action and Workflow items merge with (equal constraints). */
    static final String MERGE_ITEM_CONSTRAINTS =
            "        - implementationConstraints:\n            requires: [{path: cap.type.helm.release.storage, revision: 0.1.0}]\n";

    /**
     * An Action policy for Interface {@code i} (an {@code i % 3 == 1} ruled Interface): a rule with the global exact
     * rule's key (so they join) and one item whose constraints equal the global item 1's (so they merge), injecting
     * {@code additional-parameters} with top-level key {@code replicas} and nested {@code image.tag}.
     */
    static String actionPolicyYaml(int i) {
        return "interface:\n  rules:\n"
                + "    - interface: {path: " + interfacePath(i) + ", revision: " + INTERFACE_REVISION + "}\n"
                + "      oneOf:\n" + MERGE_ITEM_CONSTRAINTS
                + "          inject:\n            additionalParameters:\n"
                + "              - name: additional-parameters\n"
                + "                value: {replicas: 3, image: {tag: action}}\n";
    }

    /**
     * A Workflow-step policy (only rules with additionalParameters) for Interface {@code i}: an item with the same
     * constraints as the Action item, injecting {@code additional-parameters} with top-level key {@code wf<step>}
     * and nested {@code image.tag} (lost to the Action policy) and {@code image.fromWf<step>}.
     */
    static String workflowPolicyYaml(int i, int step) {
        return "interface:\n  rules:\n"
                + "    - interface: {path: " + interfacePath(i) + ", revision: " + INTERFACE_REVISION + "}\n"
                + "      oneOf:\n" + MERGE_ITEM_CONSTRAINTS
                + "          inject:\n            additionalParameters:\n"
                + "              - name: additional-parameters\n"
                + "                value: {wf" + step + ": step" + step + ", image: {tag: wf" + step
                + ", fromWf" + step + ": true}}\n";
    }

    private static String ref(String path) {
        return "{path: " + path + ", revision: 0.1.0}";
    }

    private static void item(StringBuilder y, String path, List<String> attributes, List<String> requires,
                             List<String> inject) {
        if (path == null && attributes.isEmpty() && requires.isEmpty()) {
            y.append("        - implementationConstraints: {}\n");
        } else {
            y.append("        - implementationConstraints:\n");
            if (path != null) {
                y.append("            path: ").append(path).append('\n');
            }
            if (!attributes.isEmpty()) {
                y.append("            attributes: [").append(String.join(", ", attributes)).append("]\n");
            }
            if (!requires.isEmpty()) {
                y.append("            requires: [").append(String.join(", ", requires)).append("]\n");
            }
        }
        if (!inject.isEmpty()) {
            y.append("          inject:\n            requiredTypeInstances:\n");
            inject.forEach(id -> y.append("              - id: ").append(id).append('\n'));
        }
    }
}
