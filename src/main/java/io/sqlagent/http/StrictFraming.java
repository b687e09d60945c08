package io.sqlagent.http;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpMessage;
import io.quarkus.logging.Log;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.impl.VertxHttpRequestDecoder;
import io.vertx.core.net.impl.ConnectionBase;

/**
 * Makes {@code Content-Length} together with {@code Transfer-Encoding} visible, so that
 * {@link EdgeFilter} can refuse it. Netty's decoder silently drops {@code Content-Length} from such
 * a request and reads it as chunked (RFC 9112 allows either), so by the time any handler sees the
 * request the ambiguity is gone, and neither Vert.x nor Quarkus has a setting to reject it. The only
 * place it can be seen is Netty's own hook, {@code handleTransferEncodingChunkedWithContentLength}:
 * new connections get a decoder that does what Netty does and adds a marker header.
 * <p>
 * Vert.x offers no hook where connections are accepted, so the decoder is put in place from the
 * listening channel, found through the first request served; the service sends that request to
 * itself as soon as it listens ({@code EdgeFilter.warmUp}), so only its own first connection keeps
 * Netty's decoder. Everything here uses Vert.x internals
 * ({@code ConnectionBase}, the pipeline name {@code httpDecoder}); if they change, the check stops
 * working — {@code HttpEdgeTest.contentLengthTogetherWithChunkedIsRefused} says so — and serving
 * goes on.
 * <p>
 * The same hook hands each accepted connection to {@link ConnectionGuard} (connections per address, the header
 * timeout), for which Vert.x has no hook either.
 */
final class StrictFraming {

    /** Set on a request that came with both framings; a client that sends it itself is refused too. */
    static final String MARKER = "x-sqlagent-ambiguous-framing";

    private static final String DECODER = "httpDecoder";

    private final HttpServerOptions decoderOptions;
    private final Set<Channel> listening = ConcurrentHashMap.newKeySet();
    private final ConnectionGuard guard;

    StrictFraming(int maxInitialLineLength, int maxHeaderSize, int maxChunkSize, ConnectionGuard guard) {
        this.guard = guard;
        this.decoderOptions = new HttpServerOptions().setMaxInitialLineLength(maxInitialLineLength)
                .setMaxHeaderSize(maxHeaderSize).setMaxChunkSize(maxChunkSize);
    }

    /** Puts the strict decoder on every connection the listening channel of {@code connection} accepts from now on. */
    void watch(HttpConnection connection) {
        try {
            if (!(connection instanceof ConnectionBase base)) {
                return;
            }
            Channel server = base.channel().parent();
            if (server != null && listening.add(server)) {
                server.pipeline().addFirst("sqlagentStrictFraming", new Acceptor());
            }
        } catch (RuntimeException e) {
            Log.debugf(e, "Cannot watch the framing of new connections");
        }
    }

    /** Sees each accepted connection before Vert.x sets it up. */
    @ChannelHandler.Sharable
    private final class Acceptor extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object message) {
            if (message instanceof Channel child) {
                if (!guard.admit(child)) {
                    // Not registered yet: closed the way Netty closes a child it cannot register.
                    child.unsafe().closeForcibly();
                    return;
                }
                child.pipeline().addFirst("sqlagentFramingDecoder", new DecoderSwap());
            }
            ctx.fireChannelRead(message);
        }
    }

    /** Replaces Vert.x's decoder before it has read a byte (so it holds no state), then steps aside. */
    private final class DecoderSwap extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object message) {
            ChannelPipeline pipeline = ctx.pipeline();
            try {
                ChannelHandler decoder = pipeline.get(DECODER);
                if (decoder instanceof VertxHttpRequestDecoder && !(decoder instanceof MarkingDecoder)) {
                    pipeline.replace(DECODER, DECODER, new MarkingDecoder(decoderOptions));
                }
                if (decoder != null) {
                    guard.watchHeaders(pipeline, DECODER);
                }
                if (decoder != null || pipeline.get("ssl") == null) {
                    pipeline.remove(this);
                }
            } catch (RuntimeException e) {
                Log.debugf(e, "Cannot replace the HTTP decoder");
                pipeline.remove(this);
            }
            ctx.fireChannelRead(message);
        }
    }

    /** Vert.x's decoder, marking the request whose {@code Content-Length} Netty drops for its chunked encoding. */
    private static final class MarkingDecoder extends VertxHttpRequestDecoder {
        MarkingDecoder(HttpServerOptions options) {
            super(options);
        }

        @Override
        protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
            super.handleTransferEncodingChunkedWithContentLength(message);
            message.headers().set(MARKER, "true");
        }
    }
}
