package io.sqlagent.audit;

import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.sqlagent.StorableText;
import io.sqlagent.store.StoreMigrations;
import io.sqlagent.tool.ToolCallListener;
import io.sqlagent.tool.ToolExecution;
import io.sqlagent.tool.ToolRegistry;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;

/**
 * Records every tool call in the store, write-behind: the call only enqueues a record (a few
 * hundred nanoseconds); a timer drains the queue in batch inserts. A full queue drops records
 * rather than slowing calls, and counts them in {@code sqlagent_audit_dropped_total}. Text
 * PostgreSQL cannot store (NUL characters) is cleaned first; a record the store still refuses
 * is dropped and counted on its own, so it never holds back the records around it.
 * <p>
 * While the store cannot be reached (the embedded server restarting, a failover) records are spooled in that same
 * queue, in memory, bounded by {@code sqlagent.audit.queue-capacity}, and written when it is back; each record spooled
 * so is counted in {@code sqlagent_audit_spooled_total}, and {@code sqlagent_audit_waiting} says how many wait. A batch
 * whose commit was lost with the connection is written again (a record may then be stored twice, never lost).
 */
@ApplicationScoped
public class AuditLog implements ToolCallListener {

    private static final String INSERT = """
            INSERT INTO tool_call_audit
                (called_at, caller, principal, conversation_id, call_id, tool, outcome, duration_us, result_bytes, message,
                 arguments, trace_id)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)""";

    /** The longest shutdown waits for queued records to be written. */
    private static final Duration DRAIN_WAIT = Duration.ofSeconds(10);

    private final AuditConfig config;
    private final Pool store;
    private final Vertx vertx;
    private final StoreMigrations migrations;
    private final AuditQueue queue;
    private final AtomicBoolean flushing = new AtomicBoolean();
    private final Counter written;
    private final Counter spooled;
    private long timerId = -1;

    AuditLog(AuditConfig config, Pool store, Vertx vertx, StoreMigrations migrations, ToolRegistry registry,
            MeterRegistry meters) {
        this.config = config;
        this.store = store;
        this.vertx = vertx;
        this.migrations = migrations;
        this.queue = new AuditQueue(registry, config.queueCapacity(),
                Counter.builder("sqlagent.audit.dropped")
                        .description("Audit records dropped: the queue was full, or the store refused them")
                        .register(meters));
        this.written = Counter.builder("sqlagent.audit.written").description("Audit records written to the store")
                .register(meters);
        this.spooled = Counter.builder("sqlagent.audit.spooled")
                .description("Audit records the store could not take, kept in memory to be written when it is back")
                .register(meters);
        Gauge.builder("sqlagent.audit.waiting", queue, AuditQueue::size)
                .description("Audit records waiting to be written to the store").register(meters);
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
        List<Row> batch = rows(queue.take(config.batchSize()));
        if (batch.isEmpty()) {
            return queue.size() == 0 ? Uni.createFrom().item(writtenSoFar) : writeBatches(writtenSoFar);
        }
        return store.preparedQuery(INSERT).executeBatch(batch.stream().map(Row::values).toList())
                .replaceWith(batch.size())
                .invoke(count -> written.increment(count))
                .onFailure(AuditLog::refusesData).recoverWithUni(refused -> writeOneByOne(batch))
                // The store cannot be reached: put the batch back to be retried, as far as the queue has room.
                .onFailure(failure -> !(failure instanceof PartlyWritten)).invoke(failure -> spool(records(batch)))
                .flatMap(count -> writeBatches(writtenSoFar + count));
    }

    /** A record and the values of its row. */
    private record Row(AuditRecord record, Tuple values) {
    }

    /** The rows of the records whose values can be built at all; any other record is dropped and counted. */
    private List<Row> rows(List<AuditRecord> records) {
        List<Row> rows = new ArrayList<>(records.size());
        for (AuditRecord record : records) {
            try {
                rows.add(new Row(record, tuple(record)));
            } catch (RuntimeException e) {
                drop(record, e.getMessage());
            }
        }
        return rows;
    }

    private static List<AuditRecord> records(List<Row> rows) {
        return rows.stream().map(Row::record).toList();
    }

