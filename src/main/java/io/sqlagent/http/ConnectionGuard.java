package io.sqlagent.http;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.quarkus.logging.Log;

/**
 * What one client may hold of the HTTP server: at most {@code sqlagent.http.max-connections-per-address}
 * connections open at once from one address (a further one is closed as it is accepted), and a request's
 * headers must end within {@code sqlagent.http.header-timeout} of their first byte (then 408 and the
 * connection is closed). Neither Vert.x nor Quarkus has either setting: {@code quarkus.http.idle-timeout}
 * never fires for a client that trickles a byte at a time (slowloris), and the only connection limit is one
 * over all clients. {@link StrictFraming} hands each accepted connection here, before Vert.x sets it up.
 */
final class ConnectionGuard {

    private static final byte[] TIMED_OUT = ("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);

    private final long headerTimeoutMillis;
    private final int maxPerAddress;
    private final Map<InetAddress, Integer> open = new ConcurrentHashMap<>();

    ConnectionGuard(long headerTimeoutMillis, int maxPerAddress) {
        this.headerTimeoutMillis = headerTimeoutMillis;
        this.maxPerAddress = maxPerAddress;
    }

    /** Counts a newly accepted connection against its address; false (nothing counted) when the address holds its share. */
    boolean admit(Channel child) {
        if (maxPerAddress <= 0 || !(child.remoteAddress() instanceof InetSocketAddress remote)
                || remote.getAddress() == null) {
            return true;
        }
        InetAddress address = remote.getAddress();
        AtomicBoolean admitted = new AtomicBoolean();
        open.compute(address, (key, count) -> {
            int current = count == null ? 0 : count;
            if (current >= maxPerAddress) {
                return count;
            }
            admitted.set(true);
            return current + 1;
        });
        if (!admitted.get()) {
            Log.debugf("Closed a connection from %s: it already holds %d (sqlagent.http.max-connections-per-address)",
                    address.getHostAddress(), maxPerAddress);
            return false;
        }
        child.closeFuture()
                .addListener(closed -> open.computeIfPresent(address, (key, count) -> count <= 1 ? null : count - 1));
        return true;
    }

    /** Puts the header clock around the connection's HTTP decoder, named {@code decoder} in its pipeline. */
    void watchHeaders(ChannelPipeline pipeline, String decoder) {
        if (headerTimeoutMillis <= 0 || pipeline.get(decoder) == null || pipeline.get(HeaderClock.START) != null) {
            return;
        }
        HeaderClock clock = new HeaderClock();
        pipeline.addBefore(decoder, HeaderClock.START, clock.new Start());
        pipeline.addAfter(decoder, HeaderClock.END, clock.new End());
    }

    /**
     * A request's headers from their first byte (seen before the decoder) to the request the decoder makes of
     * them (seen after it). Between requests no clock runs: a keep-alive connection or a long response is
     * {@code quarkus.http.idle-timeout}'s business. Used on the connection's event loop only, so unsynchronised.
     */
    private final class HeaderClock {
        static final String START = "sqlagentHeaderStart";
        static final String END = "sqlagentHeaderEnd";

        private boolean betweenRequests = true;
        private boolean inHeaders;
        private ScheduledFuture<?> deadline;

        private void headersBegin(ChannelHandlerContext ctx) {
            betweenRequests = false;
            inHeaders = true;
            deadline = ctx.executor().schedule(() -> expire(ctx), headerTimeoutMillis, TimeUnit.MILLISECONDS);
        }

        private void expire(ChannelHandlerContext ctx) {
            if (!inHeaders || !ctx.channel().isActive()) {
                return;
            }
            Log.debugf(
                    "Closed a connection from %s: its request's headers did not end within %d ms (sqlagent.http.header-timeout)",
                    ctx.channel().remoteAddress(), headerTimeoutMillis);
            // Written from before the HTTP encoder, so these bytes go out as they are.
            ctx.writeAndFlush(Unpooled.wrappedBuffer(TIMED_OUT)).addListener(ChannelFutureListener.CLOSE);
        }

        private void headersEnd() {
            inHeaders = false;
            if (deadline != null) {
                deadline.cancel(false);
                deadline = null;
            }
        }

        /** Before the decoder: the first bytes after a request ended start the clock. */
        final class Start extends ChannelInboundHandlerAdapter {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object message) {
                if (betweenRequests && message instanceof ByteBuf bytes && bytes.isReadable()) {
                    headersBegin(ctx);
                }
                ctx.fireChannelRead(message);
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                headersEnd();
                ctx.fireChannelInactive();
            }
        }

        /**
         * After the decoder: a request means its headers ended; the end of its body means the next bytes are a new request's.
         */
        final class End extends ChannelInboundHandlerAdapter {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object message) {
                if (message instanceof HttpRequest) {
                    headersEnd();
                }
                if (message instanceof LastHttpContent) {
                    betweenRequests = true;
                }
                ctx.fireChannelRead(message);
            }
        }
    }
}
