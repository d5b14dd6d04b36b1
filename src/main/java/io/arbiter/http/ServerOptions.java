package io.arbiter.http;

import io.arbiter.decision.Settings;

/**
 * How the server runs.
 *
 * @param adminToken the bearer token for policy administration; null or blank disables it (403)
 */
public record ServerOptions(String host, int port, Settings settings, String adminToken) {

    public static final int MAX_BODY_BYTES = 1024 * 1024;

    public boolean adminEnabled() {
        return adminToken != null && !adminToken.isBlank();
    }
}
