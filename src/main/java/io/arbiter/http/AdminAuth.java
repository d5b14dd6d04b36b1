package io.arbiter.http;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Guards admin routes: {@code Authorization: Bearer <token>}, compared in constant time; 403 when no token is configured.
 * Runs before the body is read: a refused request is never asked for its body (no {@code 100 Continue}).
 */
final class AdminAuth implements Handler<RoutingContext> {

    private final byte[] token;

    AdminAuth(String token) {
        // trimmed as the presented token is: a configured token ending in a newline would otherwise match no request
        this.token = token == null || token.isBlank() ? null : token.trim().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void handle(RoutingContext ctx) {
        if (token == null) {
            ConnectionGuards.refuse(ctx, new ApiError(403, "UNAUTHORIZED",
                    "policy administration is disabled: start the server with ARBITER_ADMIN_TOKEN set"));
            return;
        }
        String header = ctx.request().getHeader("Authorization");
        String prefix = "Bearer ";
        byte[] presented = header != null && header.regionMatches(true, 0, prefix, 0, prefix.length())
                ? header.substring(prefix.length()).trim().getBytes(StandardCharsets.UTF_8) : new byte[0];
        if (!MessageDigest.isEqual(presented, token)) {
            ctx.response().putHeader("WWW-Authenticate", "Bearer");
            ConnectionGuards.refuse(ctx, new ApiError(401, "UNAUTHORIZED",
                    header == null ? "missing Authorization: Bearer <admin token>" : "the admin token is not valid"));
            return;
        }
        ctx.next();
    }
}
