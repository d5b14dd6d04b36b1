package io.arbiter.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * {@code serve --source kubernetes}: where the ConfigMaps are and who this replica is.
 *
 * @param namespace    the namespace of the ConfigMaps; null: the client's (in a pod, the pod's own namespace)
 * @param instance     the {@code app.kubernetes.io/instance} label value the ConfigMaps carry ({@code arbiter})
 * @param replica      this replica's name in Events and status (the pod name: {@code POD_NAME}, else the host name)
 * @param applyTimeout how long a PUT waits for this replica to serve what it wrote before it answers 503
 * @param client       makes the API client (by default from the pod's service account or the kubeconfig), with
 *                     fabric8's Vert.x 5 HTTP client on a Vert.x instance of its own (the version the server runs): on
 *                     the server's own instance the emulated API server took 20 s to close the client's watches
 */
public record KubernetesSettings(String namespace, String instance, String replica, Duration applyTimeout,
                                 Supplier<KubernetesClient> client) {

    public static final Duration DEFAULT_APPLY_TIMEOUT = Duration.ofSeconds(10);

    public KubernetesSettings {
        if (instance == null || !instance.matches("[a-z0-9]([-a-z0-9]{0,38}[a-z0-9])?")) {
            throw new IllegalArgumentException("the instance name must be 1 to 40 lowercase letters, digits and inner"
                    + " dashes (it prefixes ConfigMap names), not '" + instance + "'");
        }
        if (replica == null || replica.isBlank()) {
            throw new IllegalArgumentException("a replica needs a name (POD_NAME or the host name)");
        }
    }

    /** The defaults of a pod: its namespace, the instance {@code arbiter}, its pod name. */
    public static KubernetesSettings inCluster(String namespace, String instance) {
        return new KubernetesSettings(namespace, instance, ConfigMapNames.replicaName(System::getenv),
                DEFAULT_APPLY_TIMEOUT, () -> new KubernetesClientBuilder().build());
    }

    public KubernetesSettings withReplica(String name) {
        return new KubernetesSettings(namespace, instance, name, applyTimeout, client);
    }

    public KubernetesSettings withClient(Supplier<KubernetesClient> factory) {
        return new KubernetesSettings(namespace, instance, replica, applyTimeout, factory);
    }
}
