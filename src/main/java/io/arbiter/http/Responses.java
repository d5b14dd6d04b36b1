package io.arbiter.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.arbiter.document.Documents;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClosedException;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.arbiter.runtime.Refusal;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/** The one place that writes response bodies and turns exceptions into the contract's error bodies. */
final class Responses {

    private static final Logger LOG = LoggerFactory.getLogger(Responses.class);

    private Responses() {
    }

    static void json(RoutingContext ctx, int status, Object body) {
        json(ctx, status, encode(body));
    }

    /** A body already encoded as JSON. */
    static void json(RoutingContext ctx, int status, Buffer body) {
        write(ctx, status, "application/json", body);
    }

    /** {@code body} as compact JSON (UTF-8). */
    static Buffer encode(Object body) {
        try {
            return Buffer.buffer(Documents.jsonMapper().writeValueAsBytes(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render response", e);
        }
    }

    /**
     * Runs {@code work} on a worker thread, then, back on the event loop, gives its result to {@code answer}, or
     * answers its failure.
     */
    static <T> void fromWorker(Vertx vertx, RoutingContext ctx, Callable<T> work, Consumer<T> answer) {
        vertx.executeBlocking(work, false).onComplete(result -> {
            if (result.succeeded()) {
                answer.accept(result.result());
            } else {
                fail(ctx, result.cause());
            }
        });
    }

    /** Runs {@code work} on a worker thread and answers its result as JSON, or its failure. */
    static void fromWorker(Vertx vertx, RoutingContext ctx, Callable<?> work) {
        fromWorker(vertx, ctx, work, result -> json(ctx, 200, (Object) result));
    }

    static void yaml(RoutingContext ctx, int status, Object body) {
        try {
            write(ctx, status, "application/yaml", Buffer.buffer(Documents.yamlMapper().writeValueAsBytes(body)));
        } catch (JsonProcessingException e) {
            fail(ctx, e);
        }
    }

    static void fail(RoutingContext ctx, Throwable failure) {
        ApiError error = toApiError(failure);
        if (failure instanceof io.arbiter.decision.WorkAdmission.RefusedForNowException) {
            ctx.response().putHeader("Retry-After", "1");
        }
        if (failure instanceof HttpClosedException) {
            // the client went away before it was answered (it closed the connection while sending its body): there
            // is no one to answer, and nothing failed in the server
            LOG.debug("request {} {}: the client closed the connection", ctx.request().method(), ctx.request().path());
        } else if (error.status() == 503) {
            // a refusal the service means, to be retried (a required decision log that cannot take the record, a
            // decision past its deadline), not a fault in the server: one line per refused request, its reason the
            // message; a decision log that cannot write logs that itself, at ERROR
            LOG.warn("request {} {} refused (503): {}", ctx.request().method(), ctx.request().path(), error.getMessage());
        } else if (error.status() >= 500) {
            LOG.error("request {} {} failed", ctx.request().method(), ctx.request().path(), failure);
        }
        json(ctx, error.status(), error.body());
    }

    /** An error written where there is no routing context: the server answers a request it could not decode. */
    static void fail(io.vertx.core.http.HttpServerResponse response, ApiError error) {
        if (!response.ended() && !response.closed()) {
            response.setStatusCode(error.status()).putHeader("Content-Type", "application/json").end(encode(error.body()));
        }
    }

    static ApiError toApiError(Throwable failure) {
        if (failure instanceof ApiError apiError) {
            return apiError;
        }
        // the cause of a failure that is no refusal is logged by fail(); its class and message are ours to read, not the caller's
        return Refusal.of(failure).map(refusal -> new ApiError(refusal.status(), refusal.code().wire(), refusal.message(),
                refusal.problems())).orElseGet(() -> new ApiError(500, "INTERNAL", "the server could not complete this request", List.of()));
    }

    private static void write(RoutingContext ctx, int status, String contentType, Buffer body) {
        if (ctx.response().ended() || ctx.response().closed()) {
            return;
        }
        ctx.response().setStatusCode(status).putHeader("Content-Type", contentType).end(body);
    }
}