    /**
     * PostgreSQL refused the batch for the data in it: some record holds what the table cannot
     * take. Writing the records one by one keeps the others; a record refused on its own is
     * dropped and counted, never retried, so one bad record cannot stop the audit log for good.
     */
    private Uni<Integer> writeOneByOne(List<Row> batch) {
        return Multi.createFrom().range(0, batch.size())
                .onItem().transformToUniAndConcatenate(index -> writeOne(batch, index))
                .collect().with(Collectors.summingInt(Integer::intValue));
    }

    /** Writes row {@code index} of {@code batch}: 1 when written, 0 when refused and dropped. */
    private Uni<Integer> writeOne(List<Row> batch, int index) {
        Row row = batch.get(index);
        return store.preparedQuery(INSERT).execute(row.values())
                .replaceWith(1)
                .invoke(count -> written.increment(count))
                .onFailure(AuditLog::refusesData).recoverWithItem(refused -> {
                    PgException pg = (PgException) refused;
                    drop(row.record(), "SQLSTATE " + pg.getSqlState() + ": " + pg.getErrorMessage());
                    return 0;
                })
                .onFailure().transform(failure -> {
                    // The store went away meanwhile: what is left is retried later, what was written stays written.
                    spool(records(batch.subList(index, batch.size())));
                    return new PartlyWritten(failure);
                });
    }

    /**
     * A refusal of the row's data (classes 22 data exception, 23 integrity constraint, 54 program
     * limit), not of the connection or the server's state: retrying the same row cannot succeed.
     */
    private static boolean refusesData(Throwable failure) {
        if (!(failure instanceof PgException pg) || pg.getSqlState() == null) {
            return false;
        }
        String sqlState = pg.getSqlState();
        return sqlState.startsWith("22") || sqlState.startsWith("23") || sqlState.startsWith("54");
    }

    /** Keeps records the store could not take, to be written when it is back. */
    private void spool(List<AuditRecord> records) {
        spooled.increment(queue.putBack(records));
    }

    private void drop(AuditRecord record, String reason) {
        queue.countDropped();
        Log.warnf("Audit record of tool '%s' (call %s) dropped: the store refused it (%s)",
                StorableText.clean(record.tool()), StorableText.clean(record.callId()), reason);
    }

    /** The one-by-one write stopped because the store could not be reached; the rest is queued again. */
    private static final class PartlyWritten extends RuntimeException {
        PartlyWritten(Throwable cause) {
            super(cause.getMessage(), cause, false, false);
        }
    }

    private static Tuple tuple(AuditRecord record) {
        return Tuple.tuple()
                .addValue(record.calledAt().atOffset(ZoneOffset.UTC))
                .addValue(StorableText.clean(record.caller()))
                .addValue(StorableText.clean(record.principal()))
                .addValue(StorableText.clean(record.conversationId()))
                .addValue(StorableText.clean(record.callId()))
                .addValue(StorableText.clean(record.tool()))
                .addValue(StorableText.clean(record.outcome()))
                .addValue(record.durationMicros())
                .addValue(record.resultBytes())
                .addValue(StorableText.clean(record.message()))
                .addValue(record.arguments() == null ? null : new JsonObject(StorableText.clean(record.arguments()).toString()))
                .addValue(record.traceId());
    }

    /**
     * Runs at shutdown, after the chat runs ended and while the store's pool is still open: waits
     * for a write in progress (a flush then returns nothing at once) and writes every record still
     * queued, within {@link #DRAIN_WAIT}.
     */
    void drain(@Observes ShutdownEvent event) {
        if (timerId >= 0) {
            vertx.cancelTimer(timerId);
        }
        long deadline = System.nanoTime() + DRAIN_WAIT.toNanos();
        try {
            while (queue.size() > 0 || flushing.get()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the store did not take them within " + DRAIN_WAIT.toSeconds() + " s");
                }
                if (flushing.get()) {
                    Thread.sleep(10);
                } else if (migrations.ready()) {
                    flush().await().atMost(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
                } else {
                    throw new IllegalStateException("the store's schema is not ready");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            Log.warnf("%d audit records were not written at shutdown: interrupted", queue.size());
        } catch (RuntimeException e) {
            Log.warnf("%d audit records were not written at shutdown: %s", queue.size(), e.getMessage());
        }
    }
}
