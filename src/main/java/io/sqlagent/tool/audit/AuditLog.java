package io.sqlagent.tool.audit;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.sqlagent.store.StoreMigrations;
import io.sqlagent.tool.ToolCallListener;
import io.sqlagent.tool.ToolExecution;
import io.sqlagent.tool.ToolJson;
import io.sqlagent.tool.ToolRegistry;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Records every tool call in the store, write-behind: the call only enqueues a record (a few
 * hundred nanoseconds); a timer drains the queue in batch inserts. A full queue drops records
 * rather than slowing calls, and counts them in {@code sqlagent_audit_dropped_total}.
 */
@ApplicationScoped
public class AuditLog implements ToolCallListener {

    private static final String INSERT = "INSERT INTO tool_call_audit (called_at, caller, principal, conversation_id, call_id, tool,"
            + " outcome, duration_us, result_bytes, message, arguments) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)";

    private final AuditConfig config;
    private final Pool store;
    private final Vertx vertx;
    private final StoreMigrations migrations;
    private final AuditQueue queue;
    private final AtomicBoolean flushing = new AtomicBoolean();
    private final Counter written;
    private long timerId = -1;

    AuditLog(AuditConfig config, Pool store, Vertx vertx, StoreMigrations migrations, ToolRegistry registry, MeterRegistry meters) {
        this.config = config;
        this.store = store;
        this.vertx = vertx;
        this.migrations = migrations;
        this.queue = new AuditQueue(registry, config.queueCapacity(),
                Counter.builder("sqlagent.audit.dropped").description("Audit records dropped because the queue was full")
                        .register(meters));
        this.written = Counter.builder("sqlagent.audit.written").description("Audit records written to the store")
                .register(meters);
    }

    void startFlushing(@Observes StartupEvent event) {
        if (config.enabled()) {
            timerId = vertx.setPeriodic(config.flushInterval().toMillis(), id -> flush().subscribe().with(count -> {
            }, failure -> Log.warnf("Audit records could not be written yet: %s", failure.getMessage())));
        }
    }

    @Override
    public void completed(ToolExecution execution) {
        if (config.enabled()) {
            queue.offer(execution);
        }
    }

    /** Writes what is queued now, in batches; returns how many records were written. */
    public Uni<Integer> flush() {
        if (!migrations.ready() || !flushing.compareAndSet(false, true)) {
            return Uni.createFrom().item(0);
        }
        return writeBatches(0).eventually(() -> flushing.set(false));
    }

    private Uni<Integer> writeBatches(int writtenSoFar) {
        List<AuditRecord> batch = queue.take(config.batchSize());
        if (batch.isEmpty()) {
            return Uni.createFrom().item(writtenSoFar);
        }
        List<Tuple> rows = batch.stream().map(AuditLog::tuple).toList();
        return store.preparedQuery(INSERT).executeBatch(rows)
                .invoke(done -> written.increment(batch.size()))
                // Put the batch back to be retried, as far as the queue has room.
                .onFailure().invoke(failure -> queue.putBack(batch))
                .flatMap(done -> writeBatches(writtenSoFar + batch.size()));
    }

    private static Tuple tuple(AuditRecord record) {
        return Tuple.tuple()
                .addValue(record.calledAt().atOffset(ZoneOffset.UTC))
                .addValue(record.caller())
                .addValue(record.principal())
                .addValue(record.conversationId())
                .addValue(record.callId())
                .addValue(record.tool())
                .addValue(record.outcome())
                .addValue(record.durationMicros())
                .addValue(sizeOf(record.result()))
                .addValue(record.message())
                .addValue(record.arguments() == null ? null : new JsonObject(record.arguments().toString()));
    }

    private static int sizeOf(JsonNode result) {
        if (result == null) {
            return 0;
        }
        try {
            return ToolJson.MAPPER.writeValueAsString(result).getBytes(StandardCharsets.UTF_8).length;
        } catch (JsonProcessingException e) {
            return -1;
        }
    }

    /** Runs at the start of shutdown, while the store's pool is still open. */
    void drain(@Observes ShutdownEvent event) {
        if (timerId >= 0) {
            vertx.cancelTimer(timerId);
        }
        try {
            flush().await().atMost(java.time.Duration.ofSeconds(5));
        } catch (RuntimeException e) {
            Log.warnf("%d audit records were not written at shutdown: %s", queue.size(), e.getMessage());
        }
    }
}
