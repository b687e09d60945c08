package io.sqlagent;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * Mutiny's scheduler (every {@code ifNoItem().after(…)} and {@code ticks()} that names no other
 * executor) drops a timer from its queue as soon as the timer is cancelled. A JDK
 * {@link ScheduledThreadPoolExecutor}, which it is, keeps a cancelled task until it would have
 * fired: the timeout of every call and statement that ended long before it (30 s and more each, a
 * thousand calls a second), and the chain of the call each one references, would stay on the heap
 * that long and be copied by every collection meanwhile.
 */
@ApplicationScoped
public class MutinyTimers {

    void removeCancelledTimers(@Observes StartupEvent event) {
        removeCancelled(Infrastructure.getDefaultWorkerPool());
    }

    /** Whether {@code scheduler} now drops its cancelled tasks (only a JDK scheduled pool can). */
    static boolean removeCancelled(ScheduledExecutorService scheduler) {
        if (scheduler instanceof ScheduledThreadPoolExecutor pool) {
            pool.setRemoveOnCancelPolicy(true);
            return true;
        }
        return false;
    }
}
