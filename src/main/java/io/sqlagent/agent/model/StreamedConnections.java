package io.sqlagent.agent.model;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.ws.rs.client.ClientResponseContext;
import jakarta.ws.rs.core.MediaType;

import org.jboss.resteasy.reactive.client.impl.ClientRequestContextImpl;
import org.jboss.resteasy.reactive.client.impl.RestClientRequestContext;
import org.jboss.resteasy.reactive.client.spi.ResteasyReactiveClientRequestContext;
import org.jboss.resteasy.reactive.client.spi.ResteasyReactiveClientResponseFilter;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.net.impl.ConnectionBase;

/**
 * Keeps the model's connections for the next call once a streamed answer has ended. The Quarkus
 * REST client reads a server-sent-event response through its {@code SseEventSourceImpl}, which
 * closes the connection when the response ends ({@code close(true)} from its end handler, Quarkus
 * 3.34): so every model call opened a new connection (with TLS, a handshake per turn), and with
 * keep-alive on, the pool could hand the ended connection to the next call just before that close
 * landed, which then failed with "Connection was closed". This filter gives the SSE reader a view
 * of the response whose connection ignores {@code close()} once the response has ended — the
 * connection is then back in the pool, whole — and closes it as before while the answer is still
 * streaming (a cancelled call). Registered on the model's REST client by
 * {@link ModelClientSettings}; the wrapper is a JDK proxy, so every other method goes to Vert.x's
 * own objects unchanged.
 */
public final class StreamedConnections implements ResteasyReactiveClientResponseFilter {

    @Override
    public void filter(ResteasyReactiveClientRequestContext requestContext, ClientResponseContext responseContext) {
        if (responseContext.getStatus() != 200 || !(requestContext instanceof ClientRequestContextImpl impl)
                || !MediaType.SERVER_SENT_EVENTS_TYPE.isCompatible(responseContext.getMediaType())) {
            return;
        }
        RestClientRequestContext context = impl.getRestClientRequestContext();
        HttpClientResponse response = context.getVertxClientResponse();
        if (response != null && !Proxy.isProxyClass(response.getClass())) {
            context.initialiseResponse(keepingConnection(response));
        }
    }

    /**
     * {@code response}, whose request's connection ignores {@code close()} after the response ended,
     * and whose reader hears of a connection that closed before it started reading.
     */
    static HttpClientResponse keepingConnection(HttpClientResponse response) {
        AtomicBoolean ended = new AtomicBoolean();
        AtomicBoolean failed = new AtomicBoolean();
        AtomicReference<Handler<Throwable>> errors = new AtomicReference<>();
        HttpConnection connection = proxy(HttpConnection.class, response.request().connection(), (target, method, args) -> {
            if ("close".equals(method.getName()) && method.getParameterCount() == 0 && ended.get()) {
                return Future.succeededFuture();
            }
            return invoke(target, method, args);
        });
        HttpClientRequest request = proxy(HttpClientRequest.class, response.request(), (target, method, args) -> {
            if ("connection".equals(method.getName()) && method.getParameterCount() == 0) {
                return connection;
            }
            return invoke(target, method, args);
        });
        return proxy(HttpClientResponse.class, response, (target, method, args) -> {
            if ("request".equals(method.getName()) && method.getParameterCount() == 0) {
                return request;
            }
            if ("endHandler".equals(method.getName()) && args != null && args.length == 1) {
                @SuppressWarnings("unchecked")
                Handler<Void> handler = (Handler<Void>) args[0];
                response.endHandler(handler == null ? null : done -> {
                    ended.set(true);
                    handler.handle(done);
                });
                return target;
            }
            if ("exceptionHandler".equals(method.getName()) && args != null && args.length == 1) {
                @SuppressWarnings("unchecked")
                Handler<Throwable> handler = (Handler<Throwable>) args[0];
                Handler<Throwable> once = handler == null ? null : failure -> {
                    if (failed.compareAndSet(false, true)) {
                        handler.handle(failure);
                    }
                };
                errors.set(once);
                response.exceptionHandler(once);
                return target;
            }
            Object result = invoke(target, method, args);
            if ("resume".equals(method.getName()) && method.getParameterCount() == 0) {
                reportEarlyClose(response, ended, errors);
            }
            return result;
        });
    }

    /**
     * Vert.x tells a response that its connection closed the moment it closes, even while the
     * response is paused; the REST client keeps the response paused, with no exception handler,
     * until the SSE reader registers its handlers and resumes it. A model server that drops the
     * connection just after its first bytes can close it inside that window: Vert.x then only logs
     * "Connection was closed", the reader never hears of it, and the model call waits for the
     * silence timeout instead of ending at once ({@code model_interrupted}). So when the reader
     * resumes a response whose connection is already closed, it is told once the bytes that did
     * arrive have been delivered (the same event loop, after the drain the resume scheduled), unless
     * the response ended whole before the close.
     */
    private static void reportEarlyClose(HttpClientResponse response, AtomicBoolean ended,
            AtomicReference<Handler<Throwable>> errors) {
        if (!(response.request().connection() instanceof ConnectionBase base)
                || (base.channel().isActive() && !base.closeFuture().isComplete())) {
            return;
        }
        Context context = Vertx.currentContext();
        Handler<Void> report = done -> {
            Handler<Throwable> handler = errors.get();
            if (!ended.get() && handler != null) {
                handler.handle(new HttpClosedException("Connection was closed"));
            }
        };
        if (context != null) {
            context.runOnContext(report);
        } else {
            report.handle(null);
        }
    }

    private interface Call {
        Object on(Object target, Method method, Object[] args) throws Throwable;
    }

    private static <T> T proxy(Class<T> type, T target, Call call) {
        InvocationHandler handler = (proxy, method, args) -> call.on(target, method, args);
        return type.cast(Proxy.newProxyInstance(StreamedConnections.class.getClassLoader(), new Class<?>[] { type }, handler));
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
