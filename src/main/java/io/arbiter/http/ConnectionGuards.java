package io.arbiter.http;

import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

import java.time.Duration;
import java.util.Locale;

/**
 * What the server answers before a route sees the request: requests the HTTP decoder could not read, bodies in a
 * form encoding, bodies past what the server can hold at once, and bodies that do not arrive in time. Every answer
 * is the contract's JSON error body.
 */
final class ConnectionGuards {

    /** The body types the endpoints read. */
    static final String ACCEPTED_TYPES = "application/json or application/yaml";

    private static final String TIMER = "arbiter.readTimer";

    private ConnectionGuards() {
    }

    /**
     * For {@code HttpServer.invalidRequestHandler}: a request line or header block the decoder refused. The
     * connection is closed once the answer is written (the decoder cannot go on reading it).
     */
    static void invalidRequest(HttpServerRequest request) {
        DecoderResult result = request.decoderResult();
        Throwable cause = result == null ? null : result.cause();
        ApiError error;
        if (cause instanceof TooLongHttpLineException) {
            error = new ApiError(414, "INVALID_REQUEST", "the request line is longer than "
                    + ServerOptions.MAX_REQUEST_LINE_BYTES + " bytes");
        } else if (cause instanceof TooLongHttpHeaderException) {
            error = new ApiError(431, "INVALID_REQUEST", "the request headers are larger than "
                    + ServerOptions.MAX_HEADER_BYTES + " bytes");
        } else if (cause instanceof RequestHeadGuard.UnsupportedVersionException
                || cause instanceof MessageFraming.AmbiguousFramingException) {
            error = new ApiError(400, "INVALID_REQUEST", cause.getMessage());
        } else {
            error = new ApiError(400, "INVALID_REQUEST", "the request line or headers are not valid HTTP/1.1");
        }
        request.response().putHeader("Connection", "close");
        Responses.fail(request.response(), error);
        request.connection().close();
    }

    /**
     * Refuses, before it is read, a body the endpoints would not read as sent (415): one in a content coding (the
     * server decodes none), or of a media type other than JSON or YAML. Form, multipart and {@code text/plain}
     * bodies are among them, and so is a body without a type: those are what a page of another site can make a
     * browser send without a CORS preflight, so no page can have a browser send a decision or a policy. (A form
     * body would also be decoded as form fields, and one with a {@code %} in it does not even decode.)
     */
    static void refuseUnreadableBodies(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        if (!hasBody(request)) {
            ctx.next();
            return;
        }
        String encoding = request.getHeader("Content-Encoding");
        if (encoding != null && !encoding.trim().equalsIgnoreCase("identity")) {
            ctx.response().putHeader("Accept-Encoding", "identity");
            refuse(ctx, new ApiError(415, "INVALID_REQUEST", "Content-Encoding " + printable(encoding)
                    + " is not accepted: send the body unencoded (identity)"));
            return;
        }
        String contentType = request.getHeader("Content-Type");
        String type = contentType == null ? "" : contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        // a decision table is also sent as its CSV (text/csv is not a type a page of another site sends without a preflight)
        boolean table = type.equals("text/csv") && request.path() != null && request.path().startsWith("/v1/decision-tables/");
        if (!isDocumentType(type) && !table) {
            ctx.response().putHeader("Accept", "application/json, application/yaml");
            refuse(ctx, new ApiError(415, "INVALID_REQUEST", (type.isEmpty() ? "a request body needs a Content-Type"
                    : "Content-Type " + printable(type) + " is not accepted") + ": send the body as " + ACCEPTED_TYPES));
            return;
        }
        ctx.next();
    }

    /** JSON or YAML, as {@code Documents} reads them. */
    private static boolean isDocumentType(String type) {
        return switch (type) {
            case "application/json", "application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml" -> true;
            default -> type.startsWith("application/") && (type.endsWith("+json") || type.endsWith("+yaml"));
        };
    }

    private static boolean hasBody(HttpServerRequest request) {
        String length = request.getHeader("Content-Length");
        return request.headers().contains("Transfer-Encoding") || (length != null && !length.trim().equals("0"));
    }

    /** A header value as an error message may quote it: short, printable ASCII. */
    static String printable(String value) {
        String shown = value.length() <= 60 ? value : value.substring(0, 60) + "…";
        return shown.replaceAll("[^\\x20-\\x7e…]", "?");
    }

