package io.arbiter.impact;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.catalog.Catalog;
import io.arbiter.document.Documents;
import io.arbiter.model.Ref;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Builds the requests impact analysis decides: a sweep of a catalog, and the requests of logged decisions. */
public final class Probes {

    private Probes() {
    }

    private static final Comparator<Ref> BY_PATH_AND_REVISION = Comparator.comparing(Ref::path)
            .thenComparing(ref -> ref.revision() == null ? "" : ref.revision());

    /**
     * Every Interface revision (an implementation decision each) and every Type revision (a backend decision each)
     * of the catalogs: a change to either side's catalog is swept on both sides.
     */
    public static List<Probe> sweep(Catalog... catalogs) {
        Set<Ref> interfaces = new TreeSet<>(BY_PATH_AND_REVISION);
        Set<Ref> types = new TreeSet<>(BY_PATH_AND_REVISION);
        for (Catalog catalog : catalogs) {
            interfaces.addAll(catalog.interfaces());
            types.addAll(catalog.typeRefs());
        }
        List<Probe> probes = new ArrayList<>();
        for (Ref ref : interfaces) {
            ObjectNode request = Documents.jsonMapper().createObjectNode();
            request.set("interface", refNode(ref));
            probes.add(new Probe(Probe.Source.SWEEP, "implementation", label(ref), encode(request)));
        }
        for (Ref ref : types) {
            ObjectNode request = Documents.jsonMapper().createObjectNode();
            request.putArray("typeRefs").add(refNode(ref));
            probes.add(new Probe(Probe.Source.SWEEP, "backend", label(ref), encode(request)));
        }
        return probes;
    }

    /**
     * The request of a decision-log record, as a probe of its target; {@code null} for a record that names no
     * request or no target (reported by the caller as skipped).
     */
    public static Probe replay(JsonNode record) {
        JsonNode request = record.path("request");
        String target = record.path("endpoint").asText("");
        if (!request.isObject() || target.isEmpty()) {
            return null;
        }
        return new Probe(Probe.Source.REPLAY, target, record.path("decisionId").asText(""), encode(request));
    }

    /**
     * Adds the probe of a decision-log record to {@code probes}, or, for a record that has none, why to
     * {@code skipped}, after {@code named} (how the caller names the record).
     */
    public static void replay(JsonNode record, String named, List<Probe> probes, List<String> skipped) {
        Probe probe = replay(record);
        if (probe == null) {
            skipped.add(named + ": " + notReplayed(record));
        } else {
            probes.add(probe);
        }
    }

    /** Why {@link #replay} found no probe in {@code record}, as the caller reports the record skipped. */
    public static String notReplayed(JsonNode record) {
        JsonNode summarised = record.path("summarised");
        if (summarised.isObject() && !record.path("request").isObject()) {
            return "the record was summarised to fit the decision log's bound (its whole record took "
                    + summarised.path("wholeBytes").asLong() + " bytes): its request is kept only by its digest "
                    + record.path("requestDigest").asText("?") + ", so it cannot be replayed from the log";
        }
        return "the record names no request or target";
    }

    private static ObjectNode refNode(Ref ref) {
        ObjectNode node = Documents.jsonMapper().createObjectNode();
        node.put("path", ref.path());
        if (ref.revision() != null) {
            node.put("revision", ref.revision());
        }
        return node;
    }

    private static String label(Ref ref) {
        return ref.revision() == null ? ref.path() : ref.path() + ":" + ref.revision();
    }

    static byte[] encode(JsonNode request) {
        try {
            return Documents.jsonMapper().writeValueAsBytes(request);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode a request", e);
        }
    }
}
