package io.arbiter.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.cli.ArbiterCli;
import io.arbiter.document.Documents;
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
        try (Stream<Path> files = Files.list(Path.of("docker/kubernetes"))) {
            // Files only: kafka-sink/ holds an alternative Deployment, applied in place of deployment.yaml.
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                JsonNode doc = Documents.parseYaml(Files.readAllBytes(file)).tree();
                if (kind.equals(doc.path("kind").asText())) {
                    return doc;
                }
            }
        }
        throw new AssertionError("no " + kind + " in docker/kubernetes");
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
        assertTrue(args.contains("--watch"), args.toString());
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

    @Test
    void thePolicyConfigMapIsMountedWhereServeReadsItAndIsValid() throws IOException {
        JsonNode pod = manifest("Deployment").path("spec").path("template").path("spec");
        JsonNode container = pod.path("containers").get(0);
        List<String> args = new ArrayList<>();
        container.path("args").forEach(arg -> args.add(arg.asText()));
        Path policyFile = Path.of(argAfter(args, "--policy"));
        JsonNode configMap = manifest("ConfigMap");

        JsonNode mount = null;
        for (JsonNode candidate : container.path("volumeMounts")) {
            if (candidate.path("mountPath").asText().equals(policyFile.getParent().toString())) {
                mount = candidate;
            }
        }
        assertTrue(mount != null, "a volume is mounted at " + policyFile.getParent());
        String volume = mount.path("name").asText();
        JsonNode source = null;
        for (JsonNode candidate : pod.path("volumes")) {
            if (candidate.path("name").asText().equals(volume)) {
                source = candidate;
            }
        }
        assertEquals(configMap.path("metadata").path("name").asText(), source.path("configMap").path("name").asText());
        String policy = configMap.path("data").path(policyFile.getFileName().toString()).asText();
        assertTrue(!policy.isBlank(), "the ConfigMap holds " + policyFile.getFileName());
        PolicyParser.parse(policy.getBytes(), "application/yaml");
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
