package io.sqlagent.store;

import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Runs store work in a Hibernate Reactive session (the Panache entities and native queries), from
 * whatever thread asks: a REST request's event loop, an agent's tool call continuing on a model
 * client's thread, an MCP call, a worker, a start-up observer. Hibernate Reactive must run on a
 * Vert.x duplicated context marked safe, and a session belongs to one such context; each unit of
 * work gets a new one (on the caller's event loop when it has one), so callers never share a session
 * and {@code @WithSession} on every caller's path is not needed.
 */
@ApplicationScoped
public class StoreSessions {

    private final Vertx vertx;

    StoreSessions(Vertx vertx) {
        this.vertx = vertx;
    }

    /** {@code work} in a session and a transaction, committed when its {@code Uni} succeeds. */
    public <T> Uni<T> withTransaction(Supplier<Uni<T>> work) {
        return onNewContext(() -> Panache.withTransaction(work));
    }

    /** {@code work} in a session, without a transaction of its own (reads). */
    public <T> Uni<T> withSession(Supplier<Uni<T>> work) {
        return onNewContext(() -> Panache.withSession(work));
    }

    private <T> Uni<T> onNewContext(Supplier<Uni<T>> work) {
        return Uni.createFrom().emitter(emitter -> {
            Context context = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
            VertxContextSafetyToggle.setContextSafe(context, true);
            context.runOnContext(ignored -> {
                Uni<T> started;
                try {
                    started = work.get();
                } catch (RuntimeException e) {
                    emitter.fail(e);
                    return;
                }
                started.subscribe().with(emitter::complete, emitter::fail);
            });
        });
    }
}
