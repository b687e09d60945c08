package io.sqlagent.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.Uni;
import io.vertx.core.VertxException;
import io.vertx.pgclient.PgException;

/**
 * A read that meets a connection the store has just closed is tried once more; a write is not (it
 * may have been committed), and an SQL error of the store is never retried.
 */
class BoundedStoreCallsTest {

    private final BoundedStoreCalls store = new BoundedStoreCalls(() -> Duration.ofSeconds(5));

    @Test
    void aReadOnAClosedConnectionIsTriedOnceMore() {
        AtomicInteger calls = new AtomicInteger();
        Uni<String> call = failingFirst(calls, new VertxException("Connection is closed"));

        assertEquals("row", store.read(call).await().atMost(Duration.ofSeconds(5)));
        assertEquals(2, calls.get());
    }

    @Test
    void aLookupThatMayWriteIsNotRetriedAndIsStoreUnavailable() {
        AtomicInteger calls = new AtomicInteger();
        Uni<String> call = failingFirst(calls, new VertxException("Connection is closed"));

        assertThrows(StoreUnavailableException.class, () -> store.lookup(call).await().atMost(Duration.ofSeconds(5)));
        assertEquals(1, calls.get());
    }

    @Test
    void aReadThatKeepsFindingNoConnectionIsStoreUnavailableAfterOneRetry() {
        AtomicInteger calls = new AtomicInteger();
        Uni<String> call = Uni.createFrom().failure(() -> {
            calls.incrementAndGet();
            return new VertxException("Connection refused");
        });

        assertThrows(StoreUnavailableException.class, () -> store.read(call).await().atMost(Duration.ofSeconds(5)));
        assertEquals(2, calls.get());
    }

    @Test
    void anSqlErrorOfTheStoreIsNeverRetried() {
        AtomicInteger calls = new AtomicInteger();
        Uni<String> call = failingFirst(calls, new PgException("relation does not exist", "ERROR", "42P01", null));

        assertThrows(PgException.class, () -> store.read(call).await().atMost(Duration.ofSeconds(5)));
        assertEquals(1, calls.get());
    }

    private static Uni<String> failingFirst(AtomicInteger calls, RuntimeException failure) {
        return Uni.createFrom().item(() -> {
            if (calls.incrementAndGet() == 1) {
                throw failure;
            }
            return "row";
        });
    }
}
