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
     * Refuses form-encoded bodies before the body handler would decode them as form fields: the endpoints read
     * JSON or YAML documents, and a JSON body sent as a form with a {@code %} in it does not even decode.
     */
    static void refuseForms(RoutingContext ctx) {
        String contentType = ctx.request().getHeader("Content-Type");
        String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT).trim();
        if (type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/")) {
            ctx.response().putHeader("Accept", "application/json, application/yaml");
            Responses.fail(ctx, new ApiError(415, "INVALID_REQUEST", "Content-Type " + type.split(";", 2)[0].trim()
                    + " is not accepted: send the body as " + ACCEPTED_TYPES));
            return;
        }
        ctx.next();
    }

    /**
     * Starts the read timeout: a request whose body has not arrived {@code timeout} after its headers is answered
     * 408 and its connection closed, so that a stalled or trickling body does not hold a connection forever.
     * {@link #bodyReceived} stops it.
     */
    static Handler<RoutingContext> readTimeout(Vertx vertx, Duration timeout) {
        long millis = timeout.toMillis();
        return ctx -> {
            long timer = vertx.setTimer(millis, ignored -> {
                if (ctx.response().ended() || ctx.response().closed()) {
                    return;
                }
                ctx.response().putHeader("Connection", "close");
                Responses.fail(ctx, new ApiError(408, "INVALID_REQUEST",
                        "the request was not received within " + describe(timeout)));
                ctx.request().connection().close();
            });
            ctx.put(TIMER, timer);
            ctx.addEndHandler(ignored -> vertx.cancelTimer(timer));
            ctx.next();
        };
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

    private static String describe(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }
}
