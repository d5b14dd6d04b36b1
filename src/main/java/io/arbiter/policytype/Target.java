package io.arbiter.policytype;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.document.JsonSchemas;

/**
 * A decision endpoint a policy type serves: {@code POST /v1/decisions/{name}} and {@code arbiter decide {name}}.
 *
 * @param requestSchema the JSON Schema (draft 7) every request document must pass before any rule runs
 * @param cliOptions    creates a picocli mixin (options annotated with {@code @Option}) that builds a request
 *                      from the command line; null when the target takes only {@code --request FILE}
 */
public record Target(String name, String description, JsonNode requestSchema,
                     java.util.function.Supplier<CliRequest> cliOptions) {

    /** A target whose request schema is the resource {@code /schemas/<name>-request.json}, taking only {@code --request FILE}. */
    public Target(String name, String description) {
        this(name, description, JsonSchemas.resource("/schemas/" + name + "-request.json"), null);
    }

    /** A picocli mixin that turns command-line options into a request document. */
    public interface CliRequest {
        /** The request document, or null when the options were not used (then {@code --request} is required). */
        JsonNode toRequest();
    }
}
