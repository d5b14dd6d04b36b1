package io.arbiter.audit;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import io.arbiter.document.Documents;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/** A decision record's JSON, as every decision-log sink writes it. */
final class DecisionRecordJson {

    /** A fired rule's {@code name} and {@code package}: its {@code rule} already says both. */
    private static final Set<String> REPEATED_IN_RULE = Set.of("name", "package");

    private DecisionRecordJson() {
    }

    /**
     * One record as one JSON object without a line end, streamed field by field (the record's component order) into
     * {@code sink}: no copy of the result and no intermediate string, since the writer thread shares the machine
     * with the deciding ones.
     */
    static void write(DecisionRecord record, OutputStream sink) throws IOException {
        SerializerProvider provider = Documents.jsonMapper().getSerializerProviderInstance();
        try (JsonGenerator json = Documents.jsonMapper().getFactory().createGenerator(sink)) {
            json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            json.writeStartObject();
            json.writeStringField("decisionId", record.decisionId());
            json.writeStringField("timestamp", record.timestamp());
            json.writeStringField("endpoint", record.endpoint());
            json.writeStringField("requestDigest", record.requestDigest());
            json.writeFieldName("request");
            writeNode(record.request(), json, provider);
            json.writeStringField("policyRevision", record.policyRevision());
            json.writeStringField("rulesRevision", record.rulesRevision());
            json.writeStringField("catalogRevision", record.catalogRevision());
            json.writeStringField("typeInstancesRevision", record.typeInstancesRevision());
            json.writeStringField("outcome", record.outcome());
            json.writeFieldName("result");
            writeResult(record.result(), json, provider);
            json.writeNumberField("durationMicros", record.durationMicros());
            json.writeEndObject();
        }
    }

    /** In the log, a fired rule is {@code rule} (package.name), {@code order} and {@code facts}: name and package repeat it. */
    private static void writeResult(JsonNode result, JsonGenerator json, SerializerProvider provider) throws IOException {
        if (result == null || !result.isObject()) {
            writeNode(result, json, provider);
            return;
        }
        json.writeStartObject();
        for (Iterator<Map.Entry<String, JsonNode>> fields = result.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            json.writeFieldName(field.getKey());
            if (field.getKey().equals("firedRules") && field.getValue().isArray()) {
                json.writeStartArray();
                for (JsonNode rule : field.getValue()) {
                    writeFiredRule(rule, json, provider);
                }
                json.writeEndArray();
            } else {
                writeNode(field.getValue(), json, provider);
            }
        }
        json.writeEndObject();
    }

    /** A tree through the line's serializer provider ({@code writeTree} would build a provider per node). */
    private static void writeNode(JsonNode node, JsonGenerator json, SerializerProvider provider) throws IOException {
        if (node == null) {
            json.writeNull();
        } else {
            ((JsonSerializable) node).serialize(json, provider);
        }
    }

    private static void writeFiredRule(JsonNode node, JsonGenerator json, SerializerProvider provider) throws IOException {
        if (!node.isObject()) {
            writeNode(node, json, provider);
            return;
        }
        json.writeStartObject();
        for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (!REPEATED_IN_RULE.contains(field.getKey())) {
                json.writeFieldName(field.getKey());
                writeNode(field.getValue(), json, provider);
            }
        }
        json.writeEndObject();
    }
}
