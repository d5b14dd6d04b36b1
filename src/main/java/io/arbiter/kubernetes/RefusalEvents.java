package io.arbiter.kubernetes;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.Locale;

/**
 * A refused change, told where {@code kubectl describe configmap} and {@code kubectl get events} show it: a Warning
 * Event on the ConfigMap, reason {@code ContentRefused}, naming the replica and the error. One Event per ConfigMap,
 * replica and content: a replica that sees the same refused content again does not repeat it.
 */
final class RefusalEvents {

    private static final Logger LOG = LoggerFactory.getLogger(RefusalEvents.class);

    static final String REASON = "ContentRefused";
    static final String COMPONENT = "arbiter";
    /** The API server refuses an Event message longer than this. */
    private static final int MAX_MESSAGE = 1024;

    private RefusalEvents() {
    }

    static void record(KubernetesClient client, String namespace, ConfigMap configMap, String replica, String revision,
                       String error) {
        String message = "replica " + replica + " refused content " + revision + " and keeps serving the previous: " + error;
        if (message.length() > MAX_MESSAGE) {
            message = message.substring(0, MAX_MESSAGE - 1) + "…";
        }
        String now = Instant.now().toString();
        Event event = new EventBuilder()
                .withNewMetadata()
                .withName(eventName(configMap.getMetadata().getName(), replica, revision))
                .withNamespace(namespace)
                .withLabels(java.util.Map.of(ConfigMapNames.NAME_LABEL, "arbiter"))
                .endMetadata()
                .withInvolvedObject(new ObjectReferenceBuilder().withApiVersion("v1").withKind("ConfigMap")
                        .withNamespace(namespace).withName(configMap.getMetadata().getName())
                        .withUid(configMap.getMetadata().getUid())
                        .withResourceVersion(configMap.getMetadata().getResourceVersion()).build())
                .withType("Warning")
                .withReason(REASON)
                .withMessage(message)
                .withNewSource().withComponent(COMPONENT).withHost(replica).endSource()
                .withReportingComponent(COMPONENT)
                .withReportingInstance(replica)
                .withFirstTimestamp(now)
                .withLastTimestamp(now)
                .withCount(1)
                .build();
        try {
            client.v1().events().inNamespace(namespace).resource(event).create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                LOG.warn("could not record the refusal as an Event on ConfigMap {}: {}", configMap.getMetadata().getName(),
                        e.getCode() > 0 ? "HTTP " + e.getCode() : "the API server cannot be reached");
            }
        }
    }

    /** {@code <configmap>.<replica>.<revision>}: a valid object name of at most 253 characters. */
    static String eventName(String configMap, String replica, String revision) {
        String name = (configMap + "." + replica + "." + revision).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.-]", "-");
        return name.length() <= 253 ? name : name.substring(name.length() - 253).replaceAll("^[^a-z0-9]+", "");
    }
}
