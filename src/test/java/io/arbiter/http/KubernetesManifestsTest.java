package io.arbiter.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.cli.ArbiterCli;
import io.arbiter.document.Documents;
import io.arbiter.kubernetes.ConfigMapNames;
import io.arbiter.policy.PolicyParser;
import io.arbiter.policytype.PolicyTypeRegistry;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** docker/kubernetes/ agrees with what the service accepts: arguments, ports, probes, the policy mount. */
class KubernetesManifestsTest {

    private static JsonNode manifest(String kind) throws IOException {
        // Files only: kafka-sink/ holds an alternative Deployment, applied in place of deployment.yaml.
        for (JsonNode doc : manifests()) {
            if (kind.equals(doc.path("kind").asText())) {
                return doc;
            }
        }
        throw new AssertionError("no " + kind + " in docker/kubernetes");
    }

    /** Every object of docker/kubernetes/*.yaml, the items of a List each on its own. */
    private static List<JsonNode> manifests() throws IOException {
        List<JsonNode> all = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of("docker/kubernetes"))) {
            for (Path file : files.filter(path -> Files.isRegularFile(path) && path.toString().endsWith(".yaml")).sorted().toList()) {
                JsonNode doc = Documents.parseYaml(Files.readAllBytes(file)).tree();
                if (doc.path("kind").asText().equals("List")) {
                    doc.path("items").forEach(all::add);
                } else {
                    all.add(doc);
                }
            }
        }
        return all;
    }

    private static JsonNode named(String kind, String name) throws IOException {
        return manifests().stream().filter(doc -> doc.path("kind").asText().equals(kind)
                && doc.path("metadata").path("name").asText().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " " + name + " in docker/kubernetes"));
    }

    private static String argAfter(List<String> args, String option) {
        int at = args.indexOf(option);
        assertTrue(at >= 0 && at + 1 < args.size(), option + " in " + args);
        return args.get(at + 1);
    }

    @Test
    void theDeploymentRunsThreeReplicasWithArgumentsTheCliAccepts() throws IOException {
        JsonNode deployment = manifest("Deployment");
        JsonNode container = deployment.path("spec").path("template").path("spec").path("containers").get(0);
        List<String> args = new ArrayList<>();
        container.path("args").forEach(arg -> args.add(arg.asText()));

        assertEquals(3, deployment.path("spec").path("replicas").asInt());
        var parsed = ArbiterCli.commandLine(PolicyTypeRegistry.discover()).parseArgs(args.toArray(String[]::new));
        assertEquals("serve", parsed.subcommand().commandSpec().name());
        assertEquals("kubernetes", argAfter(args, "--source"), "every replica serves the ConfigMaps (issue 47)");
        assertEquals(container.path("ports").get(0).path("containerPort").asText(), argAfter(args, "--port"));
        assertEquals("0.0.0.0", argAfter(args, "--host"), "serve listens on loopback unless told otherwise");
    }

    /**
     * Both Deployments keep what an audit needs on the durable claim, never on the pod's read-only or passing file
     * system: the decision log (or Kafka) and the snapshot archive, a folder per pod.
     */
    @Test
    void theDecisionLogAndTheSnapshotArchiveAreOnDurableStorage() throws IOException {
        JsonNode claim = manifest("PersistentVolumeClaim");
        JsonNode kafkaSink = Documents.parseYaml(Files.readAllBytes(Path.of("docker/kubernetes/kafka-sink/deployment.yaml"))).tree();
        for (JsonNode deployment : List.of(manifest("Deployment"), kafkaSink)) {
            JsonNode pod = deployment.path("spec").path("template").path("spec");
            JsonNode container = pod.path("containers").get(0);
            List<String> args = new ArrayList<>();
            container.path("args").forEach(arg -> args.add(arg.asText()));
            String mountPath = null;
            for (JsonNode mount : container.path("volumeMounts")) {
                for (JsonNode volume : pod.path("volumes")) {
                    if (volume.path("name").equals(mount.path("name"))
                            && volume.path("persistentVolumeClaim").path("claimName").equals(claim.path("metadata").path("name"))) {
                        mountPath = mount.path("mountPath").asText();
                    }
                }
            }
            assertTrue(mountPath != null, "the audit claim is mounted: " + container);
            assertTrue(argAfter(args, "--snapshot-archive").startsWith(mountPath + "/$(POD_NAME)/"), args.toString());
            if (!args.contains("kafka")) {
                assertTrue(argAfter(args, "--decision-log").startsWith(mountPath + "/$(POD_NAME)/"), args.toString());
            }
            assertTrue(container.toString().contains("metadata.name"), "POD_NAME comes from the pod's name");
        }
    }

    /** A JVM out of heap must exit (and be restarted), not linger holding the port: the image and both Deployments say so. */
    @Test
    void theJvmExitsOnOutOfMemoryInTheImageAndTheDeployments() throws IOException {
        String entrypoint = Files.readAllLines(Path.of("docker/Dockerfile")).stream()
                .filter(line -> line.startsWith("ENTRYPOINT"))
                .reduce((first, second) -> second)
                .orElseThrow(() -> new AssertionError("no ENTRYPOINT in docker/Dockerfile"));
        assertTrue(entrypoint.contains("\"-XX:+ExitOnOutOfMemoryError\""), entrypoint);

        JsonNode kafkaSink = Documents.parseYaml(Files.readAllBytes(Path.of("docker/kubernetes/kafka-sink/deployment.yaml"))).tree();
        for (JsonNode deployment : List.of(manifest("Deployment"), kafkaSink)) {
            JsonNode container = deployment.path("spec").path("template").path("spec").path("containers").get(0);
            String options = null;
            for (JsonNode variable : container.path("env")) {
                if (variable.path("name").asText().equals("JDK_JAVA_OPTIONS")) {
                    options = variable.path("value").asText();
                }
            }
            assertTrue(options != null && List.of(options.split("\\s+")).contains("-XX:+ExitOnOutOfMemoryError"),
                    "JDK_JAVA_OPTIONS of " + deployment.path("metadata").path("name").asText() + ": " + options);
        }
    }

    @Test
    void probesUseTheHealthEndpointsOnTheServedPort() throws IOException {
        JsonNode container = manifest("Deployment").path("spec").path("template").path("spec").path("containers").get(0);
        String portName = container.path("ports").get(0).path("name").asText();

        assertEquals("/readyz", container.path("readinessProbe").path("httpGet").path("path").asText());
        assertEquals("/healthz", container.path("livenessProbe").path("httpGet").path("path").asText());
        assertEquals(portName, container.path("readinessProbe").path("httpGet").path("port").asText());
        assertEquals(portName, container.path("livenessProbe").path("httpGet").path("port").asText());
        assertEquals(portName, manifest("Service").path("spec").path("ports").get(0).path("targetPort").asText());
    }

    /** The ConfigMaps carry the names and labels the Kubernetes source selects, a valid policy, and the packaged rules. */
    @Test
    void theConfigMapsAreTheOnesTheKubernetesSourceReads() throws IOException {
        JsonNode policyMap = named("ConfigMap", ConfigMapNames.policy("arbiter"));
        ConfigMapNames.selector("arbiter").forEach((label, value) ->
                assertEquals(value, policyMap.path("metadata").path("labels").path(label).asText(), label));
        PolicyParser.parse(policyMap.path("data").path(ConfigMapNames.POLICY_KEY).asText().getBytes(), "application/yaml");

        List<String> folders = PolicyTypeRegistry.discover().types().stream()
                .flatMap(type -> type.ruleSet().folders().stream()).distinct().sorted().toList();
        for (String folder : folders.stream().filter(folder -> !folder.equals("greeting")).toList()) {
            JsonNode rules = named("ConfigMap", ConfigMapNames.rules("arbiter", folder));
            ConfigMapNames.selector("arbiter").forEach((label, value) ->
                    assertEquals(value, rules.path("metadata").path("labels").path(label).asText(), label));
            java.util.Map<String, String> packaged = new java.util.TreeMap<>();
            for (String kind : List.of("rules", "decision-tables")) {
                Path dir = Path.of(kind, folder);
                if (Files.isDirectory(dir)) {
                    try (Stream<Path> files = Files.list(dir)) {
                        for (Path file : files.toList()) {
                            packaged.put(file.getFileName().toString(), Files.readString(file));
                        }
                    }
                }
            }
            java.util.Map<String, String> held = new java.util.TreeMap<>();
            rules.path("data").fields().forEachRemaining(entry -> held.put(entry.getKey(), entry.getValue().asText()));
            assertEquals(packaged, held, ConfigMapNames.rules("arbiter", folder)
                    + " holds the packaged files: run docker/kubernetes/rules-configmaps.sh");
        }
    }

    /** The pod runs as a ServiceAccount that may read and watch ConfigMaps, write the policy one, and record Events. */
    @Test
    void theServiceAccountMayDoWhatTheSourceDoes() throws IOException {
        JsonNode pod = manifest("Deployment").path("spec").path("template").path("spec");
        String account = pod.path("serviceAccountName").asText();
        named("ServiceAccount", account);
        JsonNode binding = manifest("RoleBinding");
        assertEquals(account, binding.path("subjects").get(0).path("name").asText());
        JsonNode role = named("Role", binding.path("roleRef").path("name").asText());
        List<String> grants = new ArrayList<>();
        for (JsonNode rule : role.path("rules")) {
            for (JsonNode resource : rule.path("resources")) {
                for (JsonNode verb : rule.path("verbs")) {
                    grants.add(resource.asText() + ":" + verb.asText() + (rule.has("resourceNames") ? ":" + rule.path("resourceNames") : ""));
                }
            }
        }
        assertTrue(grants.containsAll(List.of("configmaps:get", "configmaps:list", "configmaps:watch",
                "configmaps:update:[\"arbiter-policy\"]", "events:create")), grants.toString());
        assertTrue(grants.stream().noneMatch(grant -> grant.startsWith("configmaps:update") && !grant.contains("arbiter-policy")),
                "only the policy ConfigMap is writable: " + grants);

        JsonNode container = pod.path("containers").get(0);
        boolean podName = false;
        for (JsonNode variable : container.path("env")) {
            podName |= variable.path("name").asText().equals("POD_NAME")
                    && variable.path("valueFrom").path("fieldRef").path("fieldPath").asText().equals("metadata.name");
        }
        assertTrue(podName, "POD_NAME names the replica in Events and /v1/status");
    }

    @Test
    void disruptionBudgetAndAutoscalerTargetTheDeployment() throws IOException {
        JsonNode deployment = manifest("Deployment");
        JsonNode labels = deployment.path("spec").path("template").path("metadata").path("labels");

        assertEquals(labels, manifest("PodDisruptionBudget").path("spec").path("selector").path("matchLabels"));
        assertEquals(labels, manifest("Service").path("spec").path("selector"));
        JsonNode hpa = manifest("HorizontalPodAutoscaler").path("spec");
        assertEquals(deployment.path("metadata").path("name").asText(), hpa.path("scaleTargetRef").path("name").asText());
        assertTrue(hpa.path("minReplicas").asInt() >= 3);
        assertTrue(manifest("PodDisruptionBudget").path("spec").path("minAvailable").asInt() < deployment.path("spec").path("replicas").asInt());
    }

    @Test
    void theKafkaSinkExampleMountsPropertiesTheSinkAccepts(@org.junit.jupiter.api.io.TempDir Path temp) throws IOException {
        JsonNode deployment = Documents.parseYaml(Files.readAllBytes(Path.of("docker/kubernetes/kafka-sink/deployment.yaml"))).tree();
        JsonNode secret = Documents.parseYaml(Files.readAllBytes(Path.of("docker/kubernetes/kafka-sink/secret.yaml"))).tree();
        JsonNode pod = deployment.path("spec").path("template").path("spec");
        JsonNode container = pod.path("containers").get(0);
        List<String> args = new ArrayList<>();
        container.path("args").forEach(arg -> args.add(arg.asText()));

        var parsed = ArbiterCli.commandLine(PolicyTypeRegistry.discover()).parseArgs(args.toArray(String[]::new));
        assertEquals("serve", parsed.subcommand().commandSpec().name());
        assertEquals("kafka", argAfter(args, "--decision-log-sink"));
        assertEquals(manifest("Deployment").path("spec").path("replicas"), deployment.path("spec").path("replicas"));
        Path properties = Path.of(argAfter(args, "--decision-log-kafka"));
        String volume = null;
        for (JsonNode mount : container.path("volumeMounts")) {
            if (mount.path("mountPath").asText().equals(properties.getParent().toString())) {
                volume = mount.path("name").asText();
            }
        }
        assertTrue(volume != null, "a volume is mounted at " + properties.getParent());
        String secretName = null;
        for (JsonNode candidate : pod.path("volumes")) {
            if (candidate.path("name").asText().equals(volume)) {
                secretName = candidate.path("secret").path("secretName").asText();
            }
        }
        assertEquals(secret.path("metadata").path("name").asText(), secretName);
        Path copy = temp.resolve("kafka.properties");
        Files.writeString(copy, secret.path("stringData").path(properties.getFileName().toString()).asText());
        var settings = io.arbiter.audit.KafkaSinkSettings.load(copy);
        assertEquals("arbiter-decisions", settings.topic());
        assertEquals("all", settings.client().getProperty("acks"));
    }
}
