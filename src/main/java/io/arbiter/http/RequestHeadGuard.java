package io.arbiter.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.net.impl.ConnectionBase;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * What Vert.x does not let a route see on an HTTP/1.x connection: the request head before it is complete, and a
 * request in a protocol version it does not speak.
 * <ul>
 *   <li>A request's headers must arrive within the read timeout of its first byte (of the accept, for the
 *   first request). A connection that sends part of
 *   a request line or header block and then stalls, or trickles it a byte at a time so that the idle timeout never
 *   fires, is answered 408 and closed. An idle keep-alive connection between requests is left to the idle timeout,
 *   which is longer so that load balancers close first.</li>
 *   <li>A request line naming a major version other than 1 (e.g. {@code HTTP/9.9}, or an HTTP/2 preface) reaches
 *   the server's invalid-request handler as a decoding failure, so it is answered 400 with the contract's error
 *   body rather than by Vert.x's own empty 501; a later HTTP/1 minor version is served as HTTP/1.1.</li>
 *   <li>A chunked body whose framing is malformed (a chunk size that is not hexadecimal, say) is answered 400 and
 *   the connection closed: Vert.x would close it unanswered, and its route would count a 500. If the request was
 *   answered already (refused before its body was read), the connection is only closed.</li>
 * </ul>
 * Vert.x 5 has no public hook into the connection's Netty pipeline; this reaches it through {@link ConnectionBase},
 * an internal class. {@code ConnectionTimeoutsTest} and {@code ProtocolErrorsTest} fail if a Vert.x upgrade moves
 * it.
 */
final class RequestHeadGuard {

    /** Names Vert.x gives the HTTP/1.x decoder and its own connection handler in the pipeline. */
    private static final String DECODER = "httpDecoder";
    private static final String VERTX_HANDLER = "handler";

    private final long timeoutMillis;
    private final String timeoutText;
    private ScheduledFuture<?> headTimer;
    private boolean betweenRequests = true;
    /** Request heads decoded, and final responses (not 1xx) written, on this connection. */
    private long requests;
    private long responses;

    private RequestHeadGuard(Duration timeout) {
        this.timeoutMillis = timeout.toMillis();
        this.timeoutText = ConnectionGuards.describe(timeout);
    }

    /** For {@code HttpServer.connectionHandler}: guards an HTTP/1.x connection (HTTP/2 has its own framing). */
    static void install(HttpConnection connection, Duration timeout) {
        if (!(connection instanceof ConnectionBase base)) {
            return;
        }
        ChannelPipeline pipeline = base.channel().pipeline();
        if (pipeline.get(DECODER) == null || pipeline.get(VERTX_HANDLER) == null) {
            return;
        }
        RequestHeadGuard guard = new RequestHeadGuard(timeout);
        pipeline.addBefore(DECODER, "arbiter-head-start", guard.new BytesIn());
        pipeline.addBefore(VERTX_HANDLER, "arbiter-head-end", guard.new Decoded());
        // Installed when the connection is accepted (the server does not offer the h2c upgrade, which would
        // set up the connection only once a whole request head is in): as nginx's client_header_timeout does,
        // the first request's head is timed from the accept.
        guard.requestBegun(pipeline.context("arbiter-head-end"));
    }

    private void requestBegun(ChannelHandlerContext decoded) {
        betweenRequests = false;
        headTimer = decoded.executor().schedule(() -> headNotReceived(decoded), timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /** Before the decoder: the first byte read between requests starts the clock for the request's head. */
    private final class BytesIn extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            if (betweenRequests && msg instanceof ByteBuf bytes && bytes.isReadable()) {
                requestBegun(ctx.pipeline().context("arbiter-head-end"));
            }
            super.channelRead(ctx, msg);
        }
    }

    /**
     * After the decoder: a complete head stops the clock; the end of a request's body ends the request; a body the
     * decoder could not read is answered here. Counts the final responses Vert.x writes.
     */
    private final class Decoded extends ChannelDuplexHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            // a head the decoder could not read is a (full) request too: Vert.x answers it, through the server's
            // invalid-request handler
            if (!(msg instanceof HttpRequest) && msg instanceof HttpContent content && content.decoderResult().isFailure()) {
                ReferenceCountUtil.release(content);
                bodyNotDecoded(ctx, content.decoderResult().cause());
                return;
            }
            if (msg instanceof HttpRequest request) {
                requests++;
                cancelTimer();
                HttpVersion version = request.protocolVersion();
                if (version.majorVersion() != 1) {
                    request.setDecoderResult(DecoderResult.failure(new UnsupportedVersionException(version.text())));
                }
                if (version.majorVersion() != 1 || version.minorVersion() > 1) {
                    // RFC 9112 2.3: a later HTTP/1.x is served as the latest one the server speaks
                    request.setProtocolVersion(HttpVersion.HTTP_1_1);
                }
            }
            if (msg instanceof LastHttpContent) {
                betweenRequests = true;
            }
            super.channelRead(ctx, msg);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            cancelTimer();
            super.channelInactive(ctx);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
            if (msg instanceof HttpResponse response && response.status().code() >= 200) {
                responses++;
            }
            super.write(ctx, msg, promise);
        }
    }

    /**
     * Answers 400 and closes, unless the request was answered already or an earlier pipelined one is still being
     * answered (a response now would be read as that one's); then only closes. Vert.x never sees the failure, so the
     * request's route is not failed with an error it would count as the server's.
     */
    private void bodyNotDecoded(ChannelHandlerContext ctx, Throwable cause) {
        if (!ctx.channel().isActive()) {
            return;
        }
        if (responses != requests - 1) {
            ctx.close();
            return;
        }
        String reason = cause == null || cause.getMessage() == null ? "" : ": " + ConnectionGuards.printable(cause.getMessage());
        answerAndClose(ctx, HttpResponseStatus.BAD_REQUEST, new ApiError(400, "INVALID_REQUEST",
                "the chunked request body is malformed" + reason));
    }

    private void cancelTimer() {
        if (headTimer != null) {
            headTimer.cancel(false);
            headTimer = null;
        }
    }

    private void headNotReceived(ChannelHandlerContext ctx) {
        headTimer = null;
        if (!ctx.channel().isActive()) {
            return;
        }
        answerAndClose(ctx, HttpResponseStatus.REQUEST_TIMEOUT, new ApiError(408, "INVALID_REQUEST",
                "the request headers were not received within " + timeoutText));
    }

    /** Writes {@code error} straight to the connection, below Vert.x, and closes it. */
    private static void answerAndClose(ChannelHandlerContext ctx, HttpResponseStatus status, ApiError error) {
        byte[] body = Responses.encode(error.body()).getBytes();
        DefaultFullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json")
                .set(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .set(HttpHeaderNames.CONNECTION, "close");
        ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }

    /**
     * A request line in a protocol version the server does not speak: answered 400 (a client error that names
     * the version to send) rather than 505, so that no request a client controls is answered with a 5xx.
     */
    static final class UnsupportedVersionException extends RuntimeException {
        UnsupportedVersionException(String version) {
            super(version + " is not supported: send HTTP/1.1");
        }
    }
}