    /**
     * Starts the read timeout: a request whose body has not arrived {@code timeout} after its headers is answered
     * 408 and its connection closed, so that a stalled or trickling body does not hold a connection forever.
     * {@link #bodyReceived} stops it. A request answered before its body was read ({@link #refuse}) keeps it: its
     * connection is closed at the timeout if the rest of the body has not come by then.
     */
    static Handler<RoutingContext> readTimeout(Vertx vertx, Duration timeout) {
        long millis = timeout.toMillis();
        return ctx -> {
            long timer = vertx.setTimer(millis, ignored -> {
                if (ctx.request().isEnded() || ctx.response().closed()) {
                    return;
                }
                if (ctx.response().ended()) {
                    ctx.request().connection().close();
                    return;
                }
                ctx.response().putHeader("Connection", "close");
                Responses.fail(ctx, new ApiError(408, "INVALID_REQUEST",
                        "the request was not received within " + describe(timeout)));
                ctx.request().connection().close();
            });
            ctx.put(TIMER, timer);
            ctx.addEndHandler(ignored -> {
                if (ctx.request().isEnded()) {
                    vertx.cancelTimer(timer);
                }
            });
            ctx.next();
        };
    }

    /**
     * Answers {@code error} before the request's body is read, so that a client that sent
     * {@code Expect: 100-continue} is never asked for a body that would be refused. A body still to come is read
     * and dropped (up to the body limit, within the read timeout), then the connection closed, as the answer's
     * {@code Connection: close} says: closing at once could make the client's TCP stack discard the answer.
     */
    static void refuse(RoutingContext ctx, ApiError error) {
        HttpServerRequest request = ctx.request();
        if (request.isEnded()) {
            Responses.fail(ctx, error);
            return;
        }
        ctx.response().putHeader("Connection", "close");
        Responses.fail(ctx, error);
        if ("100-continue".equalsIgnoreCase(request.getHeader("Expect"))) {
            // the client waits for a 100 Continue that will not come before it sends the body: nothing to drop
            request.connection().close();
            return;
        }
        long[] dropped = {0};
        request.handler(chunk -> {
            dropped[0] += chunk.length();
            if (dropped[0] > ServerOptions.MAX_BODY_BYTES) {
                request.connection().close();
            }
        }).endHandler(ended -> request.connection().close()).resume();
    }

    /**
     * Counts a body while it arrives ({@link RequestMemory}), by the length it announces, or the body limit when it is
     * chunked. One that would take the bodies arriving past their bound is read and dropped as it comes, and answered
     * 413 with {@code Retry-After} once it is in (the read timeout still applies); a client closing early gives the
     * bytes back as an answered request does.
     */
    static Handler<RoutingContext> bodyArriving(RequestMemory memory) {
        return ctx -> {
            long bytes = announced(ctx.request());
            InFlightBytes arriving = memory.arrivingFor(bytes);
            if (!arriving.take(bytes)) {
                ctx.request().handler(dropped -> { })
                        .endHandler(ended -> RequestMemory.refuseForNow(ctx, "receiving", arriving, bytes)).resume();
                return;
            }
            ctx.addEndHandler(ignored -> arriving.give(bytes));
            ctx.next();
        };
    }

    /** The body length a request announces; the body limit when it is chunked, since its length is not known. */
    private static long announced(HttpServerRequest request) {
        String length = request.getHeader("Content-Length");
        if (length != null) {
            try {
                return Math.min(Math.max(Long.parseLong(length.trim()), 0), ServerOptions.MAX_BODY_BYTES);
            } catch (NumberFormatException e) {
                return ServerOptions.MAX_BODY_BYTES;
            }
        }
        return request.headers().contains("Transfer-Encoding") ? ServerOptions.MAX_BODY_BYTES : 0;
    }

    /** Stops the read timeout once the body is in: deciding is not reading. */
    static Handler<RoutingContext> bodyReceived(Vertx vertx) {
        return ctx -> {
            Long timer = ctx.get(TIMER);
            if (timer != null) {
                vertx.cancelTimer(timer);
            }
            ctx.next();
        };
    }

    /** A timeout as an answer states it: in seconds when whole, else in milliseconds. */
    static String describe(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }
}
