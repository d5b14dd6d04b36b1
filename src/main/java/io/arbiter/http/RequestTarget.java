package io.arbiter.http;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * What the router would fail on before a route runs, refused first with the contract's 400: an HTTP/1.1 request
 * without {@code Host} (RFC 9112 3.2), and a path or query whose percent-encoding does not decode (a {@code %} not followed
 * by two hexadecimal digits, or bytes that are not UTF-8). Left to the router, the first fails as the server's
 * own error (500), the second as a plain-text 400 with an error and its stack trace in the log.
 */
final class RequestTarget {

    private RequestTarget() {
    }

    /**
     * Serves with {@code routes} what has a {@code Host} where HTTP/1.1 requires one, and, when the server listens on
     * {@code boundHost} of the loopback interface only, whose {@code Host} names the loopback interface. The router
     * would fail a request without Host before any route runs; one naming another host is a page of another site
     * that a DNS name resolving to 127.0.0.1 lets reach the server (DNS rebinding). Both are refused here, and their
     * connection closed.
     */
    static Handler<HttpServerRequest> guardingHost(Handler<HttpServerRequest> routes, String boundHost) {
        boolean loopbackOnly = isLoopbackName(boundHost);
        return request -> {
            String host = request.getHeader("Host");
            if (host == null && request.version() == HttpVersion.HTTP_1_1) {
                refuseAndClose(request, new ApiError(400, "INVALID_REQUEST",
                        "an HTTP/1.1 request needs a Host header (RFC 9112 3.2)"));
            } else if (host != null && loopbackOnly && !isLoopbackName(withoutPort(host.trim()))) {
                refuseAndClose(request, new ApiError(421, "INVALID_REQUEST", "this server listens on the loopback "
                        + "interface only and answers requests for localhost, 127.0.0.1 or [::1], not for '"
                        + ConnectionGuards.printable(host) + "'"));
            } else {
                routes.handle(request);
            }
        };
    }

    private static void refuseAndClose(HttpServerRequest request, ApiError error) {
        request.response().putHeader("Connection", "close");
        Responses.fail(request.response(), error);
        request.connection().close();
    }

    /** The names of the loopback interface a server may listen on, or a client name it by. */
    static boolean isLoopbackName(String host) {
        String name = host.toLowerCase(java.util.Locale.ROOT);
        return name.equals("localhost") || name.equals("127.0.0.1") || name.equals("::1") || name.equals("[::1]");
    }

    /** {@code host:port} or {@code [v6]:port} without its port. */
    private static String withoutPort(String authority) {
        if (authority.startsWith("[")) {
            int end = authority.indexOf(']');
            return end < 0 ? authority : authority.substring(0, end + 1);
        }
        int colon = authority.indexOf(':');
        return colon < 0 ? authority : authority.substring(0, colon);
    }

    static void check(RoutingContext ctx) {
        String problem = problem(ctx.request());
        if (problem != null) {
            ConnectionGuards.refuse(ctx, new ApiError(400, "INVALID_REQUEST", problem));
            return;
        }
        ctx.next();
    }

    /** Why the request cannot be routed, or {@code null}. */
    static String problem(HttpServerRequest request) {
        String uri = request.uri();
        int query = uri.indexOf('?');
        String path = query < 0 ? uri : uri.substring(0, query);
        if (!decodes(path)) {
            return "the path is not valid percent-encoded UTF-8: '" + ConnectionGuards.printable(path) + "'";
        }
        if (query >= 0 && !decodes(uri.substring(query + 1))) {
            return "the query is not valid percent-encoded UTF-8: '" + ConnectionGuards.printable(uri.substring(query + 1)) + "'";
        }
        return null;
    }

    /** Whether every {@code %} is followed by two hexadecimal digits, and the bytes they stand for are UTF-8. */
    static boolean decodes(String text) {
        if (text.indexOf('%') < 0) {
            return true;
        }
        ByteBuffer bytes = ByteBuffer.allocate(text.length() * 3);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '%') {
                if (i + 2 >= text.length()) {
                    return false;
                }
                int high = Character.digit(text.charAt(i + 1), 16);
                int low = Character.digit(text.charAt(i + 2), 16);
                if (high < 0 || low < 0) {
                    return false;
                }
                bytes.put((byte) (high * 16 + low));
                i += 2;
            } else {
                bytes.put(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            }
        }
        bytes.flip();
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(bytes);
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
