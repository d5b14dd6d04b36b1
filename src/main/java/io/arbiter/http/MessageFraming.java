package io.arbiter.http;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpVersion;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.impl.VertxHttpRequestDecoder;
import io.vertx.core.net.impl.ConnectionBase;

import java.util.List;

/**
 * Where a request's body ends must be beyond doubt (RFC 9112 6.1, 6.3): otherwise a proxy in front of the server and
 * the server can read different requests from the same bytes (request smuggling). A request is refused (400, then
 * the connection is closed, the bytes after its head unread) when it has:
 * <ul>
 *   <li>both {@code Content-Length} and {@code Transfer-Encoding} (Netty would read it as chunked and keep the
 *   connection open);</li>
 *   <li>a {@code Transfer-Encoding} other than the single coding {@code chunked}: the server decodes no other
 *   coding, and Netty reads an unknown one ({@code xchunked}) as no body, serving the body as the next request;</li>
 *   <li>more than one {@code Transfer-Encoding} field, or one folded over several lines (obs-fold: Netty joins the
 *   lines with a space, so the value is then no longer exactly {@code chunked});</li>
 *   <li>a {@code Transfer-Encoding} in an HTTP/1.0 request, whose framing is then faulty by definition.</li>
 * </ul>
 * The checks run in the decoder, once the head is read and before it decides how to read the body: a refusal there
 * makes the decoder drop everything after the head, so no byte of a hidden request is ever decoded. The decoder is
 * Vert.x's own, replaced by a subclass through {@link ConnectionBase}, an internal class; {@code RequestFramingTest}
 * fails if a Vert.x upgrade moves it.
 */
final class MessageFraming {

    private static final String DECODER = "httpDecoder";

    private MessageFraming() {
    }

    /** For {@code HttpServer.connectionHandler}: decodes an HTTP/1.x connection's requests with the checks above. */
    static void install(HttpConnection connection, HttpServerOptions options) {
        if (!(connection instanceof ConnectionBase base)) {
            return;
        }
        ChannelPipeline pipeline = base.channel().pipeline();
        if (pipeline.get(DECODER) instanceof VertxHttpRequestDecoder) {
            pipeline.replace(DECODER, DECODER, new StrictDecoder(options));
        }
    }

    /** Why a request's framing is refused: {@code null} when it is unambiguous. */
    static String problem(HttpMessage message) {
        List<String> encodings = message.headers().getAll(HttpHeaderNames.TRANSFER_ENCODING);
        if (encodings.isEmpty()) {
            return null;
        }
        if (message.headers().contains(HttpHeaderNames.CONTENT_LENGTH)) {
            return "a request must not have both Content-Length and Transfer-Encoding";
        }
        if (message.protocolVersion().equals(HttpVersion.HTTP_1_0)) {
            return "an HTTP/1.0 request must not have Transfer-Encoding: send Content-Length";
        }
        if (encodings.size() > 1) {
            return "Transfer-Encoding must be sent once";
        }
        if (!encodings.get(0).equalsIgnoreCase("chunked")) {
            return "Transfer-Encoding must be chunked, on one line (not '" + ConnectionGuards.printable(encodings.get(0))
                    + "'): no other transfer coding is accepted";
        }
        return null;
    }

    /** A request whose framing is ambiguous: the invalid-request handler answers it 400 with this message. */
    static final class AmbiguousFramingException extends RuntimeException {
        AmbiguousFramingException(String message) {
            super(message);
        }
    }

    /** Vert.x's decoder, refusing a request whose framing {@link #problem} names. */
    private static final class StrictDecoder extends VertxHttpRequestDecoder {

        StrictDecoder(HttpServerOptions options) {
            super(options);
        }

        /**
         * Called with the whole head, before the decoder decides how to read the body (and before it drops the
         * {@code Content-Length} of a chunked request). The exception makes the decoder mark the request failed and
         * drop what follows.
         */
        @Override
        protected boolean isContentAlwaysEmpty(HttpMessage message) {
            String problem = message == null ? null : problem(message);
            if (problem != null) {
                throw new AmbiguousFramingException(problem);
            }
            return super.isContentAlwaysEmpty(message);
        }
    }
}
