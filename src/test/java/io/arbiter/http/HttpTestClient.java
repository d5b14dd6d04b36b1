package io.arbiter.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.document.Documents;
import io.arbiter.testing.ResponseContract;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/** A tiny client for HTTP tests against a running {@link ArbiterServer}; it checks every answer against /openapi.json. */
final class HttpTestClient {

    record Response(int status, Map<String, java.util.List<String>> headers, String body) {
        JsonNode json() {
            try {
                return Documents.jsonMapper().readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + body, e);
            }
        }

        String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().get(0)).findFirst().orElse(null);
        }

        String errorCode() {
            return json().path("error").path("code").asText();
        }
    }

    private final HttpClient client = HttpClient.newHttpClient();
    private final String base;

    HttpTestClient(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    Response send(String method, String path, String contentType, byte[] body, String... headers) {
        // a server that never answers fails the test instead of hanging it
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        try {
            HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
            Response answered = new Response(response.statusCode(), response.headers().map(), response.body());
            // every answer an HTTP test receives must be what /openapi.json says it is
            ResponseContract.check(method, path, answered.status(), answered.header("Content-Type"), answered.body());
            return answered;
        } catch (IOException | InterruptedException e) {
            throw new AssertionError(method + " " + path + " failed", e);
        }
    }

    Response postJson(String path, String json, String... headers) {
        return send("POST", path, "application/json", json.getBytes(), headers);
    }

    Response get(String path, String... headers) {
        return send("GET", path, null, null, headers);
    }
}
